// TopK: the k largest (or, from opset 11, smallest) elements along an axis and their int64 indices. k is an
// attribute before opset 10 and a 1-element input from 10. Equal values come in index order, as ONNX's
// reference and other runtimes give them; the result is sorted also when sorted = 0 (the order is then
// unspecified, so sorted is one valid answer).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

int64_t readK(const KernelContext& c) {
  if (c.opset < 10) return c.node.attrInt("k", -1);
  const Tensor& k = c.input(1);
  if (k.size() != 1 || (k.dtype() != ir::DataType::Int64 && k.dtype() != ir::DataType::Int32))
    badInput("TopK's k must be one int64, got " + describe(k));
  return k.int64At(0);
}

// Ordering for "largest first" (or smallest first): a NaN ranks above every number, ties by lower index.
template <typename T>
bool before(T a, int64_t ia, T b, int64_t ib, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) {
      if (na && nb) return ia < ib;
      return largest ? na : nb;
    }
  }
  if (a == b) return ia < ib;
  return largest ? a > b : a < b;
}

std::vector<Value> topK(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.isString() || x.dtype() == ir::DataType::Bool) badInput("TopK of " + describe(x));
  const size_t axis = normalizeAxis(c.node.attrInt("axis", -1), x.rank());
  const bool largest = c.opset < 11 || c.node.attrInt("largest", 1) != 0;
  const int64_t k = readK(c);
  const AxisSplit s = splitAt(x.dims(), axis);
  if (k < 0 || k > s.axis)
    badInput("k = " + std::to_string(k) + " where the axis has " + std::to_string(s.axis) + " elements");
  std::vector<int64_t> dims = x.dims();
  dims[axis] = k;
  Tensor values = Tensor::empty(x.dtype(), dims);
  Tensor indices = Tensor::empty(ir::DataType::Int64, dims);
  visitNumeric(x.dtype(), [&]<typename T>() {
    const T* p = x.data<T>();
    T* v = values.mutableData<T>();
    int64_t* ix = indices.mutableData<int64_t>();
    std::vector<int64_t> order(static_cast<size_t>(s.axis));
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i) {
        const T* row = p + o * s.axis * s.inner + i;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
          return before(row[a * s.inner], a, row[b * s.inner], b, largest);
        });
        for (int64_t j = 0; j < k; ++j) {
          const int64_t at = (o * k + j) * s.inner + i;
          v[at] = row[order[j] * s.inner];
          ix[at] = order[j];
        }
      }
    return 0;
  });
  return {values, indices};
}

}  // namespace

void registerTopKKernels(KernelRegistry& r) {
  r.add("TopK", 1, topK);
  r.add("TopK", 10, topK);  // k as an input
  r.add("TopK", 11, topK);  // largest, sorted, negative axis
}

}  // namespace fb::eval
