// CumProd-26: running products along the axis given as a scalar input, optionally exclusive (each element leaves
// itself out, the first is 1) and/or reversed. Floats multiply in their own type in order; integers wrap.
#include <type_traits>

#include "eval/kernels/recent_ops.h"
#include "eval/kernels/reduction_axes.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> cumProd(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& axisTensor = c.input(1);
  if (axisTensor.size() != 1 ||
      (axisTensor.dtype() != ir::DataType::Int64 && axisTensor.dtype() != ir::DataType::Int32))
    badInput("CumProd's axis must be one int32 or int64, got " + describe(axisTensor));
  if (x.isString() || x.dtype() == ir::DataType::Bool) badInput("CumProd of " + describe(x));
  if (x.rank() == 0) badInput("CumProd of a scalar: the input needs an axis");
  const size_t axis = normalizeAxis(axisTensor.int64At(0), x.rank());
  const bool exclusive = c.node.attrInt("exclusive", 0) != 0;
  const bool reverse = c.node.attrInt("reverse", 0) != 0;
  const AxisSplit s = splitAt(x.dims(), axis);
  return {visitNumeric(x.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      badInput("CumProd of bool");
    } else {
      // Unsigned arithmetic for integers (widened past int's promotion): overflow wraps instead of being undefined.
      using Acc =
          typename std::conditional_t<std::is_integral_v<T>, std::type_identity<uint64_t>, std::type_identity<T>>::type;
      Tensor y = Tensor::empty(x.dtype(), x.dims());
      const T* p = x.data<T>();
      T* q = y.mutableData<T>();
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i) {
          const int64_t base = o * s.axis * s.inner + i;
          Acc prod{1};
          for (int64_t step = 0; step < s.axis; ++step) {
            const int64_t a = reverse ? s.axis - 1 - step : step;
            const int64_t at = base + a * s.inner;
            if (exclusive) {
              q[at] = static_cast<T>(prod);
              prod = static_cast<Acc>(prod * static_cast<Acc>(p[at]));
            } else {
              prod = static_cast<Acc>(prod * static_cast<Acc>(p[at]));
              q[at] = static_cast<T>(prod);
            }
          }
        }
      return y;
    }
  })};
}

}  // namespace

void registerRecentScanKernels(KernelRegistry& r) {
  r.add("CumProd", 26, cumProd);  // float16 and bfloat16 computed in float
}

}  // namespace fb::eval
