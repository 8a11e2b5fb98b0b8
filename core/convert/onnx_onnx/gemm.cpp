// Gemm's C became optional at opset 11; before, a zero C stands in for a missing one.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void requireC(ir::Node& n, HandlerContext& ctx) {
  if (n.input(2)) return compatibleVersionStep(n, ctx);
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) t = ir::DataType::Float;
  ctx.note = "missing C -> zero scalar C";
  if (!ctx.commit()) return;
  n.addInput(scalarLike(ctx, (n.name.empty() ? "gemm" : n.name) + "_zero_c", t, 0.0));
  compatibleVersionStep(n, ctx);
}

}  // namespace

void registerGemmAdapters(HandlerRegistry& r) {
  add(r, "Gemm", 7, "opsets 7-10: a missing C becomes a zero scalar", requireC);
}

}  // namespace fb::convert::onnx_onnx
