// CumProd-26: running products along the axis given as a scalar input, optionally exclusive (each element leaves
// itself out, the first is 1) and/or reversed. Floats multiply in their own type in order; integers wrap.
#include "eval/kernels/recent_ops.h"
#include "eval/kernels/cumulative_scan.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> cumProd(const KernelContext& c) { return cumulativeScan(c, Cumulative::Product); }

}  // namespace

void registerRecentScanKernels(KernelRegistry& r) {
  r.add("CumProd", 26, cumProd);  // float16 and bfloat16 computed in float
}

}  // namespace fb::eval
