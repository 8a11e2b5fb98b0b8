// Encoding floats into the narrow element types (float8 x5, float4, int4/uint4, int2/uint2), as ONNX's technical
// notes on float8, float4 and int4 define Cast to them: the value rounded to nearest even at the target's
// precision ([x], with an unbounded exponent), then what lies beyond the largest finite value goes to that value
// (saturate) or to infinity/NaN. Decoding is ir/packed_types.h's.
#include <cmath>
#include <cstring>

#include "eval/kernels/elementwise_parts.h"

namespace fb::eval::elementwise {

namespace {

struct MiniFloat {
  int exponentBits;
  int mantissaBits;
  int bias;
  double maxFinite;
  bool unsignedZero;    // FNUZ: one zero, and 0x80 is the NaN
  bool hasInfinity;     // E5M2
  uint32_t nanCode;     // without the sign
  bool nanCarriesSign;  // FN and E5M2 keep the sign on NaN
};

MiniFloat formatOf(ir::DataType t) {
  switch (t) {
    case ir::DataType::Float8E4M3FN:
      return {4, 3, 7, 448.0, false, false, 0x7f, true};
    case ir::DataType::Float8E4M3FNUZ:
      return {4, 3, 8, 240.0, true, false, 0x80, false};
    case ir::DataType::Float8E5M2:
      return {5, 2, 15, 57344.0, false, true, 0x7f, true};
    case ir::DataType::Float8E5M2FNUZ:
      return {5, 2, 16, 57344.0, true, false, 0x80, false};
    case ir::DataType::Float4E2M1:
      return {2, 1, 1, 6.0, false, false, 0, false};
    default:
      unsupported("encoding to " + std::string(ir::dataTypeName(t)));
  }
}

uint32_t encodeMiniFloat(ir::DataType t, float v, bool saturate) {
  const MiniFloat f = formatOf(t);
  const uint32_t signBit = 1u << (f.exponentBits + f.mantissaBits);
  const bool negative = std::signbit(v);
  const uint32_t sign = negative ? signBit : 0;
  const bool isFloat4 = t == ir::DataType::Float4E2M1;
  const uint32_t maxCode = isFloat4 ? 0x7u : (f.hasInfinity ? 0x7bu : (f.unsignedZero ? 0x7fu : 0x7eu));
  const uint32_t nan = f.nanCode | (f.nanCarriesSign ? sign : 0);
  if (std::isnan(v)) return isFloat4 ? maxCode : nan;  // float4 has no NaN: ONNX makes it +6
  // What a value beyond the range becomes.
  auto overflow = [&]() -> uint32_t {
    if (isFloat4 || saturate) return sign | maxCode;
    if (f.hasInfinity) return sign | 0x7cu;
    return nan;
  };
  if (std::isinf(v)) {
    if (isFloat4) return sign | maxCode;
    if (f.unsignedZero) return nan;  // FNUZ: infinity is NaN, saturated or not
    return overflow();
  }
  const double a = std::fabs(static_cast<double>(v));
  const int minExponent = 1 - f.bias;  // of the normal numbers; below, the quantum stays fixed (subnormals)
  int e = a == 0 ? minExponent : std::ilogb(a);
  if (e < minExponent) e = minExponent;
  const double quantum = std::ldexp(1.0, e - f.mantissaBits);
  const double rounded = std::nearbyint(a / quantum) * quantum;  // a / quantum is exact: a power-of-two scaling
  if (rounded > f.maxFinite) return overflow();
  if (rounded == 0) return f.unsignedZero ? 0u : sign;
  uint32_t code;
  if (rounded < std::ldexp(1.0, minExponent)) {
    code = static_cast<uint32_t>(rounded / std::ldexp(1.0, minExponent - f.mantissaBits));
  } else {
    const int re = std::ilogb(rounded);
    const auto mantissa =
        static_cast<uint32_t>(rounded / std::ldexp(1.0, re - f.mantissaBits)) - (1u << f.mantissaBits);
    code = static_cast<uint32_t>(re + f.bias) << f.mantissaBits | mantissa;
  }
  return sign | code;
}

// float8e8m0 (a power of two, no sign): the float's exponent field, rounded by `roundMode`; NaN and infinity are
// 0xff, and a value that would round past the largest power stays there when saturating.
uint32_t encodeE8M0(float v, bool saturate, const std::string& roundMode) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t exponent = (bits >> 23) & 0xffu;
  if (exponent == 0xffu) return 0xffu;
  const uint32_t fraction = bits & 0x7fffffu;
  bool up = false;
  if (roundMode == "up") {
    up = fraction != 0;
  } else if (roundMode == "nearest") {
    // Halfway and above rounds up for normal numbers; a subnormal needs more than half.
    const bool half = (fraction & 0x400000u) != 0;
    up = half && (exponent > 0 || (fraction & 0x3fffffu) != 0);
  } else if (roundMode != "down") {
    badInput("round_mode is '" + roundMode + "' (up, down or nearest)");
  }
  if (up && !(saturate && exponent == 0xfeu)) ++exponent;
  return exponent;
}

uint32_t encodeInteger(ir::DataType t, float v) {
  const bool isSigned = t == ir::DataType::Int4 || t == ir::DataType::Int2;
  const int bits = t == ir::DataType::Int4 || t == ir::DataType::UInt4 ? 4 : 2;
  const int lo = isSigned ? -(1 << (bits - 1)) : 0;
  const int hi = isSigned ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);  // halves to even
  const int x = r <= static_cast<float>(lo) ? lo : (r >= static_cast<float>(hi) ? hi : static_cast<int>(r));
  return static_cast<uint32_t>(x) & ((1u << bits) - 1);
}

}  // namespace

uint32_t encodeNarrow(ir::DataType t, float v, bool saturate, const std::string& roundMode) {
  switch (t) {
    case ir::DataType::Float8E8M0:
      return encodeE8M0(v, saturate, roundMode);
    case ir::DataType::Int4:
    case ir::DataType::UInt4:
    case ir::DataType::Int2:
    case ir::DataType::UInt2:
      return encodeInteger(t, v);
    default:
      return encodeMiniFloat(t, v, saturate);
  }
}

}  // namespace fb::eval::elementwise
