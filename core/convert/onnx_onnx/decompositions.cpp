// Ops newer than the target opset, written with the ops the target has. Each is the operator's definition
// from the ONNX documentation spelled out node by node.
#include <cmath>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }

void requireFloat(const ir::Node& n, const HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && t != ir::DataType::Float && t != ir::DataType::Double)
    throw Unsupported(n.opType + " on " + std::string(ir::dataTypeName(t)) + " is not decomposed (float/double only)");
}

// LayerNormalization (17): (x - mean) / sqrt(var + eps) * scale + bias over the axes from `axis` on.
void layerNormalization(ir::Node& n, HandlerContext& ctx) {
  requireFloat(n, ctx);
  if (isUsed(n.output(1)) || isUsed(n.output(2)))
    throw Unsupported("LayerNormalization: the Mean/InvStdDev outputs are used; only Y is decomposed");
  int64_t axis = n.attrInt("axis", -1);
  std::vector<int64_t> axes;
  if (axis == -1 && ctx.targetOpset >= 11) {
    axes = {-1};
  } else {
    auto rank = ctx.rank(n.input(0));
    if (!rank)
      throw Unsupported("LayerNormalization: the rank is unknown, and opset " + std::to_string(ctx.targetOpset) +
                        " needs the axes spelled out");
    int64_t a = axis < 0 ? axis + *rank : axis;
    for (int64_t i = a; i < *rank; ++i) axes.push_back(ctx.targetOpset >= 11 ? i - *rank : i);
  }
  ctx.note = "decomposed into ReduceMean/Sub/Mul/ReduceMean/Add/Sqrt/Div/Mul/Add";
  if (!ctx.commit()) return;
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) t = ir::DataType::Float;
  std::string b = baseName(n);
  ir::Value* x = n.input(0);
  ir::Value* scale = n.input(1);
  ir::Value* bias = n.input(2);
  ir::Value* y = n.output(0);
  ir::Value* eps = scalarLike(ctx, b + "_epsilon", t, n.attrFloat("epsilon", 1e-5f));
  auto reduceMean = [&](ir::Value* in, const std::string& name) {
    ir::Value* out = ctx.newValue(name);
    ir::Node* r = ctx.insertNode(n, "ReduceMean", {in}, {out});
    r->setAttr(ir::Attribute::makeInts("axes", axes));
    r->setAttr(ir::Attribute::makeInt("keepdims", 1));
    return out;
  };
  auto binary = [&](const char* op, ir::Value* a, ir::Value* c, ir::Value* out) {
    ctx.insertNode(n, op, {a, c}, {out});
    return out;
  };
  ctx.graph.setOutput(&n, 0, ctx.newValue(b + "_replaced"));
  ir::Value* mean = reduceMean(x, b + "_mean");
  ir::Value* d = binary("Sub", x, mean, ctx.newValue(b + "_centered"));
  ir::Value* sq = binary("Mul", d, d, ctx.newValue(b + "_squared"));
  ir::Value* var = reduceMean(sq, b + "_variance");
  ir::Value* ve = binary("Add", var, eps, ctx.newValue(b + "_variance_eps"));
  ir::Value* sd = ctx.newValue(b + "_stddev");
  ctx.insertNode(n, "Sqrt", {ve}, {sd});
  ir::Value* norm = binary("Div", d, sd, ctx.newValue(b + "_normalized"));
  if (bias) {
    ir::Value* scaled = binary("Mul", norm, scale, ctx.newValue(b + "_scaled"));
    binary("Add", scaled, bias, y);
  } else {
    binary("Mul", norm, scale, y);
  }
  ctx.removeReplaced(n);
}

// HardSwish (14): x * HardSigmoid(x) with alpha 1/6 and beta 0.5.
void hardSwish(ir::Node& n, HandlerContext& ctx) {
  requireFloat(n, ctx);
  ctx.note = "decomposed into HardSigmoid(alpha=1/6, beta=0.5) * x";
  if (!ctx.commit()) return;
  std::string b = baseName(n);
  ir::Value* x = n.input(0);
  ir::Value* y = n.output(0);
  ir::Value* gate = ctx.newValue(b + "_gate");
  ir::Node* hs = ctx.insertNode(n, "HardSigmoid", {x}, {gate});
  hs->setAttr(ir::Attribute::makeFloat("alpha", 1.0f / 6.0f));
  hs->setAttr(ir::Attribute::makeFloat("beta", 0.5f));
  ctx.graph.setOutput(&n, 0, ctx.newValue(b + "_replaced"));
  ctx.insertNode(n, "Mul", {x, gate}, {y});
  ctx.removeReplaced(n);
}

// Range (11) with constant start/limit/delta: the sequence itself, as a Constant.
void rangeOfConstants(ir::Node& n, HandlerContext& ctx) {
  auto start = ctx.constantDoubles(n.input(0));
  auto limit = ctx.constantDoubles(n.input(1));
  auto delta = ctx.constantDoubles(n.input(2));
  if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 || delta->size() != 1)
    throw Unsupported("Range with inputs computed at run time does not exist before opset 11");
  if (delta->front() == 0) throw Unsupported("Range: delta is 0");
  ir::DataType t = ctx.elemType(n.input(0));
  int64_t count =
      std::max<int64_t>(0, static_cast<int64_t>(std::ceil((limit->front() - start->front()) / delta->front())));
  ctx.note = "constant inputs: the " + std::to_string(count) + " values as a Constant";
  if (!ctx.commit()) return;
  std::string name = ctx.graph.uniqueName(baseName(n) + "_values");
  ir::Tensor tensor;
  auto fill = [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> v(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i)
      v[static_cast<size_t>(i)] = static_cast<T>(start->front() + static_cast<double>(i) * delta->front());
    return ir::Tensor::fromValues(name, t, {count}, v);
  };
  switch (t) {
    case ir::DataType::Float:
      tensor = fill(float{});
      break;
    case ir::DataType::Double:
      tensor = fill(double{});
      break;
    case ir::DataType::Int32:
      tensor = fill(int32_t{});
      break;
    case ir::DataType::Int16:
      tensor = fill(int16_t{});
      break;
    case ir::DataType::Int64:
    case ir::DataType::Undefined:
      t = ir::DataType::Int64;
      tensor = fill(int64_t{});
      break;
    default:
      throw std::runtime_error("Range on " + std::string(ir::dataTypeName(t)));
  }
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(baseName(n) + "_replaced"));
  ctx.insertNode(n, "Constant", {}, {y})->setAttr(ir::Attribute::makeTensor("value", std::move(tensor)));
  ctx.removeReplaced(n);
}

// Erf (9), found in exported GELU: Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7), odd extension.
void erfPolynomial(ir::Node& n, HandlerContext& ctx) {
  requireFloat(n, ctx);
  ctx.note = "decomposed into the Abramowitz-Stegun 7.1.26 approximation (|error| < 1.5e-7)";
  if (!ctx.commit()) return;
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) t = ir::DataType::Float;
  std::string b = baseName(n);
  auto c = [&](const char* name, double v) { return scalarLike(ctx, b + "_" + name, t, v); };
  auto op = [&](const char* type, std::vector<ir::Value*> in, const std::string& name, ir::Value* out = nullptr) {
    if (!out) out = ctx.newValue(b + "_" + name);
    ctx.insertNode(n, type, in, {out});
    return out;
  };
  ir::Value* x = n.input(0);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(b + "_replaced"));
  ir::Value* ax = op("Abs", {x}, "abs");
  ir::Value* tt =
      op("Div", {c("one", 1.0), op("Add", {c("one_b", 1.0), op("Mul", {ax, c("p", 0.3275911)}, "px")}, "den")}, "t");
  // Horner: t*(a1 + t*(a2 + t*(a3 + t*(a4 + t*a5))))
  ir::Value* poly = op("Mul", {tt, c("a5", 1.061405429)}, "h5");
  poly = op("Mul", {tt, op("Add", {poly, c("a4", -1.453152027)}, "s4")}, "h4");
  poly = op("Mul", {tt, op("Add", {poly, c("a3", 1.421413741)}, "s3")}, "h3");
  poly = op("Mul", {tt, op("Add", {poly, c("a2", -0.284496736)}, "s2")}, "h2");
  poly = op("Mul", {tt, op("Add", {poly, c("a1", 0.254829592)}, "s1")}, "h1");
  ir::Value* gauss = op("Exp", {op("Neg", {op("Mul", {x, x}, "x2")}, "negx2")}, "gauss");
  ir::Value* mag = op("Sub", {c("one_c", 1.0), op("Mul", {poly, gauss}, "tail")}, "magnitude");
  // sign(x) as (x > 0) - (x < 0): Sign itself only exists from opset 9.
  ir::Value* pos = ctx.newValue(b + "_pos");
  ctx.insertNode(n, "Cast", {op("Greater", {x, c("zero", 0.0)}, "gt")}, {pos})
      ->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(t)));
  ir::Value* neg = ctx.newValue(b + "_neg");
  ctx.insertNode(n, "Cast", {op("Less", {x, c("zero_b", 0.0)}, "lt")}, {neg})
      ->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(t)));
  op("Mul", {mag, op("Sub", {pos, neg}, "sign")}, "y", y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerDecompositions(HandlerRegistry& r) {
  add(r, "LayerNormalization", 7, "opsets 7-16: decomposed into ReduceMean/Sub/Mul/Add/Sqrt/Div", layerNormalization);
  add(r, "HardSwish", 7, "opsets 7-13: decomposed into x * HardSigmoid(x)", hardSwish);
  add(r, "Range", 7, "opsets 7-10: constant inputs folded into a Constant", rangeOfConstants);
  add(r, "Erf", 7, "opsets 7-8: polynomial approximation (|error| < 1.5e-7)", erfPolynomial);
  // From the opset that has the op, the op itself (through the compatible version step).
  for (auto [op, first] : {std::pair{"LayerNormalization", 17}, {"HardSwish", 14}, {"Range", 11}, {"Erf", 9}})
    add(r, op, first, std::string("opset ") + std::to_string(first) + "+: the op itself, compatible version step",
        compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
