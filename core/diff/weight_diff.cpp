#include "diff/weight_diff.h"

#include <bit>
#include <cmath>
#include <cstring>

#include "ir/tensor.h"
#include "ir/type_info.h"

namespace fb::diff {
namespace {

std::string typeText(const ir::Tensor& t) {
  std::string s(ir::dataTypeName(t.dtype));
  s += "[";
  for (size_t i = 0; i < t.dims.size(); ++i) s += (i ? "," : "") + std::to_string(t.dims[i]);
  return s + "]";
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return std::bit_cast<float>(sign);
    // Subnormal: value = mant * 2^-24.
    const float v = float(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Element `i` as a double, for the element types stored one per fixed-size slot; false for the others.
bool readElement(ir::DataType t, const std::byte* base, size_t i, double& out) {
  using D = ir::DataType;
  switch (t) {
    case D::Float:
      out = load<float>(base + i * 4);
      return true;
    case D::Double:
      out = load<double>(base + i * 8);
      return true;
    case D::Float16:
      out = halfToFloat(load<uint16_t>(base + i * 2));
      return true;
    case D::BFloat16:
      out = std::bit_cast<float>(uint32_t(load<uint16_t>(base + i * 2)) << 16);
      return true;
    case D::Int8:
      out = load<int8_t>(base + i);
      return true;
    case D::UInt8:
    case D::Bool:
      out = load<uint8_t>(base + i);
      return true;
    case D::Int16:
      out = load<int16_t>(base + i * 2);
      return true;
    case D::UInt16:
      out = load<uint16_t>(base + i * 2);
      return true;
    case D::Int32:
      out = load<int32_t>(base + i * 4);
      return true;
    case D::UInt32:
      out = load<uint32_t>(base + i * 4);
      return true;
    case D::Int64:
      out = double(load<int64_t>(base + i * 8));
      return true;
    case D::UInt64:
      out = double(load<uint64_t>(base + i * 8));
      return true;
    default:
      return false;
  }
}

void numericDifference(const ir::Tensor& a, std::span<const std::byte> ba, std::span<const std::byte> bb,
                       WeightDiff& d) {
  const size_t size = ir::elementSize(a.dtype);
  double x = 0, y = 0;
  if (size == 0 || ba.size() != bb.size() || !readElement(a.dtype, ba.data(), 0, x)) {
    d.differing = 0;
    return;
  }
  const size_t count = ba.size() / size;
  double maxAbs = 0, maxRel = 0;
  size_t differing = 0;
  for (size_t i = 0; i < count; ++i) {
    if (std::memcmp(ba.data() + i * size, bb.data() + i * size, size) == 0) continue;
    ++differing;
    readElement(a.dtype, ba.data(), i, x);
    readElement(a.dtype, bb.data(), i, y);
    if (std::isnan(x) || std::isnan(y)) continue;  // counted, but no figure to take the largest of
    const double diff = std::fabs(x - y);
    maxAbs = std::max(maxAbs, diff);
    const double scale = std::max(std::fabs(x), std::fabs(y));
    if (scale > 0 && std::isfinite(diff)) maxRel = std::max(maxRel, diff / scale);
  }
  d.differing = differing;
  d.maxAbs = maxAbs;
  d.maxRel = maxRel;
}

}  // namespace

WeightDiff compareWeights(const ir::Tensor* a, const ir::Tensor* b, bool values) {
  WeightDiff d;
  d.a = a;
  d.b = b;
  if (!a || !b) {
    d.status = a ? Status::OnlyA : Status::OnlyB;
    return d;
  }
  if (a->dtype != b->dtype || a->dims != b->dims) {
    d.status = Status::Changed;
    d.change = typeText(*a) + " -> " + typeText(*b);
    return d;
  }
  if (a->dtype == ir::DataType::String) {
    if (a->strings.size() != b->strings.size() ||
        !std::equal(a->strings.begin(), a->strings.end(), b->strings.begin())) {
      d.status = Status::Changed;
      d.change = "strings differ";
    }
    return d;
  }
  const auto ba = a->bytes();
  const auto bb = b->bytes();
  if (ba.size() == bb.size() && (ba.empty() || std::memcmp(ba.data(), bb.data(), ba.size()) == 0)) return d;
  d.status = Status::Changed;
  d.change = "values differ";
  if (values) numericDifference(*a, ba, bb, d);
  return d;
}

}  // namespace fb::diff
