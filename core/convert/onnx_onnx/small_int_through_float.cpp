#include "convert/onnx_onnx/small_int_through_float.h"

#include "convert/onnx_onnx/adapter_util.h"

namespace fb::convert::onnx_onnx {
namespace {

ir::Value* castNode(ir::Node& at, HandlerContext& ctx, ir::Value* in, ir::DataType to, ir::Value* out,
                    const std::string& base) {
  if (!out) out = ctx.newValue(base);
  ctx.insertNode(at, "Cast", {in}, {out})->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(to)));
  return out;
}

std::string baseName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }

}  // namespace

bool isSmallInteger(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::Int8 || t == ir::DataType::UInt16 || t == ir::DataType::Int16;
}

void runInFloat(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  std::string base = baseName(n);
  n.setInput(0, castNode(n, ctx, n.input(0), ir::DataType::Float, nullptr, base + "_float"));
  ir::Value* y = n.output(0);
  ir::Value* yf = ctx.newValue(base + "_float_out");
  ctx.graph.setOutput(&n, 0, yf);
  // Inserted before `n` like every new node; the conversion sorts the graph topologically afterwards.
  castNode(n, ctx, yf, t, y, base + "_back");
}

void clipSmallIntThroughFloat(ir::Node& n, HandlerContext& ctx) {
  const ir::DataType t = ctx.elemType(n.input(0));
  struct Bound {
    ir::Value* v = nullptr;
    std::optional<double> constant;
  } lo, hi;
  const bool inputs = ctx.sourceOpset >= 11;
  if (inputs) {
    for (auto [i, b] : {std::pair<size_t, Bound*>{1, &lo}, {2, &hi}}) {
      if (i >= n.inputs().size() || !n.input(i)) continue;
      b->v = n.input(i);
      if (auto c = ctx.constantDoubles(b->v); c && c->size() == 1) b->constant = (*c)[0];
    }
  } else {  // Clip-6 on small integers does not exist, but keep the attribute form readable anyway
    if (const auto* a = n.attr("min")) lo.constant = a->f;
    if (const auto* a = n.attr("max")) hi.constant = a->f;
  }
  const bool asInputs = ctx.targetOpset >= 11;
  ctx.note = std::string(ir::dataTypeName(t)) + " Clip in float between Casts";
  if (!asInputs && ((lo.v && !lo.constant) || (hi.v && !hi.constant))) ctx.note += " (run-time bounds -> Max/Min)";
  if (!ctx.commit()) return;
  const std::string base = baseName(n);
  ir::Value* y = n.output(0);
  ir::Value* x = castNode(n, ctx, n.input(0), ir::DataType::Float, nullptr, base + "_float");
  ir::Value* yf = ctx.newValue(base + "_float_out");
  if (asInputs) {
    ir::Value* lof = lo.v ? castNode(n, ctx, lo.v, ir::DataType::Float, nullptr, base + "_min_float") : nullptr;
    ir::Value* hif = hi.v ? castNode(n, ctx, hi.v, ir::DataType::Float, nullptr, base + "_max_float") : nullptr;
    std::vector<ir::Value*> ins{x};
    if (lof || hif) ins.push_back(lof);
    if (hif) ins.push_back(hif);
    ctx.insertNode(n, "Clip", ins, {yf});
  } else {
    // Lower bound first, then upper: Clip(x, a, b) = min(max(x, a), b), so a > b gives b as ONNX says.
    ir::Value* cur = x;
    auto step = [&](Bound& b, const char* attr, const char* op, bool last) {
      ir::Value* out = last ? yf : ctx.newValue(base + "_" + attr);
      if (b.constant) {
        ctx.insertNode(n, "Clip", {cur}, {out})
            ->setAttr(ir::Attribute::makeFloat(attr, static_cast<float>(*b.constant)));
      } else {
        ir::Value* bf = castNode(n, ctx, b.v, ir::DataType::Float, nullptr, base + "_" + attr + "_float");
        if (ctx.targetOpset < 8) {  // Max-6/Min-6 do not broadcast: bound + 0 * x has x's shape
          ir::Value* zero = ctx.constantFloat(base + "_zero", {0.0f}, true);
          ir::Value* z = ctx.newValue(base + "_zeros");
          ctx.insertNode(n, "Mul", {cur, zero}, {z});
          ir::Value* wide = ctx.newValue(base + "_" + attr + "_wide");
          ctx.insertNode(n, "Add", {z, bf}, {wide});
          bf = wide;
        }
        ctx.insertNode(n, op, {cur, bf}, {out});
      }
      cur = out;
    };
    const bool hasLo = lo.v || lo.constant, hasHi = hi.v || hi.constant;
    if (hasLo) step(lo, "min", "Max", !hasHi);
    if (hasHi) step(hi, "max", "Min", true);
    if (!hasLo && !hasHi) ctx.insertNode(n, "Identity", {x}, {yf});
  }
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  castNode(n, ctx, yf, t, y, base + "_back");
  ctx.removeReplaced(n);
}

}  // namespace fb::convert::onnx_onnx
