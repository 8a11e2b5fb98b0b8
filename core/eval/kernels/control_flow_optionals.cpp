// Optionals: an optional that holds a value is that value at run time, an empty one is Value::none(), so these
// ops wrap, test and unwrap without copying.
#include "eval/kernels/control_flow.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

bool holdsElement(const KernelContext& c) { return c.hasInput(0) && !c.value(0).isNone(); }

std::vector<Value> optional(const KernelContext& c) { return {holdsElement(c) ? c.value(0) : Value::none()}; }

std::vector<Value> optionalHasElement(const KernelContext& c) {
  return {Tensor::scalar(ir::DataType::Bool, holdsElement(c) ? 1.0 : 0.0)};
}

std::vector<Value> optionalGetElement(const KernelContext& c) {
  if (!holdsElement(c)) badInput("the optional is empty");
  return {c.value(0)};
}

}  // namespace

void registerOptionalKernels(KernelRegistry& r) {
  r.add("Optional", 15, optional, HalfTypes::AsIs);
  // From opset 18 both also take a plain tensor or sequence (and HasElement an omitted input): the same code.
  r.add("OptionalHasElement", 15, optionalHasElement, HalfTypes::AsIs);
  r.add("OptionalGetElement", 15, optionalGetElement, HalfTypes::AsIs);
}

}  // namespace fb::eval
