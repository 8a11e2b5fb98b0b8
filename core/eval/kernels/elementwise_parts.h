#pragma once
// What the elementwise kernel files share (internal to eval/kernels): each file registers one group of ops, and
// the integer arithmetic helpers make overflow wrap as two's complement (as every runtime does) instead of being
// undefined behaviour in C++.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "eval/kernels/broadcast.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"
#include "ir/packed_types.h"

namespace fb::eval::elementwise {

void registerMathKernels(KernelRegistry& r);        // elementwise_math.cpp: Abs, Exp, Sin, Round, IsNaN, ...
void registerActivationKernels(KernelRegistry& r);  // elementwise_activation.cpp: Relu, Sigmoid, Gelu, Clip, ...
void registerArithmeticKernels(KernelRegistry& r);  // elementwise_arithmetic.cpp: Add, Div, Mod, Pow, Max, Sum, ...
void registerLogicKernels(KernelRegistry& r);       // elementwise_logic.cpp: comparisons, And, Bitwise*, Where, ...
void registerCastKernels(KernelRegistry& r);        // elementwise_cast.cpp: Cast, CastLike
void registerQuantizeKernels(KernelRegistry& r);    // quantize.cpp: QuantizeLinear, DequantizeLinear, ...

template <typename T>
constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
T wrappingAdd(T a, T b) {
  if constexpr (kIsInteger<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <typename T>
T wrappingSub(T a, T b) {
  if constexpr (kIsInteger<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
  } else {
    return a - b;
  }
}

template <typename T>
T wrappingMul(T a, T b) {
  if constexpr (kIsInteger<T>) {
    // Unsigned types narrower than int would promote to (signed) int and could overflow there.
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}

template <typename T>
T wrappingNeg(T a) {
  return wrappingSub(T{0}, a);
}

// A double as integer type T: NaN is 0, values beyond T's range are its limits, the rest truncate toward zero
// (what a C++ cast does where it is defined).
template <typename T>
T saturatingFromDouble(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (std::isnan(v)) return T{0};
    if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

// visitNumeric for ops that have no meaning on bool: bool is refused (Unsupported) and never instantiated.
template <typename F>
decltype(auto) visitArithmetic(ir::DataType t, const std::string& op, F&& f) {
  using R = decltype(f.template operator()<float>());
  if (t == ir::DataType::Bool) unsupported(op + " of bool");
  return visitNumeric(t, [&]<typename T>() -> R {
    if constexpr (std::is_same_v<T, bool>)
      unsupported(op + " of bool");
    else
      return f.template operator()<T>();
  });
}

inline bool isHalfType(ir::DataType t) { return t == ir::DataType::Float16 || t == ir::DataType::BFloat16; }

// The same element type for every listed input, else BadInput naming the op and the types.
inline void requireSameType(const std::string& op, const std::vector<const Tensor*>& ts) {
  for (const Tensor* t : ts)
    if (t->dtype() != ts.front()->dtype()) {
      std::string all;
      for (const Tensor* u : ts) all += (all.empty() ? "" : " and ") + describe(*u);
      badInput(op + " of " + all + ": the inputs must have one element type");
    }
}

// ONNX's broadcasting before opset 7 (Add, Pow, And, Equal, ... version 1 to 6): B broadcasts to A only when the
// node says `broadcast=1`, its dims lined up with A's from `axis` (default: A's trailing dims). Returns B as a
// tensor of A's rank that multidirectional broadcasting then handles; without `broadcast`, shapes must be equal.
Tensor legacyBroadcastOperand(const KernelContext& c, const Tensor& a, const Tensor& b);

// Element type from a `to`-like attribute (an int code; Cast-1 names the type as a string).
ir::DataType elementTypeAttribute(const KernelContext& c, const std::string& name);

// Float encoders for the narrow types (float8, float4, int4, int2), as ONNX's Cast defines them: round to
// nearest even; `saturate` picks what values beyond the range become. Return the code in the low bits.
uint32_t encodeNarrow(ir::DataType t, float v, bool saturate, const std::string& roundMode = "up");
// A tensor of narrow type `t` and these dims from per-element codes produced by `code(k)`.
template <typename F>
Tensor packNarrow(ir::DataType t, const std::vector<int64_t>& dims, F code) {
  Tensor r = Tensor::zeros(t, dims);
  const int64_t n = r.size();
  const size_t bits = ir::elementBits(t);
  uint8_t* out = r.mutableData<uint8_t>();
  const uint32_t mask = (1u << bits) - 1;
  for (int64_t k = 0; k < n; ++k) {
    const size_t bit = static_cast<size_t>(k) * bits;
    out[bit / 8] = static_cast<uint8_t>(out[bit / 8] | ((code(k) & mask) << (bit % 8)));
  }
  return r;
}

}  // namespace fb::eval::elementwise
