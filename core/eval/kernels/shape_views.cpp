// Ops that give their input other dims, or describe it, without moving an element: the result shares the input's
// bytes (Reshape of a 100 MB weight costs nothing), so every element type works here, the packed ones included.
#include <algorithm>

#include "eval/kernels/shape_parts.h"
#include "eval/runtime/dispatch.h"

namespace fb::eval::shape {

namespace {

std::vector<Value> identity(const KernelContext& c) { return {c.value(0)}; }

// ONNX's Reshape target: 0 copies the input's dim at that position (unless allowzero), one -1 is inferred.
std::vector<int64_t> reshapeTarget(const Tensor& x, std::vector<int64_t> want, bool allowZero) {
  int64_t inferAt = -1, known = 1;
  bool hasZero = false;
  for (size_t k = 0; k < want.size(); ++k) {
    int64_t& d = want[k];
    if (d == -1) {
      if (inferAt >= 0) badInput("the Reshape target has more than one -1");
      inferAt = static_cast<int64_t>(k);
      continue;
    }
    if (d == 0 && !allowZero) {
      if (k >= x.rank()) badInput("the Reshape target copies dim " + std::to_string(k) + " of " + describe(x));
      d = x.dim(k);
    } else if (d < -1) {
      badInput("the Reshape target has a dim of " + std::to_string(d));
    }
    hasZero = hasZero || d == 0;
    known = checkedMul(known, d);
  }
  if (inferAt >= 0) {
    if (allowZero && hasZero) badInput("the Reshape target has both -1 and 0 with allowzero set");
    if (known == 0 || x.size() % known != 0)
      badInput("cannot infer the -1 of the Reshape target for " + std::to_string(x.size()) + " elements");
    want[inferAt] = x.size() / known;
  }
  if (checkedElementCount(want) != x.size()) {
    std::string s;
    for (int64_t d : want) s += (s.empty() ? "" : ",") + std::to_string(d);
    badInput("cannot reshape " + describe(x) + " to [" + s + "]");
  }
  return want;
}

std::vector<Value> reshape(const KernelContext& c) {
  const Tensor& x = c.input(0);
  std::vector<int64_t> want;
  if (c.opset < 5) {
    want = c.node.attrInts("shape");
  } else {
    want = indexValues(c.input(1), "the Reshape target");
  }
  const bool allowZero = c.opset >= 14 && c.node.attrInt("allowzero", 0) != 0;
  return {x.reshaped(reshapeTarget(x, std::move(want), allowZero))};
}

std::vector<Value> flatten(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  int64_t axis = c.node.attrInt("axis", 1);
  if (axis < 0 && c.opset < 11) badInput("Flatten's axis is negative before opset 11");
  if (axis < 0) axis += rank;  // [-rank, rank]: -1 keeps the last dim as the columns
  if (axis < 0 || axis > rank) badInput("Flatten's axis is outside [-rank, rank] for " + describe(x));
  int64_t rows = 1, cols = 1;
  for (int64_t k = 0; k < axis; ++k) rows = checkedMul(rows, x.dim(k));
  for (int64_t k = axis; k < rank; ++k) cols = checkedMul(cols, x.dim(k));
  return {x.reshaped({rows, cols})};
}

std::vector<Value> squeeze(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  bool given = false;
  const std::vector<int64_t> axes =
      normalizeAxes(intsFromAttrOrInput(c, "axes", 1, 13, &given), rank, "Squeeze's axis");
  given = given && !axes.empty();  // an empty axes list squeezes every dim of 1, as ONNX Runtime reads it
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < rank; ++k) {
    const bool named = std::binary_search(axes.begin(), axes.end(), k);
    if (named && x.dim(k) != 1)
      badInput("Squeeze of axis " + std::to_string(k) + " of " + describe(x) + ", which is not 1");
    if (named || (!given && x.dim(k) == 1)) continue;
    dims.push_back(x.dim(k));
  }
  return {x.reshaped(std::move(dims))};
}

std::vector<Value> unsqueeze(const KernelContext& c) {
  const Tensor& x = c.input(0);
  bool given = false;
  const std::vector<int64_t> raw = intsFromAttrOrInput(c, "axes", 1, 13, &given);
  if (!given) badInput("Unsqueeze needs axes");
  const int64_t outRank = static_cast<int64_t>(x.rank() + raw.size());
  const std::vector<int64_t> axes = normalizeAxes(raw, outRank, "Unsqueeze's axis");
  std::vector<int64_t> dims;
  size_t next = 0;
  for (int64_t k = 0; k < outRank; ++k)
    dims.push_back(std::binary_search(axes.begin(), axes.end(), k) ? 1 : x.dim(next++));
  return {x.reshaped(std::move(dims))};
}

std::vector<Value> shapeOf(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  int64_t start = 0, end = rank;
  if (c.opset >= 15) {
    auto clampToRank = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
    start = clampToRank(c.node.attrInt("start", 0));
    if (c.node.hasAttr("end")) end = clampToRank(c.node.attrInt("end", rank));
  }
  std::vector<int64_t> dims;
  for (int64_t k = start; k < end; ++k) dims.push_back(x.dim(k));
  const int64_t n = static_cast<int64_t>(dims.size());
  return {Tensor::int64s({n}, dims)};
}

std::vector<Value> sizeOf(const KernelContext& c) { return {Tensor::int64s({}, {c.input(0).size()})}; }

}  // namespace

void registerViewKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Identity", 1, identity, asIs);
  r.add("Reshape", 1, reshape, asIs);  // shape attribute; from 5 an input; allowzero from 14
  r.add("Reshape", 5, reshape, asIs);
  r.add("Reshape", 14, reshape, asIs);
  r.add("Flatten", 1, flatten, asIs);  // negative axis from 11
  r.add("Flatten", 11, flatten, asIs);
  r.add("Squeeze", 1, squeeze, asIs);  // axes attribute; from 13 an input
  r.add("Squeeze", 13, squeeze, asIs);
  r.add("Unsqueeze", 1, unsqueeze, asIs);
  r.add("Unsqueeze", 13, unsqueeze, asIs);
  r.add("Shape", 1, shapeOf, asIs);  // start and end from 15
  r.add("Shape", 15, shapeOf, asIs);
  r.add("Size", 1, sizeOf, asIs);
}

}  // namespace fb::eval::shape
