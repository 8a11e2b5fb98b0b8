// The "recent" family's one entry point: each of its files registers its own ops.
#include "eval/kernels/recent_ops.h"

#include "eval/runtime/kernel_families.h"

namespace fb::eval {

void registerRecentOpKernels(KernelRegistry& r) {
  registerRecentElementwiseKernels(r);
  registerRecentScanKernels(r);
  registerRecentRotaryKernels(r);
  registerRecentTensorScatterKernels(r);
  registerRecentAttentionKernels(r);
  registerRecentDeformConvKernels(r);
}

}  // namespace fb::eval
