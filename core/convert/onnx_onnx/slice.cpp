// Slice took starts/ends/axes as attributes until opset 10 (no steps), as inputs since.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void inputsToAttributes(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset < 10) return compatibleVersionStep(n, ctx);
  auto starts = requireConstantInts(n, 1, ctx, "starts");
  auto ends = requireConstantInts(n, 2, ctx, "ends");
  std::optional<std::vector<int64_t>> axes;
  if (n.input(3)) axes = normalizedAxes(requireConstantInts(n, 3, ctx, "axes"), ctx.rank(n.input(0)), "Slice");
  if (n.input(4)) {
    for (int64_t s : requireConstantInts(n, 4, ctx, "steps"))
      if (s != 1) throw Unsupported("Slice: steps other than 1 need opset 10");
  }
  ctx.note = "starts/ends/axes inputs -> attributes";
  if (!ctx.commit()) return;
  while (n.inputs().size() > 1) ctx.dropInput(n, n.inputs().size() - 1);
  n.setAttr(ir::Attribute::makeInts("starts", starts));
  n.setAttr(ir::Attribute::makeInts("ends", ends));
  if (axes) n.setAttr(ir::Attribute::makeInts("axes", *axes));
}

void attributesToInputs(ir::Node& n, HandlerContext& ctx) {
  if (ctx.sourceOpset >= 10) {
    // Slice-10 wanted non-negative axes; 11 allows negative ones: nothing to rewrite either way up.
    if (ctx.targetOpset == 10 && n.input(3)) {
      auto axes = requireConstantInts(n, 3, ctx, "axes");
      auto fixed = normalizedAxes(axes, ctx.rank(n.input(0)), "Slice");
      if (fixed != axes) {
        ctx.note = "negative axes spelled out for Slice-10";
        if (ctx.commit()) n.setInput(3, ctx.constantInt64((n.name.empty() ? "slice" : n.name) + "_axes", fixed));
      }
    }
    return compatibleVersionStep(n, ctx);
  }
  ctx.note = "starts/ends/axes attributes -> inputs";
  if (!ctx.commit()) return;
  std::string base = n.name.empty() ? "slice" : n.name;
  n.addInput(ctx.constantInt64(base + "_starts", n.attrInts("starts")));
  n.addInput(ctx.constantInt64(base + "_ends", n.attrInts("ends")));
  if (n.hasAttr("axes")) n.addInput(ctx.constantInt64(base + "_axes", n.attrInts("axes")));
  n.removeAttr("starts");
  n.removeAttr("ends");
  n.removeAttr("axes");
}

}  // namespace

void registerSliceAdapters(HandlerRegistry& r) {
  add(r, "Slice", 1, "opsets 1-9: constant starts/ends/axes inputs -> attributes (steps of 1 only)",
      inputsToAttributes);
  add(r, "Slice", 10, "opset 10+: starts/ends/axes attributes -> inputs", attributesToInputs);
}

}  // namespace fb::convert::onnx_onnx
