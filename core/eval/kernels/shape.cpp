// The shape family: data movement and indexing, every element type moved as bytes (float16, bfloat16 and float8 as
// they are, HalfTypes::AsIs) or as strings. Its parts live in kernels/shape_*.cpp, one idea each.
#include "eval/kernels/shape_parts.h"
#include "eval/runtime/kernel_families.h"

namespace fb::eval {

void registerShapeKernels(KernelRegistry& r) {
  shape::registerViewKernels(r);
  shape::registerConstantKernels(r);
  shape::registerCopyKernels(r);
  shape::registerPadKernels(r);
  shape::registerGatherKernels(r);
  shape::registerScatterKernels(r);
  shape::registerDropoutKernels(r);
}

}  // namespace fb::eval
