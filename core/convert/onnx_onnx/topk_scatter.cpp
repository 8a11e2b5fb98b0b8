// TopK took `k` as an attribute until opset 10, as an input since. Scatter (9) was renamed
// ScatterElements at 11, where Scatter became deprecated (the checker refuses it from there).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void topkInputToAttribute(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 10) return compatibleVersionStep(n, ctx);
  auto k = requireConstantInts(n, 1, ctx, "k");
  if (k.size() != 1) throw Unsupported("TopK: k must hold one value");
  if (n.attrInt("largest", 1) != 1) throw Unsupported("TopK: largest=0 needs opset 11");
  if (n.attrInt("sorted", 1) != 1) throw Unsupported("TopK: sorted=0 needs opset 11");
  int64_t axis = nonNegativeAxis(n.attrInt("axis", -1), n.input(0), ctx, "TopK");
  ctx.note = "k input -> attribute";
  if (!ctx.commit()) return;
  ctx.dropInput(n, 1);
  n.removeAttr("largest");
  n.removeAttr("sorted");
  n.setAttr(ir::Attribute::makeInt("k", k.front()));
  n.setAttr(ir::Attribute::makeInt("axis", axis));
}

void topkAttributeToInput(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset >= 10) return compatibleVersionStep(n, ctx);
  ctx.note = "k attribute -> int64 input";
  if (!ctx.commit()) return;
  int64_t k = n.attrInt("k", 1);
  n.removeAttr("k");
  n.addInput(ctx.constantInt64((n.name.empty() ? "topk" : n.name) + "_k", {k}));
}

void scatterToScatterElements(ir::Node& n, HandlerContext& ctx) {
  ctx.note = "Scatter -> ScatterElements (same meaning, new name)";
  if (!ctx.commit()) return;
  n.opType = "ScatterElements";
}

void scatterElementsToScatter(ir::Node& n, HandlerContext& ctx) {
  if (n.hasAttr("reduction") && n.attrString("reduction", "none") != "none")
    throw Unsupported("ScatterElements: reduction needs opset 16");
  ctx.note = "ScatterElements -> Scatter (its name before opset 11)";
  if (!ctx.commit()) return;
  n.opType = "Scatter";
  n.removeAttr("reduction");
  int64_t axis = nonNegativeAxis(n.attrInt("axis", 0), n.input(0), ctx, "Scatter");
  if (axis != n.attrInt("axis", 0)) n.setAttr(ir::Attribute::makeInt("axis", axis));
}

}  // namespace

void registerTopKScatterAdapters(HandlerRegistry& r) {
  add(r, "TopK", 1, "opsets 1-9: constant k input -> attribute (largest, sorted only)", topkInputToAttribute);
  add(r, "TopK", 10, "opset 10+: k attribute -> input", topkAttributeToInput);
  add(r, "Scatter", 11, "opset 11+: Scatter -> ScatterElements", scatterToScatterElements);
  add(r, "ScatterElements", 9, "opsets 9-10: ScatterElements -> Scatter", scatterElementsToScatter);
  add(r, "ScatterElements", 11, "opset 11+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
