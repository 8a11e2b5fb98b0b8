// ArgMax and ArgMin: the index (int64) of the largest / smallest element along one axis; on ties the first one,
// or from opset 12 the last one when select_last_index is set. A NaN counts as larger / smaller than everything,
// as numpy's argmax / argmin choose it.
#include <cmath>
#include <type_traits>

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

// True when `v` should replace `best` (strictly better, or equal with `preferLater`).
template <typename T>
bool better(T v, T best, bool max, bool preferLater) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(best)) return false;
    if (std::isnan(v)) return true;
  }
  if (v == best) return preferLater;
  return max ? v > best : v < best;
}

std::vector<Value> argExtreme(const KernelContext& c, bool max) {
  const Tensor& x = c.input(0);
  if (x.isString()) badInput(c.node.opType + " does not take strings");
  const size_t axis = normalizeAxis(c.node.attrInt("axis", 0), x.rank() == 0 ? 1 : x.rank());
  const bool keepDims = c.node.attrInt("keepdims", 1) != 0;
  const bool last = c.opset >= 12 && c.node.attrInt("select_last_index", 0) != 0;
  const AxisSplit s = splitAt(x.dims(), axis);
  if (s.axis == 0 && s.outer * s.inner > 0) badInput(c.node.opType + " along an empty axis");
  std::vector<int64_t> dims;
  for (size_t k = 0; k < x.rank(); ++k) {
    if (k != axis)
      dims.push_back(x.dim(k));
    else if (keepDims)
      dims.push_back(1);
  }
  Tensor out = Tensor::empty(ir::DataType::Int64, dims);
  int64_t* q = out.mutableData<int64_t>();
  visitNumeric(x.dtype(), [&]<typename T>() {
    const T* p = x.data<T>();
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t i = 0; i < s.inner; ++i) {
        const T* base = p + o * s.axis * s.inner + i;
        int64_t best = 0;
        for (int64_t a = 1; a < s.axis; ++a)
          if (better(base[a * s.inner], base[best * s.inner], max, last)) best = a;
        q[o * s.inner + i] = best;
      }
    return 0;
  });
  return {out};
}

}  // namespace

void registerArgKernels(KernelRegistry& r) {
  r.add("ArgMax", 1, [](const KernelContext& c) { return argExtreme(c, true); });
  r.add("ArgMax", 12, [](const KernelContext& c) { return argExtreme(c, true); });  // select_last_index
  r.add("ArgMin", 1, [](const KernelContext& c) { return argExtreme(c, false); });
  r.add("ArgMin", 12, [](const KernelContext& c) { return argExtreme(c, false); });
}

}  // namespace fb::eval
