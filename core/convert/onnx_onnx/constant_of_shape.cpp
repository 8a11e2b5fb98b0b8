// ConstantOfShape (9) below 9: when the shape is known while converting, the filled tensor itself.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void filledTensor(ir::Node& n, HandlerContext& ctx) {
  auto dims = ctx.constantInts(n.input(0));
  if (!dims) throw Unsupported("ConstantOfShape: the shape is computed at run time (the op exists from opset 9)");
  int64_t count = 1;
  for (auto d : *dims) {
    if (d < 0) throw std::runtime_error("ConstantOfShape: negative dimension");
    count *= d;
    if (count > (int64_t{1} << 24))
      throw Unsupported("ConstantOfShape: the tensor is too large to store as a constant");
  }
  ir::Tensor fill;
  if (const ir::Attribute* v = n.attr("value"); v && !v->tensors.empty())
    fill = v->tensors[0];
  else
    fill = ir::Tensor::fromValues("value", ir::DataType::Float, {1}, std::vector<float>{0.f});
  auto one = fill.bytes();
  if (fill.dtype == ir::DataType::String || one.empty())
    throw Unsupported("ConstantOfShape: value of this type is not materialized");
  ctx.note = "shape known: the " + std::to_string(count) + " values as an initializer";
  if (!ctx.commit()) return;
  std::string bytes;
  bytes.reserve(one.size() * static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) bytes.append(reinterpret_cast<const char*>(one.data()), one.size());
  std::string base = n.name.empty() ? "constant_of_shape" : n.name;
  ir::Tensor t;
  t.name = ctx.graph.uniqueName(base + "_values");
  t.dtype = fill.dtype;
  t.dims = *dims;
  t.setBytes(std::move(bytes));
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ctx.insertNode(n, "Constant", {}, {y})->setAttr(ir::Attribute::makeTensor("value", std::move(t)));
  ctx.removeReplaced(n);
}

}  // namespace

void registerConstantOfShapeAdapters(HandlerRegistry& r) {
  add(r, "ConstantOfShape", 7, "opsets 7-8: a shape known while converting -> the filled tensor as a Constant",
      filledTensor);
  add(r, "ConstantOfShape", 9, "opset 9+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
