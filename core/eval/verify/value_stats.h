#pragma once
// What `run` prints for each output and `compare` for a divergent value: a summary a person can read at a glance.
#include <cstdint>
#include <string>

#include "eval/runtime/value.h"

namespace fb::eval {

struct ValueStats {
  int64_t count = 0;     // elements
  int64_t nanCount = 0;  // NaN elements
  int64_t infCount = 0;  // +-Inf elements
  // Over the finite elements (all zero when there are none).
  double min = 0, max = 0, mean = 0;
  bool numeric = true;  // false for strings: only count is meaningful
};

ValueStats statsOf(const Tensor& t);
// "min -1.234 max 5.678 mean 0.01234" plus " nan 3 inf 1" when there are any; "(strings)" for strings.
std::string toText(const ValueStats& s);

}  // namespace fb::eval
