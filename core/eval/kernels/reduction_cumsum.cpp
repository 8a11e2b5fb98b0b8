// CumSum: running sums along the axis given as a scalar input, optionally exclusive (each element leaves itself
// out) and/or reversed. Floats are summed in their own type in order, as other runtimes do; integers wrap.
#include <type_traits>

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> cumSum(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& axisTensor = c.input(1);
  if (axisTensor.size() != 1 ||
      (axisTensor.dtype() != ir::DataType::Int64 && axisTensor.dtype() != ir::DataType::Int32))
    badInput("CumSum's axis must be one int32 or int64, got " + describe(axisTensor));
  if (x.isString() || x.dtype() == ir::DataType::Bool) badInput("CumSum of " + describe(x));
  const size_t axis = normalizeAxis(axisTensor.int64At(0), x.rank());
  const bool exclusive = c.node.attrInt("exclusive", 0) != 0;
  const bool reverse = c.node.attrInt("reverse", 0) != 0;
  const AxisSplit s = splitAt(x.dims(), axis);
  return {visitNumeric(x.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      badInput("CumSum of bool");
    } else {
      // Unsigned arithmetic for integers: overflow wraps instead of being undefined.
      using Acc =
          typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
      Tensor y = Tensor::empty(x.dtype(), x.dims());
      const T* p = x.data<T>();
      T* q = y.mutableData<T>();
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i) {
          const int64_t base = o * s.axis * s.inner + i;
          Acc sum{0};
          for (int64_t step = 0; step < s.axis; ++step) {
            const int64_t a = reverse ? s.axis - 1 - step : step;
            const int64_t at = base + a * s.inner;
            if (exclusive) {
              q[at] = static_cast<T>(sum);
              sum = static_cast<Acc>(sum + static_cast<Acc>(p[at]));
            } else {
              sum = static_cast<Acc>(sum + static_cast<Acc>(p[at]));
              q[at] = static_cast<T>(sum);
            }
          }
        }
      return y;
    }
  })};
}

}  // namespace

void registerScanKernels(KernelRegistry& r) {
  r.add("CumSum", 11, cumSum);
  r.add("CumSum", 14, cumSum);  // float16 and bfloat16 (computed in float)
}

}  // namespace fb::eval
