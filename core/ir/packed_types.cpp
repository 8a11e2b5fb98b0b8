#include "ir/packed_types.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fb::ir {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A minifloat with `e` exponent bits, `m` mantissa bits and `bias`; subnormals when the exponent field is 0.
double miniFloat(uint32_t code, int e, int m, int bias) {
  const bool neg = (code >> (e + m)) & 1u;
  const uint32_t ef = (code >> m) & ((1u << e) - 1), mf = code & ((1u << m) - 1);
  double mag = ef == 0 ? std::ldexp(static_cast<double>(mf), 1 - bias - m)
                       : std::ldexp(1.0 + std::ldexp(static_cast<double>(mf), -m), static_cast<int>(ef) - bias);
  return neg ? -mag : mag;
}

}  // namespace

bool isNarrowType(DataType t) {
  return static_cast<int32_t>(t) >= static_cast<int32_t>(kFloat8E4M3FN) &&
         static_cast<int32_t>(t) <= static_cast<int32_t>(kInt2);
}

double decodeNarrowCode(DataType t, uint32_t c) {
  switch (t) {
    case kFloat8E4M3FN:  // no inf; S.1111.111 is NaN
      c &= 0xff;
      return (c & 0x7f) == 0x7f ? kNaN : miniFloat(c, 4, 3, 7);
    case kFloat8E4M3FNUZ:  // bias 8; 0x80 ("negative zero") is the only NaN
      c &= 0xff;
      return c == 0x80 ? kNaN : miniFloat(c, 4, 3, 8);
    case kFloat8E5M2:  // IEEE-like
      c &= 0xff;
      if ((c & 0x7c) == 0x7c) return (c & 0x03) ? kNaN : ((c & 0x80) ? -kInf : kInf);
      return miniFloat(c, 5, 2, 15);
    case kFloat8E5M2FNUZ:
      c &= 0xff;
      return c == 0x80 ? kNaN : miniFloat(c, 5, 2, 16);
    case kFloat8E8M0:  // 2^(e-127); 0xff is NaN
      c &= 0xff;
      return c == 0xff ? kNaN : std::ldexp(1.0, static_cast<int>(c) - 127);
    case kFloat4E2M1:
      return miniFloat(c & 0xf, 2, 1, 1);
    case kUInt4:
      return c & 0xf;
    case kInt4:
      return static_cast<int>(c & 0xf) - ((c & 0x8) ? 16 : 0);
    case kUInt2:
      return c & 0x3;
    case kInt2:
      return static_cast<int>(c & 0x3) - ((c & 0x2) ? 4 : 0);
    default:
      throw std::invalid_argument("not a narrow element type: " + std::string(dataTypeName(t)));
  }
}

std::vector<double> decodeNarrow(DataType t, std::span<const std::byte> bytes, int64_t count) {
  const size_t bits = elementBits(t);
  if (!isNarrowType(t) || bits == 0)
    throw std::invalid_argument("not a narrow element type: " + std::string(dataTypeName(t)));
  if (count < 0 || bytes.size() < storageBytes(t, count))
    throw std::invalid_argument(std::to_string(count) + " " + std::string(dataTypeName(t)) + " elements need " +
                                std::to_string(storageBytes(t, count)) + " bytes, " + std::to_string(bytes.size()) +
                                " given");
  std::vector<double> out(static_cast<size_t>(count));
  const size_t perByte = 8 / bits;
  const uint32_t mask = (1u << bits) - 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const auto byte = static_cast<uint32_t>(bytes[k / perByte]);
    out[k] = decodeNarrowCode(t, (byte >> ((k % perByte) * bits)) & mask);
  }
  return out;
}

std::optional<DataType> exactWideningOf(DataType t) {
  switch (t) {
    // Every float8/float4 value (and e8m0's 2^-127 .. 2^127, NaN, inf) is a float exactly; float is also the
    // type most kernels of the lower opsets accept, so widening goes there rather than to float16.
    case kFloat8E4M3FN:
    case kFloat8E4M3FNUZ:
    case kFloat8E5M2:
    case kFloat8E5M2FNUZ:
    case kFloat8E8M0:
    case kFloat4E2M1:
      return DataType::Float;
    case kInt4:
    case kInt2:
      return DataType::Int8;
    case kUInt4:
    case kUInt2:
      return DataType::UInt8;
    default:
      return std::nullopt;
  }
}

std::vector<std::byte> packSubByteIntegers(DataType t, const std::vector<int>& values) {
  const size_t bits = elementBits(t);
  if (bits != 4 && bits != 2) throw std::invalid_argument("not a sub-byte type: " + std::string(dataTypeName(t)));
  std::vector<std::byte> out(storageBytes(t, static_cast<int64_t>(values.size())), std::byte{0});
  const size_t perByte = 8 / bits;
  const unsigned mask = (1u << bits) - 1;
  for (size_t k = 0; k < values.size(); ++k)
    out[k / perByte] |= static_cast<std::byte>((static_cast<unsigned>(values[k]) & mask) << ((k % perByte) * bits));
  return out;
}

}  // namespace fb::ir
