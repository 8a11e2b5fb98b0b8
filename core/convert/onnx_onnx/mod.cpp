// Mod (10) below 10, from its definition: fmod=1 is C's fmod, a - b * trunc(a / b); fmod=0 (integers) is
// Python's %, the truncated remainder moved by b where its sign differs from b's. Needs Sign, Where and
// integer Less (opset 9); 8/16-bit integers are computed in int32 and cast back.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

bool isUnsigned(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::UInt16 || t == ir::DataType::UInt32 || t == ir::DataType::UInt64;
}
bool isSmallInt(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::Int8 || t == ir::DataType::UInt16 || t == ir::DataType::Int16;
}

void fromDefinition(ir::Node& n, HandlerContext& ctx) {
  if (ctx.targetOpset < 9) throw Unsupported("Mod: the rewrite needs Sign/Where/integer Less (opset 9)");
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Undefined) throw Unsupported("Mod: the element type is unknown");
  const bool fmod = n.attrInt("fmod", 0) != 0;
  if (!fmod && ir::isFloatingPoint(t)) throw std::runtime_error("Mod: fmod=0 on floating point is invalid");
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
  if (fmod && ir::isFloatingPoint(t)) q = op("Mul", {op("Floor", {op("Abs", {q}, "abs")}, "floor"), op("Sign", {q}, "sign")}, "trunc");
  ir::Value* r = op("Sub", {a, op("Mul", {b, q}, "multiple")}, "remainder");
  if (!fmod && !isUnsigned(t)) {
    ir::Value* zero = scalarLike(ctx, base + "_zero", w, 0);
    ir::Value* differ = op("Xor", {op("Less", {r, zero}, "r_negative"), op("Less", {b, zero}, "b_negative")}, "signs_differ");
    ir::Value* nonzero = op("Not", {op("Equal", {r, zero}, "r_zero")}, "r_nonzero");
    r = op("Where", {op("And", {differ, nonzero}, "move"), op("Add", {r, b}, "moved"), r}, "python_remainder");
  }
  if (widen) cast(r, t, "result", y);
  else op("Identity", {r}, "result", y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerModAdapters(HandlerRegistry& r) {
  add(r, "Mod", 7, "opsets 9: from the definition (Div/Mul/Sub, sign fix-up with Where)", fromDefinition);
  add(r, "Mod", 10, "opset 10+: the op itself, compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
