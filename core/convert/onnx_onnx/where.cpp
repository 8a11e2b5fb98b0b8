// Where (9) below 9, with static shapes: both branches (brought to the common shape) are stacked, and a
// Gather picks element i of the `x` half where the condition holds, of the `y` half elsewhere. Only Add
// (broadcasting to the common shape), Cast, Mul, Concat, Reshape and Gather are used, all in opset 7; the
// values themselves are copied, never computed (a broadcast adds +0, which only turns -0 into +0).
#include "convert/onnx_onnx/where.h"

#include <numeric>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"
#include "schema/static_shapes.h"

namespace fb::convert::onnx_onnx {
namespace {

bool addable(ir::DataType t) {
  return t == ir::DataType::Float || t == ir::DataType::Double || t == ir::DataType::Float16 ||
         t == ir::DataType::Int32 || t == ir::DataType::Int64 || t == ir::DataType::UInt32 || t == ir::DataType::UInt64;
}

ir::Value* zeros(HandlerContext& ctx, const std::string& base, ir::DataType t, const std::vector<int64_t>& shape) {
  int64_t count = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  ir::Tensor z;
  z.name = ctx.graph.uniqueName(base);
  z.dtype = t;
  z.dims = shape;
  z.setBytes(std::string(static_cast<size_t>(count) * ir::elementSize(t), '\0'));
  return ctx.graph.addInitializer(std::move(z));
}

}  // namespace

std::optional<std::string> whyNoSelect(const HandlerContext& ctx, const ir::Value* cond, const ir::Value* x,
                                       const ir::Value* y) {
  if (ctx.targetOpset >= 9) return std::nullopt;
  auto sc = ctx.staticShape(cond), sx = ctx.staticShape(x), sy = ctx.staticShape(y);
  if (!sc || !sx || !sy) return "Where below opset 9 needs the static shapes of all three inputs";
  auto s = schema::broadcastDims({*sc, *sx, *sy});
  if (!s) return "Where: the shapes do not broadcast";
  ir::DataType t = ctx.elemType(x);
  if ((*sx != *s || *sy != *s) && !addable(t))
    return "Where below opset 9: broadcasting " + std::string(ir::dataTypeName(t)) + " branches needs Expand (opset 8)";
  if (t == ir::DataType::Undefined) return "Where: the element type is unknown";
  return std::nullopt;
}

void emitSelect(ir::Node& at, HandlerContext& ctx, ir::Value* cond, ir::Value* x, ir::Value* y, ir::Value* out) {
  if (ctx.targetOpset >= 9) {
    ctx.insertNode(at, "Where", {cond, x, y}, {out});
    return;
  }
  const std::string base = at.name.empty() ? "where" : at.name;
  auto shape = *schema::broadcastDims({*ctx.staticShape(cond), *ctx.staticShape(x), *ctx.staticShape(y)});
  const int64_t count = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  ir::DataType t = ctx.elemType(x);
  auto toShape = [&](ir::Value* v, ir::DataType vt, const char* name) {
    if (*ctx.staticShape(v) == shape) return v;
    ir::Value* wide = ctx.newValue(base + "_" + name + "_broadcast");
    ctx.insertNode(at, "Add", {v, zeros(ctx, base + "_" + name + "_zeros", vt, shape)}, {wide});
    return wide;
  };
  auto unsqueeze = [&](ir::Value* v, const char* name) {
    ir::Value* u = ctx.newValue(base + "_" + name + "_stacked");
    ctx.insertNode(at, "Unsqueeze", {v}, {u})->setAttr(ir::Attribute::makeInts("axes", {0}));
    return u;
  };
  // [y; x] flattened: element i of y is at i, of x at count + i.
  ir::Value* both = ctx.newValue(base + "_branches");
  ctx.insertNode(at, "Concat", {unsqueeze(toShape(y, t, "y"), "y"), unsqueeze(toShape(x, t, "x"), "x")}, {both})
      ->setAttr(ir::Attribute::makeInt("axis", 0));
  ir::Value* flat = ctx.newValue(base + "_flat");
  ctx.insertNode(at, "Reshape", {both, ctx.constantInt64(base + "_flat_shape", {-1})}, {flat});
  ir::Value* pick = ctx.newValue(base + "_pick");
  ctx.insertNode(at, "Cast", {cond}, {pick})
      ->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Int64)));
  pick = toShape(pick, ir::DataType::Int64, "condition");
  ir::Value* offset = ctx.newValue(base + "_offset");
  ctx.insertNode(at, "Mul", {pick, ctx.constantInt64(base + "_half", {count}, true)}, {offset});
  std::vector<int64_t> iota(static_cast<size_t>(count));
  std::iota(iota.begin(), iota.end(), 0);
  ir::Value* index = ctx.newValue(base + "_index");
  ir::Value* positions = ctx.graph.addInitializer(
      ir::Tensor::fromValues(ctx.graph.uniqueName(base + "_positions"), ir::DataType::Int64, shape, iota));
  ctx.insertNode(at, "Add", {offset, positions}, {index});
  ctx.insertNode(at, "Gather", {flat, index}, {out})->setAttr(ir::Attribute::makeInt("axis", 0));
}

namespace {

void whereBelow9(ir::Node& n, HandlerContext& ctx) {
  if (auto why = whyNoSelect(ctx, n.input(0), n.input(1), n.input(2)))
    throw Unsupported(*why + " (Where exists from opset 9)");
  ctx.note = "condition picks from the stacked branches with a Gather";
  if (!ctx.commit()) return;
  ir::Value* out = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue((n.name.empty() ? "where" : n.name) + "_replaced"));
  emitSelect(n, ctx, n.input(0), n.input(1), n.input(2), out);
  ctx.removeReplaced(n);
}

}  // namespace

void registerWhereAdapters(HandlerRegistry& r) {
  add(r, "Where", 7, "opsets 7-8: Gather from the stacked branches (static shapes)", whereBelow9);
  add(r, "Where", 9, "opset 9+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
