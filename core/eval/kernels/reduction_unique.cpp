// Unique: the distinct elements of a tensor (flattened), or from an `axis` its distinct slices along that axis,
// sorted (the default) or in order of first occurrence; with the index of each one's first occurrence, each input
// element's (or slice's) position in the result, and how often each occurs. Strings are compared as bytes.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

// A strict order where NaN sorts after every number (so that sorting stays well-defined).
template <typename T>
bool lessThan(const T& x, const T& y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
  }
  return x < y;
}

// Slice a of a tensor laid out as (outer, n, inner): elements (o, a, i) in (o, i) order.
template <typename T>
int compareSlices(const T* p, const AxisSplit& s, int64_t a, int64_t b) {
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      const T& x = p[(o * s.axis + a) * s.inner + i];
      const T& y = p[(o * s.axis + b) * s.inner + i];
      if (lessThan(x, y)) return -1;
      if (lessThan(y, x)) return 1;
    }
  return 0;
}

template <typename T>
std::vector<Value> uniqueOf(const Tensor& x, const T* p, const AxisSplit& s, bool hasAxis, size_t axis, bool sorted) {
  const int64_t n = s.axis;
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compareSlices(p, s, a, b) < 0; });
  // Groups of equal slices; each group's first member is its lowest index (the sort is stable).
  std::vector<int64_t> groupFirst, groupCount, groupOf(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    if (k == 0 || compareSlices(p, s, order[k - 1], order[k]) != 0) {
      groupFirst.push_back(order[k]);
      groupCount.push_back(0);
    }
    groupOf[order[k]] = static_cast<int64_t>(groupFirst.size()) - 1;
    ++groupCount.back();
  }
  const int64_t u = static_cast<int64_t>(groupFirst.size());
  std::vector<int64_t> rank(static_cast<size_t>(u));  // output position of each group
  std::vector<int64_t> byPosition(static_cast<size_t>(u));
  std::iota(byPosition.begin(), byPosition.end(), 0);
  if (!sorted)
    std::sort(byPosition.begin(), byPosition.end(),
              [&](int64_t a, int64_t b) { return groupFirst[a] < groupFirst[b]; });
  for (int64_t j = 0; j < u; ++j) rank[byPosition[j]] = j;

  std::vector<int64_t> dims = hasAxis ? x.dims() : std::vector<int64_t>{u};
  if (hasAxis) dims[axis] = u;
  Tensor y = Tensor::empty(x.dtype(), dims);
  auto put = [&](auto* q) {
    for (int64_t j = 0; j < u; ++j) {
      const int64_t from = groupFirst[byPosition[j]];
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i) q[(o * u + j) * s.inner + i] = p[(o * n + from) * s.inner + i];
    }
  };
  if constexpr (std::is_same_v<T, std::string>)
    put(y.mutableStrings().data());
  else
    put(y.mutableData<T>());
  std::vector<int64_t> first(static_cast<size_t>(u)), counts(static_cast<size_t>(u)), inverse(static_cast<size_t>(n));
  for (int64_t j = 0; j < u; ++j) {
    first[j] = groupFirst[byPosition[j]];
    counts[j] = groupCount[byPosition[j]];
  }
  for (int64_t a = 0; a < n; ++a) inverse[a] = rank[groupOf[a]];
  return {y, Tensor::int64s({u}, first), Tensor::int64s({n}, inverse), Tensor::int64s({u}, counts)};
}

std::vector<Value> unique(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const bool sorted = c.node.attrInt("sorted", 1) != 0;
  const bool hasAxis = c.node.hasAttr("axis");
  size_t axis = 0;
  AxisSplit s;
  if (hasAxis) {
    axis = normalizeAxis(c.node.attrInt("axis", 0), x.rank());
    s = splitAt(x.dims(), axis);
  } else {
    s.axis = x.size();
  }
  if (x.isString()) return uniqueOf(x, x.stringValues().data(), s, hasAxis, axis, sorted);
  return visitNumeric(x.dtype(), [&]<typename T>() { return uniqueOf(x, x.data<T>(), s, hasAxis, axis, sorted); });
}

}  // namespace

void registerUniqueKernels(KernelRegistry& r) { r.add("Unique", 11, unique); }

}  // namespace fb::eval
