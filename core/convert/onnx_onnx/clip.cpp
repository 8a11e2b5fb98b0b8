// Clip took its bounds as float attributes until opset 11, as optional inputs since.
#include <limits>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/small_int_through_float.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void inputsToAttributes(ir::Node& n, HandlerContext& ctx) {
  if (isSmallInteger(ctx.elemType(n.input(0)))) return clipSmallIntThroughFloat(n, ctx);
  if (ctx.sourceOpset < 11) return compatibleVersionStep(n, ctx);
  std::optional<double> lo, hi;
  if (n.input(1)) lo = requireConstantScalar(n, 1, ctx, "min");
  if (n.input(2)) hi = requireConstantScalar(n, 2, ctx, "max");
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && t != ir::DataType::Float && t != ir::DataType::Double &&
      t != ir::DataType::Float16)
    throw Unsupported("Clip on " + std::string(ir::dataTypeName(t)) + " needs opset 12");
  ctx.note = "min/max inputs -> attributes";
  if (!ctx.commit()) return;
  while (n.inputs().size() > 1) ctx.dropInput(n, n.inputs().size() - 1);
  if (lo) n.setAttr(ir::Attribute::makeFloat("min", static_cast<float>(*lo)));
  if (hi) n.setAttr(ir::Attribute::makeFloat("max", static_cast<float>(*hi)));
}

void attributesToInputs(ir::Node& n, HandlerContext& ctx) {
  if (ctx.targetOpset < 12 && isSmallInteger(ctx.elemType(n.input(0)))) return clipSmallIntThroughFloat(n, ctx);
  if (ctx.sourceOpset >= 11) return compatibleVersionStep(n, ctx);
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) t = ir::DataType::Float;
  ctx.note = "min/max attributes -> inputs";
  if (!ctx.commit()) return;
  const ir::Attribute* lo = n.attr("min");
  const ir::Attribute* hi = n.attr("max");
  std::string base = n.name.empty() ? "clip" : n.name;
  ir::Value* loV = lo ? scalarLike(ctx, base + "_min", t, lo->f) : nullptr;
  ir::Value* hiV = hi ? scalarLike(ctx, base + "_max", t, hi->f) : nullptr;
  n.removeAttr("min");
  n.removeAttr("max");
  if (loV || hiV) n.addInput(loV);
  if (hiV) n.addInput(hiV);
}

}  // namespace

void registerClipAdapters(HandlerRegistry& r) {
  add(r, "Clip", 1, "opsets 1-10: constant min/max inputs -> float attributes", inputsToAttributes);
  add(r, "Clip", 11, "opset 11+: min/max attributes -> inputs", attributesToInputs);
}

}  // namespace fb::convert::onnx_onnx
