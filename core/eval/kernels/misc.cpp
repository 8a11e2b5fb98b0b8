// The misc family: losses, signal processing, strings, text features and random tensors, each in its own file
// (misc_family.h).
#include "eval/kernels/misc_family.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

void registerMiscKernels(KernelRegistry& r) {
  registerLossKernels(r);
  registerSignalKernels(r);
  registerStringKernels(r);
  registerTextKernels(r);
  registerRandomKernels(r);
}

}  // namespace fb::eval
