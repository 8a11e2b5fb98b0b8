// ScatterElements/ScatterND-18 with reduction max/min: when the indices are constants that name every target
// element at most once, the reduction is the plain elementwise Max/Min of the old value and the update, then a
// plain scatter (no element is reduced twice). Repeated or run-time indices are refused.
#include <set>

#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"

namespace fb::convert::onnx_onnx {

void scatterMaxMinTo17(ir::Node& n, HandlerContext& ctx) {
  const std::string red = n.attrString("reduction", "none");
  auto idx = ctx.constantInts(n.input(1));
  auto dataShape = ctx.staticShape(n.input(0));
  auto idxShape = ctx.staticShape(n.input(1));
  const std::string why = n.opType + "-18 reduction='" + red + "': ";
  if (!idx || !dataShape || !idxShape)
    throw Unsupported(why + "needs constant indices and static shapes to show no element is updated twice");
  const bool nd = n.opType == "ScatterND";
  const int64_t rank = static_cast<int64_t>(dataShape->size());
  std::set<std::vector<int64_t>> targets;
  if (nd) {
    const int64_t k = idxShape->back();
    if (k <= 0 || k > rank) throw Unsupported(why + "bad index depth");
    for (size_t row = 0; row + k <= idx->size(); row += static_cast<size_t>(k)) {
      std::vector<int64_t> t(idx->begin() + row, idx->begin() + row + k);
      for (int64_t d = 0; d < k; ++d)
        if (t[d] < 0) t[d] += (*dataShape)[d];
      if (!targets.insert(t).second) throw Unsupported(why + "an element is updated twice; no exact opset-17 form");
    }
  } else {
    int64_t axis = n.attrInt("axis", 0);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank || static_cast<int64_t>(idxShape->size()) != rank) throw Unsupported(why + "bad axis");
    std::vector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * (*idxShape)[d + 1];
    for (int64_t i = 0; i < static_cast<int64_t>(idx->size()); ++i) {
      std::vector<int64_t> t(rank);
      for (int64_t d = 0; d < rank; ++d) t[d] = (i / strides[d]) % (*idxShape)[d];
      t[axis] = (*idx)[i] < 0 ? (*idx)[i] + (*dataShape)[axis] : (*idx)[i];
      if (!targets.insert(t).second) throw Unsupported(why + "an element is updated twice; no exact opset-17 form");
    }
  }
  const std::string op = red == "max" ? "Max" : "Min";
  const std::string axisAttr = nd ? "" : " <axis = " + std::to_string(n.attrInt("axis", 0)) + ">";
  replaceByBody17(n, ctx, {"data", "indices", "updates"}, {"output"}, [&](onnx::FunctionBuilder& b) {
    b.Add(("old = " + std::string(nd ? "GatherND" : "GatherElements") + axisAttr + " (data, indices)").c_str());
    b.Add(("reduced = " + op + "(old, updates)").c_str());
    b.Add(("output = " + n.opType + axisAttr + " (data, indices, reduced)").c_str());
  }, n.opType + " reduction='" + red + "' with distinct constant indices -> " + op + " + plain scatter");
}

}  // namespace fb::convert::onnx_onnx
