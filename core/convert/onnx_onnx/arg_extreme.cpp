// ArgMax/ArgMin's select_last_index (12) below 12: the first extreme of the axis reversed (a Gather with the
// reversed index list, which every opset has) is the last extreme of the original, at dim - 1 - index.
#include <numeric>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void lastViaReversal(ir::Node& n, HandlerContext& ctx) {
  if (n.attrInt("select_last_index", 0) == 0) return compatibleVersionStep(n, ctx);
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->empty())
    throw Unsupported(n.opType + ": select_last_index=1 needs the input's shape below opset 12");
  const int64_t rank = static_cast<int64_t>(shape->size());
  int64_t axis = n.attrInt("axis", 0);
  if (axis < -rank || axis >= rank) throw std::runtime_error(n.opType + ": axis outside the rank");
  if (axis < 0) axis += rank;
  const int64_t dim = (*shape)[static_cast<size_t>(axis)];
  ctx.note = "select_last_index: first extreme of the reversed axis (Gather), mapped back with dim - 1 - i";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? n.opType : n.name;
  std::vector<int64_t> reversed(static_cast<size_t>(dim));
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  ir::Value* flipped = ctx.newValue(base + "_reversed");
  ctx.insertNode(n, "Gather", {n.input(0), ctx.constantInt64(base + "_reverse_indices", reversed)}, {flipped})
      ->setAttr(ir::Attribute::makeInt("axis", axis));
  ir::Value* first = ctx.newValue(base + "_first");
  ir::Node* arg = ctx.insertNode(n, n.opType, {flipped}, {first});
  arg->setAttr(ir::Attribute::makeInt("axis", axis));
  arg->setAttr(ir::Attribute::makeInt("keepdims", n.attrInt("keepdims", 1)));
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  ctx.insertNode(n, "Sub", {ctx.constantInt64(base + "_last", {dim - 1}, true), first}, {y});
  ctx.removeReplaced(n);
}

}  // namespace

void registerArgExtremeAdapters(HandlerRegistry& r) {
  for (const char* op : {"ArgMax", "ArgMin"}) {
    add(r, op, 1, "opsets 1-11: select_last_index=1 via the reversed axis (static shape)", lastViaReversal);
    add(r, op, 12, "opset 12+: compatible version step", compatibleVersionStep);
  }
}

}  // namespace fb::convert::onnx_onnx
