#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

void registerControlFlowKernels(KernelRegistry&) {}

}  // namespace fb::eval
