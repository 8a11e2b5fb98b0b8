// Adapters from opsets 18-26 to 17, one small function per change (see docs/onnx-opsets-after-17.md):
// Reduce* axes input -> attribute (18), Split num_outputs -> split sizes (18), new attributes at their
// default values dropped, float8/int4/int2 constant weights widened exactly, and the new activation ops
// (Mish 18, Gelu 20, Swish 24) written with opset-17 ops. Anything else is unsupported with the reason.
#include "convert/onnx_onnx/opset18_down.h"

#include <cmath>
#include <functional>
#include <map>
#include <sstream>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/schema_facts_18.h"
#include "ir/graph.h"
#include "ir/packed_types.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }
std::string at(const ir::Node& n, int64_t since) { return n.opType + "-" + std::to_string(since); }

std::string attrText(const ir::Attribute& a) {
  std::ostringstream s;
  switch (a.type) {
    case ir::AttrType::Int: s << a.i; break;
    case ir::AttrType::Float: s << a.f; break;
    case ir::AttrType::String: s << a.s; break;
    default: return "<list>";
  }
  return s.str();
}

bool sameAsDefault(const ir::Attribute& a, const std::string& def) {
  if (def.empty()) return false;
  if (a.type == ir::AttrType::Float) return std::stod(def) == static_cast<double>(a.f);
  return attrText(a) == def;
}

// float8/float4/int4/int2 initializers become the onnx-1.12 type that holds their values exactly (float,
// int8 or uint8); such values computed at run time have no type at opset 17.
void widenNarrowInputs(ir::Node& n, HandlerContext& ctx) {
  for (ir::Value* v : n.inputs()) {
    if (!v) continue;
    ir::DataType t = v->initializer() ? v->initializer()->dtype : ctx.elemType(v);
    if (!ir::isNarrowType(t)) continue;
    auto wide = ir::exactWideningOf(t);
    if (!v->initializer() || !wide)
      throw Unsupported("input '" + v->name() + "' is " + std::string(ir::dataTypeName(t)) +
                        " computed at run time; opset 17 has no such type");
    ctx.note = std::string(ir::dataTypeName(t)) + " weight '" + v->name() + "' widened to " +
               std::string(ir::dataTypeName(*wide)) + " (exact)";
    if (!ctx.commit()) continue;
    ir::Tensor& w = *v->initializer();
    auto values = w.asDouble();
    std::string bytes;
    if (*wide == ir::DataType::Float) {
      std::vector<float> f(values.begin(), values.end());
      bytes.assign(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(float));
    } else {
      for (double d : values) bytes.push_back(static_cast<char>(static_cast<int>(d)));
    }
    w.dtype = *wide;
    w.storage = ir::Tensor::Storage::Raw;
    w.setBytes(std::move(bytes));
    if (v->type.isTensor()) v->type.elemType = *wide;
  }
  for (ir::Value* v : n.outputs())
    if (v && ir::isNarrowType(ctx.elemType(v)))
      throw Unsupported("output '" + v->name() + "' is " + std::string(ir::dataTypeName(ctx.elemType(v))) +
                        "; opset 17 has no such type");
}

// Reduce* (18): axes became an optional input. A constant one goes back to the attribute; absent axes with
// noop_with_empty_axes=0 mean "all axes", as an absent attribute did.
void reduceAxes(ir::Node& n, HandlerContext& ctx) {
  std::optional<std::vector<int64_t>> axes;
  if (n.input(1)) axes = requireConstantInts(n, 1, ctx, "axes");
  if (n.attrInt("noop_with_empty_axes", 0) != 0 && (!axes || axes->empty()))
    throw Unsupported(n.opType + "-18: noop_with_empty_axes=1 with empty axes (identity) has no equivalent at opset 17");
  ctx.note = axes ? "axes input -> attribute" : "no axes: reduce all, as before";
  if (!ctx.commit()) return;
  if (n.input(1)) ctx.dropInput(n, 1);
  n.removeAttr("noop_with_empty_axes");
  if (axes && !axes->empty()) n.setAttr(ir::Attribute::makeInts("axes", *axes));
}

// Split (18): num_outputs = n means chunks of ceil(dim / n), the last one smaller; opset 17 needs the sizes.
void splitNumOutputs(ir::Node& n, HandlerContext& ctx) {
  if (!n.hasAttr("num_outputs")) return;
  int64_t parts = n.attrInt("num_outputs", 0);
  if (parts <= 0) throw Unsupported("Split-18: num_outputs must be positive");
  auto shape = ctx.staticShape(n.input(0));
  int64_t axis = n.attrInt("axis", 0);
  if (!shape) throw Unsupported("Split-18 num_outputs: the split dimension is not static, so the sizes are unknown");
  int64_t rank = static_cast<int64_t>(shape->size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) throw Unsupported("Split-18: axis out of range");
  int64_t dim = (*shape)[axis], chunk = (dim + parts - 1) / parts;
  std::vector<int64_t> sizes;
  for (int64_t left = dim; left > 0; left -= chunk) sizes.push_back(std::min(chunk, left));
  if (static_cast<int64_t>(sizes.size()) != parts)
    throw Unsupported("Split-18: " + std::to_string(dim) + " cannot be cut into " + std::to_string(parts) + " chunks");
  ctx.note = "num_outputs=" + std::to_string(parts) + " -> split input of static sizes";
  if (!ctx.commit()) return;
  n.removeAttr("num_outputs");
  ir::Value* c = ctx.constantInt64(baseName(n) + "_split", sizes);
  if (n.inputs().size() < 2) n.addInput(c);
  else n.setInput(1, c);
}

void requireFloatInput(const ir::Node& n, const HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && t != ir::DataType::Float && t != ir::DataType::Double &&
      t != ir::DataType::Float16)
    throw Unsupported(n.opType + " on " + std::string(ir::dataTypeName(t)) + " is not decomposed");
}

ir::DataType floatType(const ir::Node& n, const HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  return t == ir::DataType::Undefined ? ir::DataType::Float : t;
}

// Builds the replacement of a one-output op: `body` gets x and the output value and inserts nodes.
void replaceUnary(ir::Node& n, HandlerContext& ctx, const std::string& note,
                  const std::function<void(ir::Value* x, ir::Value* y, const std::string& b)>& body) {
  requireFloatInput(n, ctx);
  ctx.note = note;
  if (!ctx.commit()) return;
  std::string b = baseName(n);
  ir::Value* x = n.input(0);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(b + "_replaced"));
  body(x, y, b);
  ctx.removeReplaced(n);
}

// Mish (18): x * tanh(softplus(x)).
void mish(ir::Node& n, HandlerContext& ctx) {
  replaceUnary(n, ctx, "decomposed into x * Tanh(Softplus(x))", [&](ir::Value* x, ir::Value* y, const std::string& b) {
    ir::Value* sp = ctx.newValue(b + "_softplus");
    ctx.insertNode(n, "Softplus", {x}, {sp});
    ir::Value* th = ctx.newValue(b + "_tanh");
    ctx.insertNode(n, "Tanh", {sp}, {th});
    ctx.insertNode(n, "Mul", {x, th}, {y});
  });
}

// Swish (24): x * sigmoid(alpha * x).
void swish(ir::Node& n, HandlerContext& ctx) {
  float alpha = n.attrFloat("alpha", 1.0f);
  replaceUnary(n, ctx, "decomposed into x * Sigmoid(alpha * x)", [&](ir::Value* x, ir::Value* y, const std::string& b) {
    ir::Value* in = x;
    if (alpha != 1.0f) {
      in = ctx.newValue(b + "_scaled");
      ctx.insertNode(n, "Mul", {x, scalarLike(ctx, b + "_alpha", floatType(n, ctx), alpha)}, {in});
    }
    ir::Value* s = ctx.newValue(b + "_sigmoid");
    ctx.insertNode(n, "Sigmoid", {in}, {s});
    ctx.insertNode(n, "Mul", {x, s}, {y});
  });
}

// Gelu (20): approximate=none: 0.5 x (1 + erf(x / sqrt 2)); tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
void gelu(ir::Node& n, HandlerContext& ctx) {
  std::string approx = n.hasAttr("approximate") ? n.attr("approximate")->s : "none";
  if (approx != "none" && approx != "tanh") throw Unsupported("Gelu-20: unknown approximate='" + approx + "'");
  replaceUnary(n, ctx, "decomposed into 0.5 * x * (1 + " + std::string(approx == "none" ? "Erf(x / sqrt(2))" : "Tanh(...)") + ")",
               [&](ir::Value* x, ir::Value* y, const std::string& b) {
    ir::DataType t = floatType(n, ctx);
    auto bin = [&](const char* op, ir::Value* a, ir::Value* c, const std::string& name) {
      ir::Value* out = ctx.newValue(b + name);
      ctx.insertNode(n, op, {a, c}, {out});
      return out;
    };
    ir::Value* inner;
    if (approx == "none") {
      ir::Value* scaled = bin("Mul", x, scalarLike(ctx, b + "_rsqrt2", t, 1.0 / std::sqrt(2.0)), "_scaled");
      inner = ctx.newValue(b + "_erf");
      ctx.insertNode(n, "Erf", {scaled}, {inner});
    } else {
      ir::Value* x3 = bin("Mul", bin("Mul", x, x, "_x2"), x, "_x3");
      ir::Value* s = bin("Add", x, bin("Mul", x3, scalarLike(ctx, b + "_c", t, 0.044715), "_cx3"), "_sum");
      ir::Value* arg = bin("Mul", s, scalarLike(ctx, b + "_k", t, std::sqrt(2.0 / M_PI)), "_arg");
      inner = ctx.newValue(b + "_tanh");
      ctx.insertNode(n, "Tanh", {arg}, {inner});
    }
    ir::Value* one = bin("Add", inner, scalarLike(ctx, b + "_one", t, 1.0), "_1p");
    ir::Value* half = bin("Mul", x, scalarLike(ctx, b + "_half", t, 0.5), "_halfx");
    ctx.insertNode(n, "Mul", {half, one}, {y});
  });
}

// Cast/CastLike (19+): saturate only matters for float8 targets, which are unsupported anyway (outputs).
void castSaturate(ir::Node& n, HandlerContext& ctx) {
  ctx.note = "saturate/round_mode dropped (they only apply to float8 targets)";
  if (!n.hasAttr("saturate") && !n.hasAttr("round_mode")) return;
  if (!ctx.commit()) return;
  n.removeAttr("saturate");
  n.removeAttr("round_mode");
}

using StepFn = void (*)(ir::Node&, HandlerContext&);

const std::map<std::string, StepFn>& steps() {
  static const std::map<std::string, StepFn> m{
      {"ReduceL1", reduceAxes}, {"ReduceL2", reduceAxes}, {"ReduceLogSum", reduceAxes},
      {"ReduceLogSumExp", reduceAxes}, {"ReduceMax", reduceAxes}, {"ReduceMean", reduceAxes},
      {"ReduceMin", reduceAxes}, {"ReduceProd", reduceAxes}, {"ReduceSumSquare", reduceAxes},
      {"Split", splitNumOutputs}, {"Mish", mish}, {"Gelu", gelu}, {"Swish", swish},
      {"Cast", castSaturate}, {"CastLike", castSaturate},
  };
  return m;
}

// Attributes a version after 17 added; held at their default they mean what opset 17 meant.
const std::map<std::string, std::vector<std::string>>& addedAttributes() {
  static const std::map<std::string, std::vector<std::string>> m{
      {"Resize", {"antialias", "keep_aspect_ratio_policy"}},
      {"ScatterElements", {}}, {"ScatterND", {}},
      {"LpPool", {"ceil_mode"}},
      {"AveragePool", {}},
      {"QuantizeLinear", {"saturate", "block_size", "output_dtype", "precision"}},
      {"DequantizeLinear", {"block_size", "output_dtype"}},
  };
  return m;
}

}  // namespace

bool stepDownTo17(ir::Node& n, HandlerContext& ctx) {
  const SchemaFact* fact = schemaFact18(n.opType, ctx.sourceOpset);
  widenNarrowInputs(n, ctx);
  if (!fact) return ctx.changed && ctx.dryRun;
  if (auto first = firstOpset18(n.opType); first != 0 && !steps().count(n.opType))
    throw Unsupported(n.opType + " is new in opset " + std::to_string(first) +
                      "; no exact opset-17 form is implemented");
  if (auto it = steps().find(n.opType); it != steps().end()) {
    it->second(n, ctx);
  } else if (auto added = addedAttributes().find(n.opType); added != addedAttributes().end()) {
    std::vector<std::string> drop;
    for (const auto& name : added->second)
      if (const auto* a = n.attr(name)) {
        if (!sameAsDefault(*a, attributeDefault(*fact, name).value_or("")))
          throw Unsupported(at(n, fact->since) + ": " + name + "=" + attrText(*a) + " has no equivalent at opset 17");
        drop.push_back(name);
      }
    if (!drop.empty()) {
      ctx.note = "attribute(s) at their default dropped";
      if (!ctx.changed && !ctx.replaced) ctx.attributesOnly = true;
      if (ctx.commit())
        for (const auto& name : drop) n.removeAttr(name);
    }
  }
  // Value changes the attributes alone do not show.
  if (n.opType == "ScatterElements" || n.opType == "ScatterND") {
    std::string red = n.hasAttr("reduction") ? n.attr("reduction")->s : "none";
    if (red == "max" || red == "min") throw Unsupported(at(n, fact->since) + ": reduction='" + red + "' is new in opset 18");
  }
  if (n.opType == "Pad" && n.input(3)) throw Unsupported("Pad-18 axes input: not converted yet");
  if (n.opType == "Pad" && n.hasAttr("mode") && n.attr("mode")->s == "wrap")
    throw Unsupported("Pad-19 mode='wrap' has no equivalent at opset 17");
  if (n.opType == "Resize") {
    if (n.hasAttr("axes")) throw Unsupported("Resize-18 axes attribute: not converted yet");
    if (n.hasAttr("coordinate_transformation_mode") && n.attr("coordinate_transformation_mode")->s == "half_pixel_symmetric")
      throw Unsupported("Resize-19 half_pixel_symmetric has no equivalent at opset 17");
  }
  if (n.opType == "AveragePool" || n.opType == "LpPool")
    if (const auto* d = n.attr("dilations")) {
      for (int64_t v : d->ints)
        if (v != 1) throw Unsupported(at(n, fact->since) + ": dilations other than 1 are new; not converted");
      if (ctx.commit()) n.removeAttr("dilations");
    }
  if ((n.opType == "QuantizeLinear" || n.opType == "DequantizeLinear") && n.attrInt("block_size", 0) != 0)
    throw Unsupported(at(n, fact->since) + ": blocked quantization (block_size) is not converted yet");
  if (n.opType == "GridSample") throw Unsupported("GridSample-20: mode names and N-D semantics are not converted yet");
  if (n.opType == "DFT") throw Unsupported("DFT-20: axis input -> attribute is not converted yet");
  if (n.opType == "Attention" || n.opType == "RotaryEmbedding" || n.opType == "GroupNormalization")
    throw Unsupported(n.opType + ": no opset-17 form implemented yet");
  if (ctx.replaced) return true;
  return ctx.changed && ctx.dryRun;
}

}  // namespace fb::convert::onnx_onnx
