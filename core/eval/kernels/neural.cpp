#include "eval/kernels/neural_families.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

void registerNeuralKernels(KernelRegistry& r) {
  registerConvKernels(r);
  registerMatMulKernels(r);
  registerPoolKernels(r);
  registerNormKernels(r);
  registerDetKernels(r);
}

}  // namespace fb::eval
