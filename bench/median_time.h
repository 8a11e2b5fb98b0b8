#pragma once
// The median wall time of `runs` calls of `f`, in milliseconds: one slow run (a page fault, another process) does
// not move it, as it would a mean.
#include <algorithm>
#include <chrono>
#include <vector>

template <typename F>
double medianMs(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
