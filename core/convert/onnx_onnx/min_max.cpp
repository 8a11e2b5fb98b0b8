// Max/Min accept integers only from opset 12 (floats from 6, with numpy broadcasting from 8). Integer
// operands below 12 are compared and selected pairwise: Where(Greater(a, b), a, b) (Greater and Where of
// every numeric type exist from 9), exact and with the same broadcasting.
// ONNX Runtime has no float64 kernel for Max-6/Min-6: a double Max/Min is refused at opset 7 rather than
// written for a runtime that cannot run it.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"
#include "convert/onnx_onnx/where.h"

namespace fb::convert::onnx_onnx {
namespace {

void pairwiseSelect(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t == ir::DataType::Double && ctx.targetOpset < 8)
    throw Unsupported(n.opType + ": ONNX Runtime has no double kernel for " + n.opType + "-6 (double from opset 8)");
  if (t == ir::DataType::Undefined || ir::isFloatingPoint(t) || ctx.targetOpset >= 12)
    return compatibleVersionStep(n, ctx);
  std::vector<ir::Value*> ins;
  for (ir::Value* v : n.inputs())
    if (v) ins.push_back(v);
  if (ins.empty()) throw std::runtime_error(n.opType + " without inputs");
  // Below 9 Greater/Less take floating point only: integers of up to 32 bits are compared in double, which
  // holds them exactly, and selected with a Gather from the stacked operands.
  const bool old = ctx.targetOpset < 9;
  if (old) {
    if (t == ir::DataType::Int64 || t == ir::DataType::UInt64)
      throw Unsupported(n.opType +
                        ": 64-bit integers need integer Greater/Less (opset 9); double does not hold them exactly");
    if (ins.size() != 2) throw Unsupported(n.opType + ": more than two integer operands below opset 9");
    if (auto why = whyNoSelect(ctx, ins[0], ins[0], ins[1])) throw Unsupported(n.opType + ": " + *why);
  }
  // ONNX Runtime's Where-9 covers uint8, int32 and int64; other integers are selected in a wider type that
  // holds every value exactly, and cast back.
  ir::DataType work = t;
  if (t == ir::DataType::Int8 || t == ir::DataType::Int16 || t == ir::DataType::UInt16)
    work = ir::DataType::Int32;
  else if (t == ir::DataType::UInt32)
    work = ir::DataType::Int64;
  else if (t == ir::DataType::UInt64)
    throw Unsupported(
        n.opType +
        ": uint64 operands need opset 12 (ONNX Runtime's Where-9 has no uint64 kernel and no wider type holds them)");
  ctx.note = std::string(ir::dataTypeName(t)) + " operands: pairwise Where(" +
             (n.opType == "Max" ? "Greater" : "Less") + ")" +
             (work != t ? " in " + std::string(ir::dataTypeName(work)) : "");
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? n.opType : n.name;
  ir::Value* result = n.output(0);
  auto cmp = [&] { return n.opType == "Max" ? "Greater" : "Less"; };
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  auto cast = [&](ir::Value* in, ir::DataType to, ir::Value* out) {
    if (!out) out = ctx.newValue(base + "_cast");
    ctx.insertNode(n, "Cast", {in}, {out})->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(to)));
    return out;
  };
  if (old) {
    auto toDouble = [&](ir::Value* v) { return cast(v, ir::DataType::Double, nullptr); };
    ir::Value* pick = ctx.newValue(base + "_pick");
    ctx.insertNode(n, cmp(), {toDouble(ins[0]), toDouble(ins[1])}, {pick});
    auto sa = *ctx.staticShape(ins[0]), sb = *ctx.staticShape(ins[1]);
    size_t rank = std::max(sa.size(), sb.size());
    ir::Shape s(rank, ir::Dim::of(1));
    for (const auto* d : {&sa, &sb})
      for (size_t i = 0; i < d->size(); ++i)
        if ((*d)[i] != 1) s[rank - d->size() + i] = ir::Dim::of((*d)[i]);
    pick->type = ir::TypeInfo::tensor(ir::DataType::Bool, s);
    emitSelect(n, ctx, pick, ins[0], ins[1], result);
    ctx.removeReplaced(n);
    return;
  }
  if (work != t)
    for (auto& v : ins) v = cast(v, work, nullptr);
  ir::Value* y = work != t ? ctx.newValue(base + "_wide") : result;
  const char* cmpOp = n.opType == "Max" ? "Greater" : "Less";
  if (ins.size() == 1) {
    ctx.insertNode(n, "Identity", {ins[0]}, {y});
  } else {
    ir::Value* acc = ins[0];
    for (size_t i = 1; i < ins.size(); ++i) {
      ir::Value* pick = ctx.newValue(base + "_pick");
      ctx.insertNode(n, cmpOp, {acc, ins[i]}, {pick});
      ir::Value* out = i + 1 == ins.size() ? y : ctx.newValue(base + "_partial");
      ctx.insertNode(n, "Where", {pick, acc, ins[i]}, {out});
      acc = out;
    }
  }
  if (work != t) cast(y, t, result);
  ctx.removeReplaced(n);
}

}  // namespace

void registerMinMaxAdapters(HandlerRegistry& r) {
  for (const char* op : {"Max", "Min"}) {
    add(r, op, 7, "opsets 9-11: integer operands via pairwise Greater/Less + Where; double refused at 7",
        pairwiseSelect);
    add(r, op, 12, "opset 12+: compatible version step", compatibleVersionStep);
  }
}

}  // namespace fb::convert::onnx_onnx
