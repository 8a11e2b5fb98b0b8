// Reading speed and memory: FlowBridge's ONNX reader against python's onnx.load, on the corpus and on a
// generated model with about 1 GB of weights. Each read runs in a fresh child process so that peak RSS
// (ru_maxrss from wait4) belongs to that read alone. The page cache is warmed first: these are warm figures.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "child_process.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"

namespace fs = std::filesystem;
using namespace fb;

namespace {

struct Run {
  double seconds = -1;      // open: parse + IR, weights mapped but not read
  double fullSeconds = -1;  // open + every weight byte read
  long maxRssKb = 0;
};

// Runs argv in a child; the child prints its own timing (seconds) on stdout.
Run runChild(const std::vector<std::string>& argv) {
  const bench::ChildResult c = bench::runChildProcess(argv);
  Run r;
  if (c.ok) {
    char* rest = nullptr;
    r.seconds = std::strtod(c.out.c_str(), &rest);
    r.fullSeconds = rest && *rest ? std::strtod(rest, nullptr) : r.seconds;
  }
  r.maxRssKb = c.peakKb;
  return r;
}

Run best(const std::vector<std::string>& argv, int reps) {
  Run b;
  for (int i = 0; i < reps; ++i) {
    Run r = runChild(argv);
    if (r.seconds < 0) return r;
    if (b.seconds < 0 || r.seconds < b.seconds) b.seconds = r.seconds;
    if (b.fullSeconds < 0 || r.fullSeconds < b.fullSeconds) b.fullSeconds = r.fullSeconds;
    b.maxRssKb = std::max(b.maxRssKb, r.maxRssKb);
  }
  return b;
}

int readOne(const std::string& path) {
  auto t0 = std::chrono::steady_clock::now();
  auto m = loadModel(path);
  double open = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Read every weight byte, as a consumer would; what python's onnx.load has done by the time it returns.
  uint64_t x = 0;
  for (const auto& t : m->graph().initializers()) {
    auto b = t->bytes();
    const uint64_t* w = reinterpret_cast<const uint64_t*>(b.data());
    for (size_t i = 0; i < b.size() / 8; ++i) x ^= w[i];
  }
  double full = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.6f %.6f\n", open, full);
  std::fprintf(stderr, "%llx\n", static_cast<unsigned long long>(x));  // uses x, so the loop stays
  return 0;
}

std::string makeGigabyteModel(const fs::path& dir) {
  fs::create_directories(dir);
  std::string path = (dir / "weights_1gb.onnx").string();
  if (fs::exists(path)) return path;
  ir::Model m;
  m.opsets = {{"", 13}};
  m.producerName = "flowbridge-bench";
  ir::Graph& g = m.graph();
  ir::Value* x = g.getOrCreateValue("x");
  x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::of(1), ir::Dim::of(4096)});
  g.addInput(x);
  ir::Value* acc = x;
  std::mt19937 rng(7);
  for (int k = 0; k < 16; ++k) {  // 16 x 4096 x 4096 floats = 1 GiB
    std::vector<float> w(4096 * 4096);
    for (size_t i = 0; i < w.size(); i += 7) w[i] = static_cast<float>(rng() % 1000) / 1000.f;
    ir::Value* wv = g.addInitializer(
        ir::Tensor::fromValues("fc" + std::to_string(k) + ".weight", ir::DataType::Float, {4096, 4096}, w));
    ir::Value* out = g.createUniqueValue("h" + std::to_string(k));
    g.addNode("MatMul", {acc, wv}, {out});
    acc = out;
  }
  g.addOutput(acc);
  onnxfmt::writeOnnxFile(m, path);
  return path;
}

void warm(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> buf(1 << 20);
  while (f.read(buf.data(), static_cast<std::streamsize>(buf.size())) || f.gcount() > 0) {
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--one") return readOne(argv[2]);
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_read CORPUS_MODELS_DIR SCRATCH_DIR\n");
    return 1;
  }
  std::vector<std::string> models;
  for (const auto& e : fs::directory_iterator(argv[1]))
    if (e.path().extension() == ".onnx") models.push_back(e.path().string());
  std::sort(models.begin(), models.end());
  models.push_back(makeGigabyteModel(argv[2]));
  const std::string self = fs::canonical("/proc/self/exe").string();
  const std::string py =
      "import onnx,sys,time\nt=time.perf_counter()\nonnx.load(sys.argv[1])\nprint(time.perf_counter()-t)";
  bool havePython = fs::exists("/usr/bin/python3") && std::system("/usr/bin/python3 -c 'import onnx' 2>/dev/null") == 0;

  // The peak RSS of a run on the smallest model is the process's own baseline (libraries, heap).
  const long baselineKb = best({self, "--one", models.front()}, 3).maxRssKb;
  std::printf("%-34s %8s | %8s %9s %8s %7s %7s | %8s %7s %8s\n", "model (warm cache)", "file MB", "open ms", "+read ms",
              "MB/s", "RSS MB", "extra/f", "py ms", "MB/s", "RSS MB");
  for (const auto& path : models) {
    warm(path);
    double mb = static_cast<double>(fs::file_size(path)) / 1e6;
    Run ours = best({self, "--one", path}, 5);
    Run theirs;
    if (havePython) theirs = best({"/usr/bin/python3", "-c", py, path}, 3);
    std::printf("%-34s %8.1f | %8.1f %9.1f %8.0f %7.1f %7.2f | %8.1f %7.0f %8.1f\n", fs::path(path).filename().c_str(),
                mb, ours.seconds * 1e3, ours.fullSeconds * 1e3, mb / ours.fullSeconds, ours.maxRssKb / 1024.0,
                (ours.maxRssKb - baselineKb) * 1024.0 / (mb * 1e6), theirs.seconds * 1e3,
                theirs.seconds > 0 ? mb / theirs.seconds : 0.0, theirs.maxRssKb / 1024.0);
  }
  std::printf(
      "MB/s is for open + read of every weight byte. RSS is the whole process's peak (about 6 MB for an empty\n"
      "run of ours; python's includes the interpreter and numpy, about 30-40 MB). extra/f = (RSS - our baseline of\n"
      "%.1f MB) / file size.\n",
      baselineKb / 1024.0);
  return 0;
}
