// Elementwise math. Each op is computed in the element type the model gives it (float in float); float16 and
// bfloat16 are widened to float by the runner (HalfTypes::ViaFloat) and rounded back once per op.
#include <algorithm>

#include "eval/kernels/broadcast.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> add(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  if (a.dtype() != b.dtype()) badInput("Add of " + describe(a) + " and " + describe(b));
  return {visitNumeric(a.dtype(), [&]<typename T>() {
    return binaryBroadcast<T, T, T>(a, b, a.dtype(), [](T x, T y) { return static_cast<T>(x + y); });
  })};
}

std::vector<Value> relu(const KernelContext& c) {
  const Tensor& x = c.input(0);
  return {visitNumeric(
      x.dtype(), [&]<typename T>() { return unaryMap<T, T>(x, x.dtype(), [](T v) { return std::max(v, T{0}); }); })};
}

}  // namespace

void registerElementwiseKernels(KernelRegistry& r) {
  r.add("Add", 1, add);
  r.add("Relu", 1, relu);
}

}  // namespace fb::eval
