#include "eval/shape_rules.h"

#include <algorithm>

namespace fb::eval {

namespace {

// Dims may come from a file or from values being folded: a negative dim or an overflow is not a shape.
std::optional<int64_t> count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return std::nullopt;
  return n;
}

}  // namespace

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (size_t k = 0; k < r; ++k) {
    const int64_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
    const int64_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[k] = x == 1 ? y : x;
  }
  return out;
}

std::optional<std::vector<int64_t>> resolveReshape(const std::vector<int64_t>& in, std::vector<int64_t> target,
                                                   bool allowZero) {
  int64_t known = 1, inferAt = -1;
  for (size_t k = 0; k < target.size(); ++k) {
    if (target[k] == 0 && !allowZero) {
      if (k >= in.size()) return std::nullopt;
      target[k] = in[k];
    }
    if (target[k] == -1) {
      if (inferAt >= 0) return std::nullopt;
      inferAt = static_cast<int64_t>(k);
    } else if (target[k] < 0) {
      return std::nullopt;
    } else if (__builtin_mul_overflow(known, target[k], &known)) {
      return std::nullopt;  // a target shape from the file whose product does not fit: no shape
    }
  }
  const auto total = count(in);
  if (!total) return std::nullopt;
  if (inferAt >= 0) {
    if (known == 0 || *total % known) return std::nullopt;
    target[inferAt] = *total / known;
  }
  if (count(target) != total) return std::nullopt;
  return target;
}

}  // namespace fb::eval
