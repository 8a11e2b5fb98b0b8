// Swish-24 (x * sigmoid(alpha * x), computed in the input's float type) and BitCast-26 (the same bits under another
// element type of the same width: bytes copied as they are, little-endian like the evaluator's own storage).
#include <cmath>
#include <cstring>

#include "eval/kernels/recent_ops.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> swish(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const double alpha = c.node.attrFloat("alpha", 1.0f);
  return {visitFloating(x.dtype(), [&]<typename T>() -> Tensor {
    Tensor y = Tensor::empty(x.dtype(), x.dims());
    const T* p = x.data<T>();
    T* q = y.mutableData<T>();
    const T a = static_cast<T>(alpha);
    for (int64_t k = 0; k < x.size(); ++k) q[k] = p[k] / (T(1) + std::exp(-a * p[k]));
    return y;
  })};
}

// Bits per element; 0 for types BitCast does not take (string, undefined).
int bitWidth(ir::DataType t) {
  using ir::DataType;
  switch (t) {
    case DataType::UInt4:
    case DataType::Int4:
    case DataType::Float4E2M1:
      return 4;
    case DataType::UInt2:
    case DataType::Int2:
      return 2;
    case DataType::String:
    case DataType::Undefined:
      return 0;
    default:
      return static_cast<int>(ir::elementSize(t) * 8);
  }
}

std::vector<Value> bitCast(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t raw = c.node.attrInt("to", 0);
  if (!c.node.hasAttr("to") || !ir::isKnownDataType(static_cast<int32_t>(raw)))
    badInput("BitCast needs 'to', an element type; got " + std::to_string(raw));
  const auto to = static_cast<ir::DataType>(raw);
  const int from = bitWidth(x.dtype()), width = bitWidth(to);
  if (from == 0 || width == 0 || from != width)
    badInput("BitCast from " + describe(x) + " to " + std::string(ir::dataTypeName(to)) +
             ": both types must be non-string and of the same bit width");
  Tensor y = Tensor::empty(to, x.dims());
  if (y.byteSize() != x.byteSize()) badInput("BitCast of " + describe(x) + ": byte sizes differ");
  if (y.byteSize()) std::memcpy(y.mutableData<std::byte>(), x.bytes().data(), y.byteSize());
  return {y};
}

}  // namespace

void registerRecentElementwiseKernels(KernelRegistry& r) {
  r.add("Swish", 24, swish);
  r.add("BitCast", 26, bitCast, HalfTypes::AsIs);  // bits, not values: float16 stays 16-bit
}

}  // namespace fb::eval
