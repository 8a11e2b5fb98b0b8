// Constant gained value_float(s)/value_int(s)/value_string(s) at opset 12 and sparse_value at 11; before,
// only a `value` tensor.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

bool floatingOnly(ir::DataType t) {
  return t == ir::DataType::Float || t == ir::DataType::Double || t == ir::DataType::Float16;
}

// Constant-1 only holds floating-point tensors; an initializer holds any type at every opset.
void toInitializer(ir::Node& n, HandlerContext& ctx, ir::Tensor t) {
  ctx.note =
      std::string(ir::dataTypeName(t.dtype)) + " Constant -> initializer (Constant before opset 9 is float only)";
  if (!ctx.commit()) return;
  ir::Value* out = n.output(0);
  t.name = out->name();
  ctx.removeReplaced(n);
  ctx.graph.addInitializer(std::move(t));
}

void toValueTensor(ir::Node& n, HandlerContext& ctx) {
  if (const auto* a = n.attr("value");
      a && !a->tensors.empty() && ctx.targetOpset < 9 && !floatingOnly(a->tensors[0].dtype))
    return toInitializer(n, ctx, a->tensors[0]);
  if (n.hasAttr("value")) return compatibleVersionStep(n, ctx);
  if (n.hasAttr("sparse_value")) throw Unsupported("Constant: sparse_value needs opset 11 (use a dense initializer)");
  if (n.hasAttr("value_string") || n.hasAttr("value_strings"))
    throw Unsupported("Constant: string values need opset 12 here");
  ctx.note = "value_* attribute -> value tensor";
  if (!ctx.commit()) return;
  std::string name = n.output(0) ? n.output(0)->name() : "constant";
  ir::Tensor t;
  if (const auto* a = n.attr("value_float"))
    t = ir::Tensor::fromValues(name, ir::DataType::Float, {}, std::vector<float>{a->f});
  else if (const auto* a = n.attr("value_floats"))
    t = ir::Tensor::fromValues(name, ir::DataType::Float, {static_cast<int64_t>(a->floats.size())}, a->floats.vec());
  else if (const auto* a = n.attr("value_int"))
    t = ir::Tensor::fromValues(name, ir::DataType::Int64, {}, std::vector<int64_t>{a->i});
  else if (const auto* a = n.attr("value_ints"))
    t = ir::Tensor::fromValues(name, ir::DataType::Int64, {static_cast<int64_t>(a->ints.size())}, a->ints);
  if (ctx.targetOpset < 9 && !floatingOnly(t.dtype)) {
    ctx.changed = false;
    return toInitializer(n, ctx, std::move(t));
  }
  n.attributes.clear();
  n.setAttr(ir::Attribute::makeTensor("value", std::move(t)));
}

}  // namespace

void registerConstantAdapters(HandlerRegistry& r) {
  add(r, "Constant", 1,
      "opsets 1-11: value_float(s)/value_int(s) -> value tensor; non-float values -> initializer below 9",
      toValueTensor);
}

}  // namespace fb::convert::onnx_onnx
