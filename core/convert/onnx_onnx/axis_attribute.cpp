// Before opset 11 `axis`/`axes` attributes had to be non-negative; exporters write -1 freely. Spelling
// the axis out needs the rank, which the pipeline takes from libonnx's shape inference.
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void spellAxis(ir::Node& n, HandlerContext& ctx) {
  std::vector<std::pair<std::string, ir::Attribute>> edits;
  if (ctx.targetOpset < 11) {
    if (const auto* a = n.attr("axis"); a && a->type == ir::AttrType::Int && a->i < 0) {
      int64_t fixed = nonNegativeAxis(a->i, n.input(0), ctx, n.opType.c_str());
      if (fixed >= 0) edits.push_back({"axis", ir::Attribute::makeInt("axis", fixed)});
    }
    if (const auto* a = n.attr("axes"); a && a->type == ir::AttrType::Ints) {
      auto fixed = normalizedAxes(a->ints, ctx.rank(n.input(0)), n.opType.c_str());
      if (fixed != a->ints) edits.push_back({"axes", ir::Attribute::makeInts("axes", fixed)});
    }
  }
  if (!edits.empty()) {
    ctx.note = "negative axis spelled out for opset " + std::to_string(ctx.targetOpset);
    if (ctx.commit())
      for (auto& [name, attr] : edits) n.setAttr(std::move(attr));
  }
  compatibleVersionStep(n, ctx);
}

}  // namespace

void registerAxisAttributeAdapters(HandlerRegistry& r) {
  for (const char* op : {"Concat", "Gather", "Flatten", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                         "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ArgMax",
                         "ArgMin", "Compress", "CumSum", "GatherElements"})
    add(r, op, 1, "negative axis made non-negative below opset 11, then the compatible version step", spellAxis);
}

}  // namespace fb::convert::onnx_onnx
