// CumSum: running sums along the axis given as a scalar input, optionally exclusive (each element leaves itself
// out) and/or reversed. Floats are summed in their own type in order, as other runtimes do; integers wrap.
#include "eval/kernels/cumulative_scan.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> cumSum(const KernelContext& c) { return cumulativeScan(c, Cumulative::Sum); }

}  // namespace

void registerScanKernels(KernelRegistry& r) {
  r.add("CumSum", 11, cumSum);
  r.add("CumSum", 14, cumSum);  // float16 and bfloat16 (computed in float)
}

}  // namespace fb::eval
