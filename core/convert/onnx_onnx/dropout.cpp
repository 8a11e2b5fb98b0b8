// Dropout took `ratio` as an attribute until opset 12, then ratio and training_mode as inputs. A converted
// model is for inference, where Dropout passes its input through whatever the ratio.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void inputsToAttribute(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 12) return compatibleVersionStep(n, ctx);
  if (n.input(2)) {
    auto training = ctx.constantInts(n.input(2));
    if (!training || training->size() != 1 || training->front() != 0)
      throw Unsupported("Dropout: training_mode is not a constant false; opsets before 12 have no training mode");
  }
  std::optional<double> ratio;
  if (n.input(1)) ratio = requireConstantScalar(n, 1, ctx, "ratio");
  if (ctx.targetOpset < 10 && isUsed(n.output(1)))
    throw Unsupported("Dropout: the mask output is boolean only from opset 10");
  ctx.note = "ratio input -> attribute, training_mode (false) dropped";
  if (!ctx.commit()) return;
  while (n.inputs().size() > 1) ctx.dropInput(n, n.inputs().size() - 1);
  n.removeAttr("seed");
  if (ratio) n.setAttr(ir::Attribute::makeFloat("ratio", static_cast<float>(*ratio)));
}

void attributeToInput(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset >= 12) return compatibleVersionStep(n, ctx);
  const ir::Attribute* ratio = n.attr("ratio");
  if (ctx.sourceOpset < 10 && isUsed(n.output(1)))
    throw Unsupported("Dropout: a float mask output (before opset 10) has no boolean equivalent here");
  ctx.note = "ratio attribute -> input";
  if (!ctx.commit()) return;
  if (ratio) {
    ir::DataType t = ctx.elemType(n.input(0));
    n.addInput(scalarLike(ctx, (n.name.empty() ? "dropout" : n.name) + "_ratio",
                          t == ir::DataType::Undefined ? ir::DataType::Float : t, ratio->f));
  }
  n.removeAttr("ratio");
}

}  // namespace

void registerDropoutAdapters(HandlerRegistry& r) {
  add(r, "Dropout", 7, "opsets 7-11: constant ratio input -> attribute; training_mode must be false", inputsToAttribute);
  add(r, "Dropout", 12, "opset 12+: ratio attribute -> input", attributeToInput);
}

}  // namespace fb::convert::onnx_onnx
