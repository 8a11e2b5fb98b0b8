// Mod (10) below 10, from its definition: fmod=1 is C's fmod, a - b * trunc(a / b); fmod=0 (integers) is
// Python's %, the truncated remainder moved by b where its sign differs from b's. 8/16-bit integers are
// computed in int32 and cast back. Below 9 (no Sign, Where, integer Less): signs are compared in double
// (casting an integer to double keeps its sign and zero exactly), sign(q) is (q > 0) - (q < 0), and the
// selection is a Gather from the stacked branches (static shapes).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"
#include "convert/onnx_onnx/where.h"

namespace fb::convert::onnx_onnx {
namespace {

bool isUnsigned(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::UInt16 || t == ir::DataType::UInt32 ||
         t == ir::DataType::UInt64;
}
bool isSmallInt(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::Int8 || t == ir::DataType::UInt16 || t == ir::DataType::Int16;
}

void fromDefinition(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) throw Unsupported("Mod: the element type is unknown");
  const bool fmod = n.attrInt("fmod", 0) != 0;
  if (!fmod && ir::isFloatingPoint(t)) throw std::runtime_error("Mod: fmod=0 on floating point is invalid");
  const bool old = ctx.targetOpset < 9;
  if (old && fmod && t == ir::DataType::Float16)
    throw Unsupported("Mod: float16 below opset 9 is not rewritten (no Sign)");
  std::optional<std::vector<int64_t>> outShape;
  if (old && !fmod && !isUnsigned(t)) {
    auto sa = ctx.staticShape(n.input(0)), sb = ctx.staticShape(n.input(1));
    if (!sa || !sb) throw Unsupported("Mod below opset 9 needs static shapes (the sign fix-up selects with a Gather)");
    size_t rank = std::max(sa->size(), sb->size());
    outShape = std::vector<int64_t>(rank, 1);
    for (const auto* s : {&*sa, &*sb})
      for (size_t i = 0; i < s->size(); ++i)
        (*outShape)[rank - s->size() + i] = std::max((*outShape)[rank - s->size() + i], (*s)[i]);
  }
  ctx.note = fmod ? "a - b * trunc(a / b)" : "truncated remainder, moved by b where the signs differ";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "mod" : n.name;
  auto op = [&](const char* type, std::vector<ir::Value*> in, const std::string& name, ir::Value* out = nullptr) {
    if (!out) out = ctx.newValue(base + "_" + name);
    ctx.insertNode(n, type, in, {out});
    return out;
  };
  auto cast = [&](ir::Value* in, ir::DataType to, const std::string& name, ir::Value* out = nullptr) {
    if (!out) out = ctx.newValue(base + "_" + name);
    ctx.insertNode(n, "Cast", {in}, {out})->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(to)));
    return out;
  };
  ir::Value* a = n.input(0);
  ir::Value* b = n.input(1);
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  const bool widen = isSmallInt(t);
  ir::DataType w = widen ? ir::DataType::Int32 : t;
  if (widen) {
    a = cast(a, w, "a32");
    b = cast(b, w, "b32");
  }
  ir::Value* q = op("Div", {a, b}, "quotient");
  auto sign = [&](ir::Value* v) {
    if (!old) return op("Sign", {v}, "sign");
    ir::Value* zero = scalarLike(ctx, base + "_sign_zero", t, 0);
    ir::Value* pos = cast(op("Greater", {v, zero}, "positive"), t, "positive_t");
    ir::Value* neg = cast(op("Less", {v, zero}, "negative"), t, "negative_t");
    return op("Sub", {pos, neg}, "sign");
  };
  if (fmod && ir::isFloatingPoint(t)) q = op("Mul", {op("Floor", {op("Abs", {q}, "abs")}, "floor"), sign(q)}, "trunc");
  ir::Value* r = op("Sub", {a, op("Mul", {b, q}, "multiple")}, "remainder");
  if (!fmod && !isUnsigned(t)) {
    // Compared in double below 9 (Less takes floating point only there).
    auto cmpType = old ? ir::DataType::Double : w;
    auto forCompare = [&](ir::Value* v, const char* name) { return old ? cast(v, ir::DataType::Double, name) : v; };
    ir::Value* zero = scalarLike(ctx, base + "_zero", cmpType, 0);
    ir::Value* rc = forCompare(r, "r_double");
    ir::Value* differ =
        op("Xor", {op("Less", {rc, zero}, "r_negative"), op("Less", {forCompare(b, "b_double"), zero}, "b_negative")},
           "signs_differ");
    ir::Value* nonzero =
        op("Not", {op("Equal", {r, scalarLike(ctx, base + "_int_zero", w, 0)}, "r_zero")}, "r_nonzero");
    ir::Value* move = op("And", {differ, nonzero}, "move");
    ir::Value* moved = op("Add", {r, b}, "moved");
    ir::Value* fixed = ctx.newValue(base + "_python_remainder");
    if (old) {
      ir::Shape s;
      for (auto d : *outShape) s.push_back(ir::Dim::of(d));
      for (ir::Value* v : {move, moved, r}) v->type = ir::TypeInfo::tensor(v == move ? ir::DataType::Bool : w, s);
    }
    emitSelect(n, ctx, move, moved, r, fixed);
    r = fixed;
  }
  if (widen)
    cast(r, t, "result", y);
  else
    op("Identity", {r}, "result", y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerModAdapters(HandlerRegistry& r) {
  add(r, "Mod", 7, "opsets 9: from the definition (Div/Mul/Sub, sign fix-up with Where)", fromDefinition);
  add(r, "Mod", 10, "opset 10+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
