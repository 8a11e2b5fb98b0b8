#include "inspect/tensor_values.h"

#include <cmath>

#include "ir/packed_types.h"

namespace fb {

ValueStats valueStats(const ir::Tensor& t, size_t keep) {
  ValueStats s;
  const std::vector<double> values = t.asDouble();
  s.count = values.size();
  double sum = 0, sq = 0;
  bool any = false;
  for (double x : values) {
    if (s.first.size() < keep) s.first.push_back(x);
    if (std::isnan(x)) {
      ++s.nan;
      continue;
    }
    if (std::isinf(x)) {
      ++s.inf;
      continue;
    }
    ++s.finite;
    s.min = any ? std::min(s.min, x) : x;
    s.max = any ? std::max(s.max, x) : x;
    any = true;
    sum += x;
    sq += x * x;
  }
  if (s.finite) {
    const double n = double(s.finite);
    s.mean = sum / n;
    s.std = std::sqrt(std::max(0.0, sq / n - s.mean * s.mean));
  }
  return s;
}

std::string storageDescription(ir::DataType t) {
  const size_t bits = ir::isNarrowType(t) ? ir::elementBits(t) : ir::elementSize(t) * 8;
  if (t == ir::DataType::String) return "variable-length strings";
  if (bits == 0) return "unknown";
  std::string out = std::to_string(bits) + "-bit";
  if (bits == 4) return out + ", 2 per byte, element 0 in the low nibble";
  if (bits == 2) return out + ", 4 per byte, element 0 in the lowest 2 bits";
  if (bits == 8) return out + ", 1 byte each";
  return out + ", " + std::to_string(bits / 8) + " bytes each, little-endian";
}

}  // namespace fb
