#pragma once
// CPU time of the calling thread in milliseconds. Budgets and benchmarks on a shared machine use it instead of wall
// time, which also counts other processes' work: a budget in wall time gives another result under load.
#include <ctime>

namespace fb {

inline double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

}  // namespace fb
