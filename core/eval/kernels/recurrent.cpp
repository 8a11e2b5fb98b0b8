#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

void registerRecurrentKernels(KernelRegistry&) {}

}  // namespace fb::eval
