#pragma once
// How a tensor's finite values spread between its minimum and maximum: what the Tensor panel draws for a value a
// run computed, so that a saturated activation or a layer of zeros shows at a glance.
#include <cstdint>
#include <vector>

#include "eval/runtime/tensor.h"

namespace fb::eval {

struct ValueHistogram {
  double min = 0, max = 0;      // of the finite values (equal when they are all one value)
  std::vector<int64_t> counts;  // `bins` equal-width bins from min to max (the last one includes max)
  int64_t nonFinite = 0;        // NaN and infinities, not in any bin
};

// Empty counts for strings and for a tensor without finite values.
ValueHistogram histogramOf(const Tensor& t, int bins);
// The same over [lo, hi] (finite values outside it count in the first or last bin): two tensors drawn side by side
// on one range (a source's value and its conversion's) compare bar for bar. Empty counts for strings only.
ValueHistogram histogramOver(const Tensor& t, int bins, double lo, double hi);

}  // namespace fb::eval
