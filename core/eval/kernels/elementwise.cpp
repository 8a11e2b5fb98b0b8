// The elementwise family: math, activations, arithmetic, logic, Cast and quantization, each group in its own
// file (elementwise_parts.h lists them), and the attribute readers they share.
#include <algorithm>
#include <cctype>

#include "eval/kernels/elementwise_parts.h"
#include "eval/runtime/kernel_families.h"

namespace fb::eval {

namespace elementwise {

Tensor legacyBroadcastOperand(const KernelContext& c, const Tensor& a, const Tensor& b) {
  if (c.node.attrInt("broadcast", 0) == 0) {
    if (a.dims() != b.dims())
      badInput(describe(a) + " and " + describe(b) + " differ in shape and the node (opset " + std::to_string(c.opset) +
               ") does not set broadcast=1");
    return b;
  }
  const int64_t rankA = static_cast<int64_t>(a.rank()), rankB = static_cast<int64_t>(b.rank());
  if (rankB > rankA) badInput(describe(b) + " has more dims than " + describe(a) + " it broadcasts to");
  int64_t axis = c.node.attrInt("axis", rankA - rankB);
  if (axis < 0) axis += rankA;
  if (axis < 0 || axis + rankB > rankA)
    badInput("broadcast axis " + std::to_string(c.node.attrInt("axis", 0)) + " does not fit " + describe(b) + " into " +
             describe(a));
  std::vector<int64_t> dims(static_cast<size_t>(rankA), 1);
  for (int64_t k = 0; k < rankB; ++k) {
    const int64_t d = b.dim(static_cast<size_t>(k));
    if (d != 1 && d != a.dim(static_cast<size_t>(axis + k)))
      badInput(describe(b) + " does not broadcast to " + describe(a) + " from axis " + std::to_string(axis));
    dims[static_cast<size_t>(axis + k)] = d;
  }
  return b.reshaped(std::move(dims));
}

ir::DataType elementTypeAttribute(const KernelContext& c, const std::string& name) {
  const ir::Attribute* a = c.node.attr(name);
  if (!a) badInput("attribute '" + name + "' is missing");
  if (a->type == ir::AttrType::String) {  // Cast-1 names the type ("FLOAT", "INT64")
    std::string s = a->s.str();
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (s == "float32") s = "float";
    if (auto t = ir::dataTypeFromName(s)) return *t;
    badInput("attribute '" + name + "' names no element type");
  }
  if (a->i < 0 || a->i > INT32_MAX || !ir::isKnownDataType(static_cast<int32_t>(a->i)) || a->i == 0)
    badInput("attribute '" + name + "' = " + std::to_string(a->i) + " is not an element type");
  return static_cast<ir::DataType>(a->i);
}

}  // namespace elementwise

void registerElementwiseKernels(KernelRegistry& r) {
  elementwise::registerMathKernels(r);
  elementwise::registerActivationKernels(r);
  elementwise::registerArithmeticKernels(r);
  elementwise::registerLogicKernels(r);
  elementwise::registerCastKernels(r);
  elementwise::registerQuantizeKernels(r);
}

}  // namespace fb::eval
