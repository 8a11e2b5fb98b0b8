// Pad took `pads` and `value` as attributes until opset 11, as inputs since.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void inputsToAttributes(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 11) return compatibleVersionStep(n, ctx);
  auto pads = requireConstantInts(n, 1, ctx, "pads");
  std::optional<double> value;
  if (n.input(2)) value = requireConstantScalar(n, 2, ctx, "constant_value");
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && !ir::isFloatingPoint(t))
    throw Unsupported("Pad on " + std::string(ir::dataTypeName(t)) + " needs opset 11");
  ctx.note = "pads/constant_value inputs -> attributes";
  if (!ctx.commit()) return;
  while (n.inputs().size() > 1) ctx.dropInput(n, n.inputs().size() - 1);
  n.setAttr(ir::Attribute::makeInts("pads", pads));
  if (value && *value != 0.0) n.setAttr(ir::Attribute::makeFloat("value", static_cast<float>(*value)));
}

void attributesToInputs(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset >= 11) return compatibleVersionStep(n, ctx);
  ctx.note = "pads/value attributes -> inputs";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "pad" : n.name;
  auto pads = n.attrInts("pads");
  const ir::Attribute* value = n.attr("value");
  ir::Value* padsV = ctx.constantInt64(base + "_pads", pads);
  ir::Value* valueV = nullptr;
  if (value && value->f != 0.f) {
    ir::DataType t = ctx.elemType(n.input(0));
    valueV = scalarLike(ctx, base + "_value", t == ir::DataType::Undefined ? ir::DataType::Float : t, value->f);
  }
  n.removeAttr("pads");
  n.removeAttr("value");
  n.addInput(padsV);
  if (valueV) n.addInput(valueV);
}

}  // namespace

void registerPadAdapters(HandlerRegistry& r) {
  add(r, "Pad", 2, "opsets 2-10: constant pads/value inputs -> attributes", inputsToAttributes);
  add(r, "Pad", 11, "opset 11+: pads/value attributes -> inputs", attributesToInputs);
}

}  // namespace fb::convert::onnx_onnx
