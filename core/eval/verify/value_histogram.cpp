#include "eval/verify/value_histogram.h"

#include <algorithm>
#include <cmath>

namespace fb::eval {

ValueHistogram histogramOf(const Tensor& t, int bins) {
  ValueHistogram h;
  if (t.isString() || bins <= 0) return h;
  const int64_t n = t.size();
  bool any = false;
  for (int64_t k = 0; k < n; ++k) {
    const double v = t.doubleAt(k);
    if (!std::isfinite(v)) {
      ++h.nonFinite;
      continue;
    }
    h.min = any ? std::min(h.min, v) : v;
    h.max = any ? std::max(h.max, v) : v;
    any = true;
  }
  if (!any) return h;
  return histogramOver(t, bins, h.min, h.max);
}

ValueHistogram histogramOver(const Tensor& t, int bins, double lo, double hi) {
  ValueHistogram h;
  h.min = lo;
  h.max = hi;
  if (t.isString() || bins <= 0) return h;
  h.counts.assign(static_cast<size_t>(bins), 0);
  const double width = (hi - lo) / bins;
  const int64_t n = t.size();
  for (int64_t k = 0; k < n; ++k) {
    const double v = t.doubleAt(k);
    if (!std::isfinite(v)) {
      ++h.nonFinite;
      continue;
    }
    const int b = width > 0 ? static_cast<int>(std::clamp((v - lo) / width, 0.0, double(bins - 1))) : 0;
    h.counts[static_cast<size_t>(b)]++;
  }
  return h;
}

}  // namespace fb::eval
