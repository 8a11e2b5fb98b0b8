#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

void registerMiscKernels(KernelRegistry&) {}

}  // namespace fb::eval
