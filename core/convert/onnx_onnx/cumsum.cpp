// CumSum (11) below 11 along an axis of known, modest length: the running sums slice by slice, added in the
// order CumSum adds them (so the same rounding), then concatenated.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

constexpr int64_t kMaxUnrolled = 256;

void runningSums(ir::Node& n, HandlerContext& ctx) {
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->empty()) throw Unsupported("CumSum: the input's shape must be known below opset 11");
  auto axisValue = ctx.constantInts(n.input(1));
  if (!axisValue || axisValue->size() != 1) throw Unsupported("CumSum: the axis is computed at run time");
  const int64_t rank = static_cast<int64_t>(shape->size());
  int64_t axis = axisValue->front();
  if (axis < -rank || axis >= rank) throw std::runtime_error("CumSum: axis outside the rank");
  if (axis < 0) axis += rank;
  const int64_t len = (*shape)[static_cast<size_t>(axis)];
  if (len < 1 || len > kMaxUnrolled)
    throw Unsupported("CumSum: the axis is longer than " + std::to_string(kMaxUnrolled) + " (unrolled)");
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) throw Unsupported("CumSum: the element type is unknown");
  const bool exclusive = n.attrInt("exclusive", 0) != 0, reverse = n.attrInt("reverse", 0) != 0;
  ctx.note = "unrolled into " + std::to_string(len) + " slices, running Adds and a Concat";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "cumsum" : n.name;
  ir::Value* x = n.input(0);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  auto slice = [&](int64_t j) {
    ir::Value* out = ctx.newValue(base + "_slice" + std::to_string(j));
    if (ctx.targetOpset >= 10) {
      ctx.insertNode(n, "Slice",
                     {x, ctx.constantInt64(base + "_s", {j}), ctx.constantInt64(base + "_e", {j + 1}),
                      ctx.constantInt64(base + "_a", {axis})},
                     {out});
    } else {
      ir::Node* s = ctx.insertNode(n, "Slice", {x}, {out});
      s->setAttr(ir::Attribute::makeInts("starts", {j}));
      s->setAttr(ir::Attribute::makeInts("ends", {j + 1}));
      s->setAttr(ir::Attribute::makeInts("axes", {axis}));
    }
    return out;
  };
  std::vector<ir::Value*> parts(static_cast<size_t>(len));
  ir::Value* acc = nullptr;
  for (int64_t step = 0; step < len; ++step) {
    int64_t j = reverse ? len - 1 - step : step;
    ir::Value* s = slice(j);
    if (exclusive) {
      if (!acc) {
        std::vector<int64_t> dims = *shape;
        dims[static_cast<size_t>(axis)] = 1;
        ir::Tensor zeros;
        zeros.name = ctx.graph.uniqueName(base + "_zeros");
        zeros.dtype = t;
        zeros.dims = dims;
        int64_t count = 1;
        for (auto d : dims) count *= d;
        zeros.setBytes(std::string(static_cast<size_t>(count) * ir::elementSize(t), '\0'));
        parts[static_cast<size_t>(j)] = ctx.graph.addInitializer(std::move(zeros));
      } else {
        parts[static_cast<size_t>(j)] = acc;
      }
    }
    if (!acc) {
      acc = s;
    } else {
      ir::Value* sum = ctx.newValue(base + "_sum" + std::to_string(j));
      ctx.insertNode(n, "Add", {acc, s}, {sum});
      acc = sum;
    }
    if (!exclusive) parts[static_cast<size_t>(j)] = acc;
  }
  ctx.insertNode(n, "Concat", parts, {y})->setAttr(ir::Attribute::makeInt("axis", axis));
  ctx.removeReplaced(n);
}

}  // namespace

void registerCumSumAdapters(HandlerRegistry& r) {
  add(r, "CumSum", 7, "opsets 7-10: unrolled running sums (static shape, constant axis, length <= 256)", runningSums);
  add(r, "CumSum", 11, "opset 11+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
