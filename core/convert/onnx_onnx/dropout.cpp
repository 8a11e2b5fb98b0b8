// Dropout took `ratio` as an attribute until opset 12, then ratio and training_mode as inputs. A converted
// model is for inference, where Dropout passes its input through whatever the ratio.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

// The mask changed type at 10 (float -> bool); a used mask cannot cross that line.
void requireMaskKeepsType(const ir::Node& n, const HandlerContext& ctx) {
  if (isUsed(n.output(1)) && (ctx.sourceOpset < 10) != (ctx.targetOpset < 10))
    throw Unsupported("Dropout: the mask output is float before opset 10 and bool from 10; it is used");
}

// In inference the mask is all true (opset 12's definition); Dropout-10/11 leave its contents to the
// runtime (ONNX Runtime writes zeros), so the mask is built from the input's shape instead.
void maskAsConstantTrue(ir::Node& n, HandlerContext& ctx) {
  ir::Value* mask = n.output(1);
  std::string base = n.name.empty() ? "dropout" : n.name;
  ir::Value* shape = ctx.newValue(base + "_shape");
  ctx.insertNode(n, "Shape", {n.input(0)}, {shape});
  ctx.graph.setOutput(&n, 1, nullptr);
  ir::Node* fill = ctx.insertNode(n, "ConstantOfShape", {shape}, {mask});
  fill->setAttr(ir::Attribute::makeTensor(
      "value", ir::Tensor::fromValues("value", ir::DataType::Bool, {1}, std::vector<uint8_t>{1})));
}

void inputsToAttribute(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 12) {
    requireMaskKeepsType(n, ctx);
    return compatibleVersionStep(n, ctx);
  }
  bool training = false;
  if (n.input(2)) {
    auto mode = ctx.constantInts(n.input(2));
    if (!mode || mode->size() != 1)
      throw Unsupported("Dropout: training_mode is computed at run time; opsets before 12 have no training mode");
    training = mode->front() != 0;
  }
  // In inference the ratio has no effect: one computed at run time does not matter then.
  std::optional<double> ratio;
  if (n.input(1)) {
    auto r = ctx.constantDoubles(n.input(1));
    if (r && r->size() == 1)
      ratio = r->front();
    else if (training)
      requireConstantScalar(n, 1, ctx, "ratio");
  }
  // Training with ratio 0 drops nothing: output = input, mask all true, exactly what inference gives.
  if (training && !(ratio && *ratio == 0.0))
    throw Unsupported(
        "Dropout: training_mode is true with a ratio other than 0; opsets before 12 have no training mode");
  const bool maskUsed = isUsed(n.output(1));
  if (maskUsed && ctx.targetOpset < 9)
    throw Unsupported("Dropout: the mask output (all true in inference) needs ConstantOfShape, opset 9");
  ctx.note = std::string(training ? "training with ratio 0 (an identity)" : "ratio input -> attribute") +
             ", training_mode dropped" + (maskUsed ? ", mask -> ConstantOfShape(true)" : "");
  if (!ctx.commit()) return;
  while (n.inputs().size() > 1) ctx.dropInput(n, n.inputs().size() - 1);
  n.removeAttr("seed");
  if (ratio) n.setAttr(ir::Attribute::makeFloat("ratio", static_cast<float>(*ratio)));
  if (maskUsed) maskAsConstantTrue(n, ctx);
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
  add(r, "Dropout", 7, "opsets 7-11: constant ratio input -> attribute; training_mode must be false",
      inputsToAttribute);
  add(r, "Dropout", 12, "opset 12+: ratio attribute -> input", attributeToInput);
}

}  // namespace fb::convert::onnx_onnx
