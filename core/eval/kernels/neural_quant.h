#pragma once
// The integer and quantized-linear ops' shared arithmetic: zero points as int32 (a scalar, or one per row /
// column / channel), and requantization (round half to even, then saturate to the output type), as ONNX's
// QuantizeLinear defines it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"

namespace fb::eval {

inline bool isInt8Like(ir::DataType t) { return t == ir::DataType::Int8 || t == ir::DataType::UInt8; }

// The values of an optional zero point (or scale): `count` values when it holds one per slice, else one repeated;
// BadInput for any other size. An omitted zero point is 0.
inline std::vector<double> perSlice(const Tensor* t, int64_t count, const char* what, double fallback = 0) {
  if (!t) return std::vector<double>(static_cast<size_t>(count), fallback);
  if (t->size() == 1) return std::vector<double>(static_cast<size_t>(count), t->doubleAt(0));
  if (t->size() != count || t->rank() > 1)
    badInput(std::string(what) + " has " + std::to_string(t->size()) + " values where 1 or " + std::to_string(count) +
             " are expected");
  return t->toDoubles();
}

// round-half-even(v) + zeroPoint, saturated to T.
template <typename T>
T requantize(double v, double zeroPoint) {
  const double q = std::nearbyint(v) + zeroPoint;
  return static_cast<T>(std::clamp(q, double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max())));
}

}  // namespace fb::eval
