// GatherElements (11) below 11: with static shapes, out[i] = data.flat[base[i] + idx[i] * stride(axis)], where
// base holds every coordinate's offset except the gathered axis: a Gather on the flattened data.
#include <algorithm>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void asFlatGather(ir::Node& n, HandlerContext& ctx) {
  auto dataShape = ctx.staticShape(n.input(0));
  auto indexShape = ctx.staticShape(n.input(1));
  if (!dataShape || !indexShape || dataShape->size() != indexShape->size() || dataShape->empty())
    throw Unsupported("GatherElements: data and indices need static shapes of the same rank below opset 11");
  const int64_t rank = static_cast<int64_t>(dataShape->size());
  int64_t axis = n.attrInt("axis", 0);
  if (axis < -rank || axis >= rank) throw std::runtime_error("GatherElements: axis outside the rank");
  if (axis < 0) axis += rank;
  auto constIdx = ctx.constantInts(n.input(1));
  bool nonNegative = constIdx && std::all_of(constIdx->begin(), constIdx->end(), [](int64_t v) { return v >= 0; });
  ir::DataType it = ctx.elemType(n.input(1));
  ctx.note = "static shapes: Gather on the flattened data at computed offsets";
  if (!ctx.commit()) return;

  std::vector<int64_t> stride(static_cast<size_t>(rank), 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    stride[static_cast<size_t>(d)] = stride[static_cast<size_t>(d + 1)] * (*dataShape)[static_cast<size_t>(d + 1)];
  int64_t count = 1;
  for (auto d : *indexShape) count *= d;
  std::vector<int64_t> base(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, off = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t c = rest % (*indexShape)[static_cast<size_t>(d)];
      rest /= (*indexShape)[static_cast<size_t>(d)];
      if (d != axis) off += c * stride[static_cast<size_t>(d)];
    }
    base[static_cast<size_t>(i)] = off;
  }
  std::string b = n.name.empty() ? "gather_elements" : n.name;
  ir::Value* data = n.input(0);
  ir::Value* idx = n.input(1);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(b + "_replaced"));
  if (it != ir::DataType::Int64) {
    ir::Value* wide = ctx.newValue(b + "_idx64");
    ctx.insertNode(n, "Cast", {idx}, {wide})
        ->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Int64)));
    idx = wide;
  }
  if (!nonNegative) {
    // Negative indices count from the end of the axis. For i in [-dim, dim), i + dim is in [0, 2 dim) and
    // (i + dim) - dim * ((i + dim) / dim) is i mod dim, with the integer ops opset 7 has (no Less/Where).
    ir::Value* dim = ctx.constantInt64(b + "_dim", {(*dataShape)[static_cast<size_t>(axis)]}, true);
    ir::Value* shifted = ctx.newValue(b + "_shifted");
    ir::Value* wraps = ctx.newValue(b + "_wraps");
    ir::Value* back = ctx.newValue(b + "_wrap_back");
    ir::Value* norm = ctx.newValue(b + "_normalized");
    ctx.insertNode(n, "Add", {idx, dim}, {shifted});
    ctx.insertNode(n, "Div", {shifted, dim}, {wraps});
    ctx.insertNode(n, "Mul", {wraps, dim}, {back});
    ctx.insertNode(n, "Sub", {shifted, back}, {norm});
    idx = norm;
  }
  ir::Value* scaled = ctx.newValue(b + "_scaled");
  ctx.insertNode(n, "Mul", {idx, ctx.constantInt64(b + "_stride", {stride[static_cast<size_t>(axis)]}, true)},
                 {scaled});
  ir::Value* flatIdx = ctx.newValue(b + "_offsets");
  ir::Value* baseV = ctx.graph.addInitializer(
      ir::Tensor::fromValues(ctx.graph.uniqueName(b + "_base"), ir::DataType::Int64, *indexShape, base));
  ctx.insertNode(n, "Add", {scaled, baseV}, {flatIdx});
  ir::Value* flat = ctx.newValue(b + "_flat");
  ctx.insertNode(n, "Reshape", {data, ctx.constantInt64(b + "_flat_shape", {-1})}, {flat});
  ctx.insertNode(n, "Gather", {flat, flatIdx}, {y})->setAttr(ir::Attribute::makeInt("axis", 0));
  ctx.removeReplaced(n);
}

}  // namespace

void registerGatherElementsAdapters(HandlerRegistry& r) {
  add(r, "GatherElements", 7, "opsets 7-10: Gather on the flattened data at offsets computed from static shapes",
      asFlatGather);
  add(r, "GatherElements", 11, "opset 11+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
