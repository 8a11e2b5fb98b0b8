// Shape-15's start/end below 15: the whole shape, then a Slice of it (Slice clamps as Shape does).
#include <limits>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void shapeThenSlice(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 15 || (!n.hasAttr("end") && n.attrInt("start", 0) == 0)) return compatibleVersionStep(n, ctx);
  const int64_t start = n.attrInt("start", 0);
  const int64_t end = n.attrInt("end", std::numeric_limits<int64_t>::max());
  ctx.note = "start/end -> Shape then Slice";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "shape" : n.name;
  ir::Value* y = n.output(0);
  ir::Value* whole = ctx.newValue(base + "_whole");
  ctx.insertNode(n, "Shape", {n.input(0)}, {whole});
  ctx.graph.setOutput(&n, 0, ctx.newValue(base + "_replaced"));
  if (ctx.targetOpset >= 10) {
    ctx.insertNode(n, "Slice",
                   {whole, ctx.constantInt64(base + "_start", {start}), ctx.constantInt64(base + "_end", {end}),
                    ctx.constantInt64(base + "_axes", {0})},
                   {y});
  } else {
    ir::Node* s = ctx.insertNode(n, "Slice", {whole}, {y});
    s->setAttr(ir::Attribute::makeInts("starts", {start}));
    s->setAttr(ir::Attribute::makeInts("ends", {end}));
    s->setAttr(ir::Attribute::makeInts("axes", {0}));
  }
  ctx.removeReplaced(n);
}

}  // namespace

void registerShapeAdapters(HandlerRegistry& r) {
  add(r, "Shape", 1, "opsets 1-14: start/end -> Shape then Slice", shapeThenSlice);
  add(r, "Shape", 15, "opset 15+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
