// Trilu (14) below 14: the triangle as a mask over the last two dims, Where(mask, x, 0). The dims must be
// known; the mask is a constant when k is, else (j - i) compared with k at run time. Needs Where (9).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"
#include "convert/onnx_onnx/where.h"

namespace fb::convert::onnx_onnx {
namespace {

void triluAsMask(ir::Node& n, HandlerContext& ctx) {
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->size() < 2) throw Unsupported("Trilu: the last two dims must be known to build the mask");
  int64_t k = 0;
  bool runtimeK = false;
  if (n.input(1)) {
    auto kv = ctx.constantInts(n.input(1));
    if (kv && kv->size() != 1) throw std::runtime_error("Trilu: k must be a scalar");
    if (kv)
      k = kv->front();
    else
      runtimeK = true;
  }
  const bool upper = n.attrInt("upper", 1) != 0;
  const int64_t rows = (*shape)[shape->size() - 2], cols = (*shape)[shape->size() - 1];
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined || t == ir::DataType::String)
    throw Unsupported("Trilu: the element type is unknown");
  if (auto why = whyNoSelect(ctx, n.input(0), n.input(0), n.input(0))) throw Unsupported("Trilu: " + *why);
  ctx.note = std::string(upper ? "upper" : "lower") + " triangle as a constant mask: Where(mask, x, 0)";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "trilu" : n.name;
  ir::Value* m = nullptr;
  if (runtimeK) {
    // k known only at run time: the diagonal index j - i of every element, compared with k.
    // Below 9 Less/Greater take floating point only; in double, j - i is exact and k keeps its order with
    // every such small value (rounding a huge k never crosses them), so the comparison is the same.
    const bool inDouble = ctx.targetOpset < 9;
    std::vector<int64_t> diagonal(static_cast<size_t>(rows * cols));
    std::vector<double> diagonalD(diagonal.size());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        diagonalD[static_cast<size_t>(i * cols + j)] = double(diagonal[static_cast<size_t>(i * cols + j)] = j - i);
    const std::string dName = ctx.graph.uniqueName(base + "_diagonal");
    ir::Value* d =
        inDouble
            ? ctx.graph.addInitializer(ir::Tensor::fromValues(dName, ir::DataType::Double, {rows, cols}, diagonalD))
            : ctx.graph.addInitializer(ir::Tensor::fromValues(dName, ir::DataType::Int64, {rows, cols}, diagonal));
    ir::Value* k = n.input(1);
    if (inDouble) {
      ir::Value* kd = ctx.newValue(base + "_k_double");
      ctx.insertNode(n, "Cast", {k}, {kd})
          ->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Double)));
      k = kd;
    }
    ir::Value* outside = ctx.newValue(base + "_outside");
    ctx.insertNode(n, upper ? "Less" : "Greater", {d, k}, {outside});
    m = ctx.newValue(base + "_mask");
    m->type = ir::TypeInfo::tensor(ir::DataType::Bool,
                                   ir::Shape{ir::Dim::of(rows), ir::Dim::of(cols)});  // for the selection below 9
    ctx.insertNode(n, "Not", {outside}, {m});
  } else {
    std::vector<uint8_t> mask(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) mask[static_cast<size_t>(i * cols + j)] = upper ? (j - i >= k) : (j - i <= k);
    m = ctx.graph.addInitializer(
        ir::Tensor::fromValues(ctx.graph.uniqueName(base + "_mask"), ir::DataType::Bool, {rows, cols}, mask));
  }
  ir::Tensor zero;
  zero.name = ctx.graph.uniqueName(base + "_zero");
  zero.dtype = t;
  // Below 9 the selection stacks both branches, so the zeros get the input's full shape there.
  int64_t count = 1;
  if (ctx.targetOpset < 9) {
    zero.dims = *shape;
    for (auto d : *shape) count *= d;
  }
  zero.setBytes(std::string(static_cast<size_t>(count) * ir::elementSize(t), '\0'));  // all-zero bytes: 0 or false
  ir::Value* z = ctx.graph.addInitializer(std::move(zero));
  ir::Value* y = n.output(0);
  ir::Value* x = n.input(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  emitSelect(n, ctx, m, x, z, y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerTriluAdapters(HandlerRegistry& r) {
  add(r, "Trilu", 7, "opsets 9-13: triangle mask and Where (static last two dims)", triluAsMask);
  add(r, "Trilu", 14, "opset 14+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
