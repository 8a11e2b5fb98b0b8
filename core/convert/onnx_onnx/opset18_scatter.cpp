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
  replaceByBody17(
      n, ctx, {"data", "indices", "updates"}, {"output"},
      [&](onnx::FunctionBuilder& b) {
        b.Add(("old = " + std::string(nd ? "GatherND" : "GatherElements") + axisAttr + " (data, indices)").c_str());
        b.Add(("reduced = " + op + "(old, updates)").c_str());
        b.Add(("output = " + n.opType + axisAttr + " (data, indices, reduced)").c_str());
      },
      n.opType + " reduction='" + red + "' with distinct constant indices -> " + op + " + plain scatter");
}

}  // namespace fb::convert::onnx_onnx

namespace fb::convert::onnx_onnx {

// TensorScatter-24 (KV-cache update) with constant write_indices (or none: 0) and static shapes: the update's
// rows land at write_indices[b] + s along `axis` (mod the cache length in circular mode): a ScatterND with
// those positions as constant indices.
void tensorScatterTo17(ir::Node& n, HandlerContext& ctx) {
  auto cache = ctx.staticShape(n.input(0));
  auto update = ctx.staticShape(n.input(1));
  if (!cache || !update || cache->size() != update->size() || cache->size() < 2)
    throw Unsupported("TensorScatter: the cache and update shapes must be static (and of one rank)");
  std::vector<int64_t> where(static_cast<size_t>((*cache)[0]), 0);
  if (n.input(2)) {
    auto wi = ctx.constantInts(n.input(2));
    if (!wi)
      throw Unsupported(
          "TensorScatter: write_indices are computed at run time; the scatter positions must be constants");
    if (wi->size() != where.size()) throw Unsupported("TensorScatter: write_indices does not hold one value per batch");
    where = *wi;
  }
  const int64_t rank = static_cast<int64_t>(cache->size());
  int64_t axis = n.attrInt("axis", -2);
  if (axis < 0) axis += rank;
  if (axis < 1 || axis >= rank) throw Unsupported("TensorScatter: axis must not be the batch axis");
  const bool circular = n.attrString("mode", "linear") == "circular";
  const int64_t len = (*cache)[axis], seq = (*update)[axis];
  if (seq > len) throw Unsupported("TensorScatter: the update is longer than the cache");
  int64_t rows = 1;
  for (int64_t d = 0; d <= axis; ++d)
    if ((*update)[d] < 0 || __builtin_mul_overflow(rows, (*update)[d], &rows) || rows > (int64_t(1) << 20))
      throw Unsupported("TensorScatter: too many positions for constant indices");
  std::vector<int64_t> indices;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> at(static_cast<size_t>(axis + 1));
    int64_t rest = r;
    for (int64_t d = axis; d >= 0; --d) {
      at[d] = rest % (*update)[d];
      rest /= (*update)[d];
    }
    int64_t pos = where[at[0]] + at[axis];
    if (circular)
      pos %= len;
    else if (where[at[0]] < 0 || pos >= len)
      throw Unsupported("TensorScatter: write_indices[" + std::to_string(at[0]) +
                        "] writes past the cache (linear mode)");
    at[axis] = pos;
    indices.insert(indices.end(), at.begin(), at.end());
  }
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d = 0; d <= axis; ++d) t.add_dims((*update)[d]);
  t.add_dims(axis + 1);
  for (auto v : indices) t.add_int64_data(v);
  std::vector<std::string> ins{"past_cache", "update"};
  if (n.input(2)) ins.push_back("write_indices");
  replaceByBody17(
      n, ctx, ins, {"present_cache"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("positions", t);
        b.Add("present_cache = ScatterND(past_cache, positions, update)");
      },
      std::string("TensorScatter (") + (circular ? "circular" : "linear") +
          ") written as ScatterND at constant positions");
}

}  // namespace fb::convert::onnx_onnx
