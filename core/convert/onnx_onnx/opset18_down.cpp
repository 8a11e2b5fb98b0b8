// The step from opsets 18-26 to 17: one plan per op that changed after 17 (an adapter, or a refusal with its
// reason), dispatching to small adapters here and in opset18_functions.cpp / opset18_inputs.cpp. Here: Reduce*
// axes input -> attribute (18), Split num_outputs -> split sizes (18), attributes at values that mean what
// opset 17 meant dropped, float8/int4/int2 constant weights widened exactly, and Mish/Gelu/Swish.
#include "convert/onnx_onnx/opset18_down.h"

#include <cmath>
#include <map>
#include <sstream>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/opset18_body.h"
#include "schema/opsets_18_26/down_forms.h"
#include "convert/onnx_onnx/opset18_steps.h"
#include "schema/opsets_18_26/op_facts.h"
#include "ir/graph.h"
#include "ir/packed_types.h"

namespace fb::convert::onnx_onnx {
namespace {

using StepFnPtr = void (*)(ir::Node&, HandlerContext&);

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }
std::string at(const ir::Node& n, int64_t since) { return n.opType + "-" + std::to_string(since); }

std::string attrText(const ir::Attribute& a) {
  std::ostringstream s;
  switch (a.type) {
    case ir::AttrType::Int:
      s << a.i;
      break;
    case ir::AttrType::Float:
      s << a.f;
      break;
    case ir::AttrType::String:
      s << a.s;
      break;
    default:
      return "<list>";
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

// ReduceMax/ReduceMin-20 on bool: max is "any", min is "all"; on 0/1 as uint8 (opset 12 and later) they are the
// same, and an empty reduction gives uint8's lowest (false) or highest (true, after the Cast back), as on bool.
void reduceBoolThroughUint8(ir::Node& n, HandlerContext& ctx, const std::optional<std::vector<int64_t>>& axes) {
  std::string attrs = "keepdims = " + std::to_string(n.attrInt("keepdims", 1));
  if (axes && !axes->empty()) attrs += ", axes = " + intList(*axes);
  const std::string reduce = "r = " + n.opType + " <" + attrs + "> (u)";
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Add("u = Cast <to = 2> (X)");
        b.Add(reduce.c_str());
        b.Add("Y = Cast <to = 9> (r)");
      },
      n.opType + " on bool through uint8 and back");
}

// Reduce* (18): axes became an optional input. A constant one goes back to the attribute; absent axes with
// noop_with_empty_axes=0 mean "all axes", as an absent attribute did.
void reduceAxes(ir::Node& n, HandlerContext& ctx) {
  const bool onBool = ctx.elemType(n.input(0)) == ir::DataType::Bool;
  if (onBool && n.opType != "ReduceMax" && n.opType != "ReduceMin")
    throw Unsupported(n.opType + " on bool: opset 17's " + n.opType + " has no bool form");
  std::optional<std::vector<int64_t>> axes;
  if (n.input(1)) axes = requireConstantInts(n, 1, ctx, "axes");
  if (n.attrInt("noop_with_empty_axes", 0) != 0 && (!axes || axes->empty()))
    throw Unsupported(n.opType +
                      "-18: noop_with_empty_axes=1 with empty axes (identity) has no equivalent at opset 17");
  if (onBool) return reduceBoolThroughUint8(n, ctx, axes);
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
  if (parts != static_cast<int64_t>(n.outputs().size()))
    throw Unsupported("Split-18: num_outputs=" + std::to_string(parts) + " but the node has " +
                      std::to_string(n.outputs().size()) + " outputs");
  // Only the split dimension needs to be static (a symbolic batch dimension elsewhere is fine).
  const ir::TypeInfo* known = n.input(0) && n.input(0)->type.shape ? &n.input(0)->type : ctx.inferredType(n.input(0));
  int64_t axis = n.attrInt("axis", 0);
  if (!known || !known->shape)
    throw Unsupported("Split-18 num_outputs: the input's rank is unknown, so the sizes are unknown");
  int64_t rank = static_cast<int64_t>(known->shape->size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) throw Unsupported("Split-18: axis out of range");
  const ir::Dim& splitDim = (*known->shape)[static_cast<size_t>(axis)];
  if (!splitDim.isValue())
    throw Unsupported("Split-18 num_outputs: the split dimension is not static, so the sizes are unknown");
  int64_t dim = splitDim.value;
  if (dim < 0) throw Unsupported("Split-18: negative split dimension");
  int64_t chunk = dim / parts + (dim % parts != 0);
  std::vector<int64_t> sizes;
  for (int64_t left = dim; left > 0; left -= chunk) sizes.push_back(std::min(chunk, left));
  if (static_cast<int64_t>(sizes.size()) != parts)
    throw Unsupported("Split-18: " + std::to_string(dim) + " cannot be cut into " + std::to_string(parts) + " chunks");
  ctx.note = "num_outputs=" + std::to_string(parts) + " -> split input of static sizes";
  if (!ctx.commit()) return;
  n.removeAttr("num_outputs");
  ir::Value* c = ctx.constantInt64(baseName(n) + "_split", sizes);
  if (n.inputs().size() < 2)
    n.addInput(c);
  else
    n.setInput(1, c);
}

// A scalar constant of the input's floating type (float or double), for the activation bodies below.
onnx::TensorProto scalarOf(const ir::Node& n, const HandlerContext& ctx, double value) {
  ir::DataType t = ctx.elemType(n.input(0));
  onnx::TensorProto c;
  if (t == ir::DataType::Double) {
    c.set_data_type(onnx::TensorProto::DOUBLE);
    c.add_double_data(value);
  } else if (t == ir::DataType::Float || t == ir::DataType::Undefined) {
    c.set_data_type(onnx::TensorProto::FLOAT);
    c.add_float_data(static_cast<float>(value));
  } else {
    throw Unsupported(n.opType + " on " + std::string(ir::dataTypeName(t)) +
                      " is not decomposed (float and double only)");
  }
  return c;
}

// Mish (18, 22): x * tanh(softplus(x)).
void mish(ir::Node& n, HandlerContext& ctx) {
  scalarOf(n, ctx, 0.0);  // type check
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [](onnx::FunctionBuilder& b) {
        b.Add("sp = Softplus(X)");
        b.Add("th = Tanh(sp)");
        b.Add("Y = Mul(X, th)");
      },
      "decomposed into x * Tanh(Softplus(x))");
}

// Swish (24): x * sigmoid(alpha * x).
void swish(ir::Node& n, HandlerContext& ctx) {
  const float alpha = n.attrFloat("alpha", 1.0f);
  auto alphaC = scalarOf(n, ctx, alpha);
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        std::string in = "X";
        if (alpha != 1.0f) {
          b.Const("alpha", alphaC);
          b.Add("scaled = Mul(X, alpha)");
          in = "scaled";
        }
        b.Add(("s = Sigmoid(" + in + ")").c_str());
        b.Add("Y = Mul(X, s)");
      },
      "decomposed into x * Sigmoid(alpha * x)");
}

// Gelu (20): approximate=none: 0.5 x (1 + erf(x / sqrt 2)); tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
void gelu(ir::Node& n, HandlerContext& ctx) {
  const std::string approx = n.attrString("approximate", "none");
  if (approx != "none" && approx != "tanh") throw Unsupported("Gelu-20: unknown approximate='" + approx + "'");
  auto half = scalarOf(n, ctx, 0.5), one = scalarOf(n, ctx, 1.0), rsqrt2 = scalarOf(n, ctx, 1.0 / std::sqrt(2.0)),
       c = scalarOf(n, ctx, 0.044715), k = scalarOf(n, ctx, std::sqrt(2.0 / M_PI));
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("half", half);
        b.Const("one", one);
        if (approx == "none") {
          b.Const("rsqrt2", rsqrt2);
          b.Add("scaled = Mul(X, rsqrt2)");
          b.Add("inner = Erf(scaled)");
        } else {
          b.Const("c", c);
          b.Const("k", k);
          b.Add("x2 = Mul(X, X)");
          b.Add("x3 = Mul(x2, X)");
          b.Add("cx3 = Mul(x3, c)");
          b.Add("sum = Add(X, cx3)");
          b.Add("arg = Mul(sum, k)");
          b.Add("inner = Tanh(arg)");
        }
        b.Add("onep = Add(inner, one)");
        b.Add("halfx = Mul(X, half)");
        b.Add("Y = Mul(halfx, onep)");
      },
      "decomposed into 0.5 * x * (1 + " + std::string(approx == "none" ? "Erf(x / sqrt(2))" : "Tanh(...)") + ")");
}

// Cast/CastLike (19+): saturate only matters for float8 targets, which are unsupported anyway (outputs).
void castSaturate(ir::Node& n, HandlerContext& ctx) {
  ctx.note = "saturate/round_mode dropped (they only apply to float8 targets)";
  if (!n.hasAttr("saturate") && !n.hasAttr("round_mode")) return;
  if (!ctx.commit()) return;
  n.removeAttr("saturate");
  n.removeAttr("round_mode");
}

// Attributes a version after 17 added; held at their default they mean what opset 17 meant.
void addedAttributesAtDefault(ir::Node& n, HandlerContext& ctx, const schema::opsets_18_26::SchemaFact& fact,
                              const std::vector<std::string>& names) {
  std::vector<std::string> drop;
  for (const auto& name : names)
    if (const auto* a = n.attr(name)) {
      if (!sameAsDefault(*a, schema::opsets_18_26::attributeDefault(fact, name).value_or("")))
        throw Unsupported(at(n, fact.since) + ": " + name + "=" + attrText(*a) + " has no equivalent at opset 17");
      drop.push_back(name);
    }
  if (drop.empty()) return;
  ctx.note = "attribute(s) at their default dropped";
  if (!ctx.changed && !ctx.replaced) ctx.attributesOnly = true;
  if (ctx.commit())
    for (const auto& name : drop) n.removeAttr(name);
}

// ScatterElements/ScatterND-18: reduction max/min are new (exact older form only for distinct constant indices).
void scatterReduction(ir::Node& n, HandlerContext& ctx) {
  std::string red = n.attrString("reduction", "none");
  if (red == "max" || red == "min") scatterMaxMinTo17(n, ctx);
}

// AveragePool-19 / LpPool-18: dilations of 1 dropped, others written as a depthwise Conv; LpPool's ceil_mode=1 as
// explicit end pads.
void poolDilations(ir::Node& n, HandlerContext& ctx) {
  const schema::opsets_18_26::SchemaFact* fact = schema::opsets_18_26::schemaFact(n.opType, ctx.sourceOpset);
  const bool ceilPadded = n.opType == "LpPool" && n.attrInt("ceil_mode", 0) != 0;
  const std::vector<int64_t> pads = ceilPadded ? lpPoolCeilModePads(n, ctx) : n.attrInts("pads");
  if (n.opType == "LpPool" && !ceilPadded) addedAttributesAtDefault(n, ctx, *fact, {"ceil_mode"});
  if (const auto* d = n.attr("dilations")) {
    for (int64_t v : d->ints)
      if (v != 1) {
        if (n.opType == "AveragePool") return averagePoolDilatedTo17(n, ctx);
        if (n.opType == "LpPool") return lpPoolDilatedTo17(n, ctx, pads);
        throw Unsupported(at(n, fact->since) +
                          ": dilations other than 1 have no opset-17 form (the pooling windows skip inputs)");
      }
    ctx.note = "dilations of 1 dropped";
    if (ctx.commit()) n.removeAttr("dilations");
  }
  if (!ceilPadded) return;
  ctx.note = (ctx.note.empty() ? "" : ctx.note + "; ") + "ceil_mode=1 -> end pads " + intList(pads);
  if (!ctx.commit()) return;
  n.removeAttr("ceil_mode");
  n.setAttr(ir::Attribute::makeInts("pads", pads));
}

// QuantizeLinear/DequantizeLinear-19..25: per-tensor and per-axis forms as before; blocked forms refused;
// output_dtype/precision only at values that mean what opset 17 computes.
void quantization(ir::Node& n, HandlerContext& ctx) {
  const schema::opsets_18_26::SchemaFact* fact = schema::opsets_18_26::schemaFact(n.opType, ctx.sourceOpset);
  if (n.attrInt("block_size", 0) != 0)
    throw Unsupported(at(n, fact->since) +
                      ": blocked quantization (block_size=" + std::to_string(n.attrInt("block_size", 0)) +
                      ") has no opset-17 form (opset 17 has per-tensor and per-axis scales only)");
  ir::DataType scaleType = ctx.elemType(n.input(1));
  if (scaleType != ir::DataType::Undefined && scaleType != ir::DataType::Float)
    throw Unsupported(at(n, fact->since) + ": scale of type " + std::string(ir::dataTypeName(scaleType)) +
                      "; opset 17 takes float scales only");
  std::vector<std::string> drop;
  for (const char* name : {"output_dtype", "precision"})
    if (const auto* a = n.attr(name)) {
      // 0 = the default type; FLOAT (1) is what opset 17 produces/computes in with float scales.
      bool same = a->i == 0 || (a->i == 1 && (n.opType == "DequantizeLinear" || std::string(name) == "precision"));
      if (n.opType == "QuantizeLinear" && std::string(name) == "output_dtype") {
        ir::DataType zp = n.input(2) ? ctx.elemType(n.input(2)) : ir::DataType::UInt8;
        same = a->i == 0 || a->i == static_cast<int64_t>(zp);
      }
      if (!same)
        throw Unsupported(at(n, fact->since) + ": " + name + "=" + std::to_string(a->i) + " has no opset-17 form");
      drop.push_back(name);
    }
  if (n.opType == "QuantizeLinear" && n.hasAttr("saturate")) drop.push_back("saturate");  // only for float8 outputs
  if (drop.empty()) return;
  ctx.note = "attribute(s) meaning opset 17's behaviour dropped";
  if (ctx.commit())
    for (const auto& name : drop) n.removeAttr(name);
}

// The rewrite of each op whose opset-17 form (schema::opsets_18_26::downForm) is an adapter.
const std::map<std::string, StepFnPtr>& rewrites() {
  static const std::map<std::string, StepFnPtr> m{
      {"ReduceL1", reduceAxes},
      {"ReduceL2", reduceAxes},
      {"ReduceLogSum", reduceAxes},
      {"ReduceLogSumExp", reduceAxes},
      {"ReduceMax", reduceAxes},
      {"ReduceMean", reduceAxes},
      {"ReduceMin", reduceAxes},
      {"ReduceProd", reduceAxes},
      {"ReduceSumSquare", reduceAxes},
      {"Split", splitNumOutputs},
      {"Pad", padTo17},
      {"Resize", resizeTo17},
      {"ScatterElements", scatterReduction},
      {"ScatterND", scatterReduction},
      {"LpPool", poolDilations},
      {"AveragePool", poolDilations},
      {"QuantizeLinear", quantization},
      {"DequantizeLinear", quantization},
      {"Cast", castSaturate},
      {"CastLike", castSaturate},
      {"DFT", dftTo17},
      {"GridSample", gridSampleTo17},
      {"OptionalGetElement", optionalTo17},
      {"OptionalHasElement", optionalTo17},
      {"Mish", mish},
      {"Gelu", gelu},
      {"Swish", swish},
      {"GroupNormalization", groupNormalizationTo17},
      {"RMSNormalization", rmsNormalizationTo17},
      {"RotaryEmbedding", rotaryEmbeddingTo17},
      {"AffineGrid", affineGridTo17},
      {"CenterCropPad", centerCropPadTo17},
      {"BitwiseNot", bitwiseNotTo17},
      {"Attention", attentionTo17},
      {"BitwiseAnd", bitwiseBinaryTo17},
      {"BitwiseOr", bitwiseBinaryTo17},
      {"BitwiseXor", bitwiseBinaryTo17},
      {"Col2Im", col2ImTo17},
      {"TensorScatter", tensorScatterTo17},
      {"CumProd", cumProdTo17},
  };
  return m;
}

}  // namespace

std::vector<std::string> opsWithOpset17Rewrite() {
  std::vector<std::string> ops;
  for (const auto& [op, fn] : rewrites()) ops.push_back(op);
  return ops;
}

bool stepDownTo17(ir::Node& n, HandlerContext& ctx) {
  const schema::opsets_18_26::SchemaFact* fact = schema::opsets_18_26::schemaFact(n.opType, ctx.sourceOpset);
  // Before the narrow weights are widened: a float8 weight widened to float is no DequantizeLinear input.
  if (fact && n.opType == "DequantizeLinear" && foldConstantDequantize(n, ctx)) return true;
  if (fact && n.opType == "QuantizeLinear") {
    // The output type follows the zero point (or output_dtype); widening a float8/int4 zero point would change it.
    const ir::Value* zp = n.input(2);
    ir::DataType zt = zp ? (zp->initializer() ? zp->initializer()->dtype : ctx.elemType(zp)) : ir::DataType::Undefined;
    ir::DataType od = static_cast<ir::DataType>(n.attrInt("output_dtype", 0));
    if (ir::isNarrowType(zt) || ir::isNarrowType(od))
      throw Unsupported(at(n, fact->since) + ": quantizes to " +
                        std::string(ir::dataTypeName(ir::isNarrowType(zt) ? zt : od)) +
                        ", a type opset 17 does not have");
  }
  widenNarrowInputs(n, ctx);
  if (!fact) return ctx.changed && ctx.dryRun;
  const auto& changed = schema::opsets_18_26::opsChangedAfter17();
  auto form = changed.find(n.opType);
  if (form != changed.end() && form->second.kind != schema::opsets_18_26::DownForm::Kind::Adapter)
    throw Unsupported(at(n, fact->since) + " has no opset-17 form: " + form->second.text);
  if (form == changed.end() && schema::opsets_18_26::firstOpset(n.opType) != 0)
    throw Unsupported(n.opType + " is new in opset " + std::to_string(schema::opsets_18_26::firstOpset(n.opType)) +
                      "; no exact opset-17 form is implemented");
  if (form != changed.end()) {
    auto rewrite = rewrites().find(n.opType);
    if (rewrite == rewrites().end()) throw Unsupported(at(n, fact->since) + ": no opset-17 rewrite is registered");
    rewrite->second(n, ctx);
  }
  if (ctx.replaced) return true;
  return ctx.changed && ctx.dryRun;
}

}  // namespace fb::convert::onnx_onnx
