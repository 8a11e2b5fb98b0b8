#pragma once
// This process's resident memory (VmRSS) in KiB, from /proc/self/status; 0 where it cannot be read.
#include <fstream>
#include <string>

inline long rssKb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}
