#pragma once
// Axes as the reduction family's ops name them (negative counts from the back), and a tensor's dims split around
// one axis (outer x axis x inner), the layout every "along one axis" kernel walks: element (o, a, i) is at
// (o * axis + a) * inner + i.
#include <cstdint>
#include <string>
#include <vector>

#include "eval/runtime/run_error.h"

namespace fb::eval {

// `axis` of a tensor of `rank` dims as 0..rank-1; throws RunError(BadInput) when it is out of range.
inline size_t normalizeAxis(int64_t axis, size_t rank, const char* what = "axis") {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    badInput(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

struct AxisSplit {
  int64_t outer = 1;
  int64_t axis = 1;
  int64_t inner = 1;
};

// Dims before `axis` multiplied, the axis, and dims after it multiplied (the product fits int64: the tensor exists).
inline AxisSplit splitAt(const std::vector<int64_t>& dims, size_t axis) {
  AxisSplit s;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (k < axis) s.outer *= dims[k];
    if (k == axis) s.axis = dims[k];
    if (k > axis) s.inner *= dims[k];
  }
  return s;
}

}  // namespace fb::eval
