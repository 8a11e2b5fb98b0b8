// IsInf (10) below 10: a value is infinite exactly when it lies beyond the largest finite value.
#include <cfloat>
#include <limits>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void beyondLargestFinite(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Float && t != ir::DataType::Double)
    throw Unsupported("IsInf: only float and double are rewritten below opset 10");
  const bool pos = n.attrInt("detect_positive", 1) != 0, neg = n.attrInt("detect_negative", 1) != 0;
  ctx.note = "x > max / x < -max (Greater/Less/Or)";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "isinf" : n.name;
  const double big = t == ir::DataType::Float ? static_cast<double>(FLT_MAX) : DBL_MAX;
  ir::Value* x = n.input(0);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  if (!pos && !neg) {
    // Neither sign detected: all false, as x > +inf.
    ir::Value* inf = scalarLike(ctx, base + "_inf", t, std::numeric_limits<double>::infinity());
    ctx.insertNode(n, "Greater", {x, inf}, {y});
  } else if (pos && neg) {
    ir::Value* p = ctx.newValue(base + "_pos");
    ir::Value* q = ctx.newValue(base + "_neg");
    ctx.insertNode(n, "Greater", {x, scalarLike(ctx, base + "_max", t, big)}, {p});
    ctx.insertNode(n, "Less", {x, scalarLike(ctx, base + "_min", t, -big)}, {q});
    ctx.insertNode(n, "Or", {p, q}, {y});
  } else if (pos) {
    ctx.insertNode(n, "Greater", {x, scalarLike(ctx, base + "_max", t, big)}, {y});
  } else {
    ctx.insertNode(n, "Less", {x, scalarLike(ctx, base + "_min", t, -big)}, {y});
  }
  ctx.removeReplaced(n);
}

}  // namespace

void registerIsInfAdapters(HandlerRegistry& r) {
  add(r, "IsInf", 7, "opsets 7-9: Greater/Less than the largest finite value", beyondLargestFinite);
  add(r, "IsInf", 10, "opset 10+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
