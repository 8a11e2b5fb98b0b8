// Node counts after the default passes per corpus model, next to onnxoptimizer v0.2.7's (MANIFEST.md),
// and the time the default pipeline takes (median of several runs, without file I/O).
// Usage: bench_passes [CORPUS_DIR] [MODEL.onnx...] [--per-pass] [--write DIR]  (--write saves the optimized models, for ONNX Runtime checks)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/pass_anchors.h"
#include "formats/onnx/onnx_reader.h"
#include "formats/onnx/onnx_writer.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"

namespace fs = std::filesystem;
using namespace fb;

int main(int argc, char** argv) {
  std::string corpus = FB_CORPUS_DIR, writeDir;
  bool perPass = false;
  std::vector<std::string> extra;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--write" && i + 1 < argc) writeDir = argv[++i];
    else if (a == "--per-pass") perPass = true;
    else if (a.size() > 5 && a.substr(a.size() - 5) == ".onnx") extra.push_back(a);
    else corpus = a;
  }
  auto anchors = bench::readOnnxOptimizerAnchors(corpus + "/MANIFEST.md");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(corpus + "/models"))
    if (e.path().extension() == ".onnx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  files.insert(files.end(), extra.begin(), extra.end());
  const auto pipeline = passes::PassRegistry::instance().defaultPipeline();
  std::printf("%-36s %7s %7s %9s %9s %10s %6s\n", "model", "nodes", "after", "onnxopt", "ms(med)", "ms(infer)", "iters");
  for (const auto& path : files) {
    const std::string file = fs::path(path).filename().string();
    std::vector<double> times;
    double inferMs = 0;
    size_t before = 0, after = 0, iters = 0;
    std::unique_ptr<ir::Model> last;
    passes::PassManagerResult lastResult;
    for (int run = 0; run < 5; ++run) {
      auto model = onnxfmt::readOnnxFile(path);
      passes::PassManager pm(pipeline);
      auto t0 = std::chrono::steady_clock::now();
      auto r = pm.run(*model);
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      inferMs = r.typeInferenceMilliseconds;
      before = r.nodesBefore;
      after = r.nodesAfter;
      iters = r.iterations;
      last = std::move(model);
      lastResult = r;
    }
    std::sort(times.begin(), times.end());
    auto it = anchors.find(file);
    std::string anchor = it == anchors.end() ? "-" : std::to_string(it->second.nodesAfter);
    std::printf("%-36s %7zu %7zu %9s %9.1f %10.1f %6zu\n", file.c_str(), before, after, anchor.c_str(),
                times[times.size() / 2], inferMs, iters);
    if (perPass)
      for (const auto& p : lastResult.perPass)
        if (p.milliseconds >= 0.5 || p.total.nodesRemoved)
          std::printf("    %-38s %8.1f ms  -%zu +%zu nodes\n", p.name.c_str(), p.milliseconds, p.total.nodesRemoved,
                      p.total.nodesAdded);
    if (!writeDir.empty()) {
      fs::create_directories(writeDir);
      onnxfmt::writeOnnxFile(*last, writeDir + "/" + file);
    }
  }
  return 0;
}
