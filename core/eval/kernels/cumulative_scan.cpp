#include "eval/kernels/cumulative_scan.h"

#include <type_traits>

#include "eval/kernels/reduction_axes.h"
#include "eval/runtime/dispatch.h"

namespace fb::eval {

std::vector<Value> cumulativeScan(const KernelContext& c, Cumulative kind) {
  const std::string op = kind == Cumulative::Sum ? "CumSum" : "CumProd";
  const Tensor& x = c.input(0);
  const Tensor& axisTensor = c.input(1);
  if (axisTensor.size() != 1 ||
      (axisTensor.dtype() != ir::DataType::Int64 && axisTensor.dtype() != ir::DataType::Int32))
    badInput(op + "'s axis must be one int32 or int64, got " + describe(axisTensor));
  if (x.isString() || x.dtype() == ir::DataType::Bool) badInput(op + " of " + describe(x));
  if (x.rank() == 0) badInput(op + " of a scalar: the input needs an axis");
  const size_t axis = normalizeAxis(axisTensor.int64At(0), x.rank());
  const bool exclusive = c.node.attrInt("exclusive", 0) != 0;
  const bool reverse = c.node.attrInt("reverse", 0) != 0;
  const AxisSplit s = splitAt(x.dims(), axis);
  return {visitNumeric(x.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      badInput(op + " of bool");
    } else {
      using Acc =
          typename std::conditional_t<std::is_integral_v<T>, std::type_identity<uint64_t>, std::type_identity<T>>::type;
      const Acc identity = kind == Cumulative::Sum ? Acc{0} : Acc{1};
      auto combine = [kind](Acc acc, Acc v) { return static_cast<Acc>(kind == Cumulative::Sum ? acc + v : acc * v); };
      Tensor y = Tensor::empty(x.dtype(), x.dims());
      const T* p = x.data<T>();
      T* q = y.mutableData<T>();
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t i = 0; i < s.inner; ++i) {
          const int64_t base = o * s.axis * s.inner + i;
          Acc acc = identity;
          for (int64_t step = 0; step < s.axis; ++step) {
            const int64_t a = reverse ? s.axis - 1 - step : step;
            const int64_t at = base + a * s.inner;
            if (exclusive) {
              q[at] = static_cast<T>(acc);
              acc = combine(acc, static_cast<Acc>(p[at]));
            } else {
              acc = combine(acc, static_cast<Acc>(p[at]));
              q[at] = static_cast<T>(acc);
            }
          }
        }
      return y;
    }
  })};
}

}  // namespace fb::eval
