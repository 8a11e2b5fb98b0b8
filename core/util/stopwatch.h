#pragma once
// Milliseconds since a point on the steady clock: the unit every timing in reports and logs is given in.
#include <chrono>

namespace fb {

using SteadyClock = std::chrono::steady_clock;

inline double msSince(SteadyClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
}

}  // namespace fb
