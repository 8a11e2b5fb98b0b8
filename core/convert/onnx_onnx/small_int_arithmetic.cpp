// Add/Sub/Mul/Div accept 8- and 16-bit integers only from opset 14. Below, the operands go through int32 and
// the result back: the low bits of the int32 result are the wrapped 8/16-bit result (Div of values in range
// gives the same truncated quotient).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

bool isSmallInt(ir::DataType t) {
  return t == ir::DataType::UInt8 || t == ir::DataType::Int8 || t == ir::DataType::UInt16 || t == ir::DataType::Int16;
}

void throughInt32(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (!isSmallInt(t) || ctx.targetOpset >= 14) return compatibleVersionStep(n, ctx);
  if (n.inputs().size() != 2 || !n.input(0) || !n.input(1)) throw std::runtime_error(n.opType + " needs two inputs");
  ctx.note = std::string(ir::dataTypeName(t)) + " " + n.opType + " computed in int32 and cast back";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? n.opType : n.name;
  auto cast = [&](ir::Value* in, ir::DataType to, ir::Value* out) {
    if (!out) out = ctx.newValue(base + "_int32");
    ctx.insertNode(n, "Cast", {in}, {out})->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(to)));
    return out;
  };
  ir::Value* a = cast(n.input(0), ir::DataType::Int32, nullptr);
  ir::Value* b = cast(n.input(1), ir::DataType::Int32, nullptr);
  ir::Value* wide = ctx.newValue(base + "_wide");
  ctx.insertNode(n, n.opType, {a, b}, {wide});
  ir::Value* y = n.output(0);
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  cast(wide, t, y);
  ctx.removeReplaced(n);
}

}  // namespace

void registerSmallIntArithmeticAdapters(HandlerRegistry& r) {
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    add(r, op, 7, "opsets 7-13: 8/16-bit integers through int32 and back", throughInt32);
    add(r, op, 14, "opset 14+: compatible version step", compatibleVersionStep);
  }
}

}  // namespace fb::convert::onnx_onnx
