// Node counts after the default passes per corpus model, next to onnxoptimizer v0.2.7's (MANIFEST.md) and
// ONNX Runtime's basic level (measured in this run, bench/ort_basic.h), and the time the default pipeline
// takes (median of 5 runs, wall and CPU, without file I/O; the model is opened afresh each run, so mapping its
// weights in is part of the time). Node counts include If/Loop bodies; onnxoptimizer's are the top-level graph's.
// FB_BENCH_SIMPLIFY_DIR=/work/mc adds every .onnx of that folder (make_corpus.py exports), timed in 1 run.
// Usage: bench_passes [CORPUS_DIR] [MODEL.onnx...] [--per-pass] [--write DIR]  (--write saves the optimized models, for
// ONNX Runtime checks)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "bench/ort_basic.h"
#include "bench/pass_anchors.h"
#include "util/thread_cpu_time.h"
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
    if (a == "--write" && i + 1 < argc)
      writeDir = argv[++i];
    else if (a == "--per-pass")
      perPass = true;
    else if (a.size() > 5 && a.substr(a.size() - 5) == ".onnx")
      extra.push_back(a);
    else
      corpus = a;
  }
  auto anchors = bench::readOnnxOptimizerAnchors(corpus + "/MANIFEST.md");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(corpus + "/models"))
    if (e.path().extension() == ".onnx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  files.insert(files.end(), extra.begin(), extra.end());
  const size_t timedFiles = files.size();
  if (const char* more = std::getenv("FB_BENCH_SIMPLIFY_DIR"); more && fs::is_directory(more)) {
    std::vector<std::string> exports;
    for (const auto& e : fs::directory_iterator(more))
      if (e.path().extension() == ".onnx") exports.push_back(e.path().string());
    std::sort(exports.begin(), exports.end());
    files.insert(files.end(), exports.begin(), exports.end());
  }
  std::string ortWhy;
  const auto ortBasic = bench::ortBasicNodeCounts(files, FB_ORACLE_DIR, FB_BENCH_TMP_DIR "/ort_basic", ortWhy);
  if (!ortWhy.empty()) std::printf("ort-basic: %s\n", ortWhy.c_str());
  const auto pipeline = passes::PassRegistry::instance().defaultPipeline();
  std::set<std::string> written;
  std::printf("%-36s %6s %6s %8s %9s %9s %9s %10s %6s\n", "model", "nodes", "after", "onnxopt", "ort-basic", "wall ms",
              "cpu ms", "infer ms", "iters");
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string& path = files[f];
    const std::string file = fs::path(path).filename().string();
    std::vector<double> times, cpu;
    double inferMs = 0;
    size_t before = 0, after = 0, iters = 0;
    std::unique_ptr<ir::Model> last;
    passes::PassManagerResult lastResult;
    std::unique_ptr<ir::Model> model;
    try {
      model = onnxfmt::readOnnxFile(path);
    } catch (const std::exception& e) {
      std::printf("%-36s unreadable: %s\n", file.c_str(), e.what());
      continue;
    }
    const size_t sourceNodes = model->graph().totalNodeCount();
    for (int run = 0; run < (f < timedFiles ? 5 : 1); ++run) {
      if (!model) model = onnxfmt::readOnnxFile(path);
      passes::PassManager pm(pipeline);
      auto t0 = std::chrono::steady_clock::now();
      const double c0 = threadCpuMs();
      auto r = pm.run(*model);
      cpu.push_back(threadCpuMs() - c0);
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      inferMs = r.typeInferenceMilliseconds;
      before = sourceNodes;
      after = model->graph().totalNodeCount();
      iters = r.iterations;
      last = std::move(model);
      lastResult = r;
    }
    std::sort(times.begin(), times.end());
    std::sort(cpu.begin(), cpu.end());
    auto it = anchors.find(file);
    std::string anchor = it == anchors.end() ? "-" : std::to_string(it->second.nodesAfter);
    auto ort = ortBasic.find(path);
    std::string ortCount = ort == ortBasic.end() ? "-" : std::to_string(ort->second);
    std::printf("%-36s %6zu %6zu %8s %9s %9.1f %9.1f %10.1f %6zu%s\n", file.c_str(), before, after, anchor.c_str(),
                ortCount.c_str(), times[times.size() / 2], cpu[cpu.size() / 2], inferMs, iters,
                ort != ortBasic.end() && after > ort->second ? "  more than ORT-basic" : "");
    if (perPass)
      for (const auto& p : lastResult.perPass)
        if (p.milliseconds >= 0.5 || p.total.nodesRemoved)
          std::printf("    %-38s %8.1f ms  -%zu +%zu nodes\n", p.name.c_str(), p.milliseconds, p.total.nodesRemoved,
                      p.total.nodesAdded);
    if (!writeDir.empty()) {
      // Models of the same name from two folders (the corpus, FB_BENCH_SIMPLIFY_DIR) each keep their file, and a
      // source is never written over.
      fs::create_directories(writeDir);
      fs::path out = fs::path(writeDir) / file;
      if (!written.insert(out.string()).second)
        out = fs::path(writeDir) / (fs::path(path).parent_path().filename().string() + "_" + file);
      written.insert(out.string());
      std::error_code ec;
      if (fs::exists(out) && fs::equivalent(out, path, ec)) {
        std::printf("    not written: %s is the source\n", out.string().c_str());
      } else {
        onnxfmt::writeOnnxFile(*last, out.string());
      }
    }
  }
  return 0;
}
