// OneFlow -> ONNX conversion time of the ResNet-18 fixture without file I/O: the Job and its weight folder are
// read once, then each run converts a fresh copy in memory. Prints the median of the handler stage alone (the
// conversion proper, passes and check off; target <= 50 ms) and of the whole default pipeline.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <vector>

#include "convert/converter.h"
#include "formats/model_io.h"

using namespace fb;

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_oneflow FIXTURE_DIR [runs]\n";
    return 1;
  }
  const int runs = argc > 2 ? std::atoi(argv[2]) : 15;
  auto t0 = std::chrono::steady_clock::now();
  auto model = loadModel(argv[1]);
  const double readMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  convert::ConvertOptions bare;
  bare.direction = "oneflow";
  bare.targetOpset = 13;
  bare.passes = std::vector<std::string>{};
  bare.check = false;
  convert::ConvertOptions full = bare;
  full.passes.reset();
  full.check = true;

  std::vector<double> handlers, bareTotal, fullTotal;
  size_t nodes = 0;
  for (int i = 0; i < runs; ++i) {
    auto r = convert::convertModel(*model, bare);
    if (!r.model) {
      std::cerr << "conversion incomplete\n";
      return 1;
    }
    nodes = r.nodes.size();
    handlers.push_back(r.handlersMs);
    bareTotal.push_back(r.totalMs);
    auto f = convert::convertModel(*model, full);
    fullTotal.push_back(f.totalMs);
  }
  std::cout << "bench_oneflow: " << argv[1] << " (" << nodes << " OneFlow nodes, read once in " << readMs << " ms)\n"
            << "  handlers (the conversion)        median " << median(handlers) << " ms   target <= 50 ms\n"
            << "  copy + sort + handlers           median " << median(bareTotal) << " ms\n"
            << "  default pipeline (passes, check) median " << median(fullTotal) << " ms\n";
  return 0;
}
