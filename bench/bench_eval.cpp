// FlowBridge's evaluator beside ONNX Runtime (npm onnxruntime-node, the tests' oracle) on the same model, the same
// seeded input (written as .npy and read by both) and the same thread count: the median of RUNS timed runs after
// one warm-up, as wall time and as the process's CPU time (on a shared machine the wall time also counts other
// people's work; the CPU time does not), and the peak memory: each runtime runs in a process of its own, and its
// resident high-water mark above what the process held before it read the model (reset through
// /proc/self/clear_refs) is what loading and running the model took. The evaluator's own count of the tensor bytes
// it held at once (RunResult.peakBytes, each value freed after its last reader) is printed too. Outputs are
// compared (1e-4 + 1e-3 * |ORT's|) so that a fast wrong kernel shows. A model with ops the evaluator has no kernel
// for is listed with those ops and not timed. The load average is printed. The evaluator's threads wait passively
// unless OMP_WAIT_POLICY says otherwise (passive_waits.h, as in flowbridge-cli run); OMP_WAIT_POLICY=active measures
// libgomp's spinning. --rounds K alternates the two runtimes K times (each round RUNS timed runs) and pools the times.
// Usage: bench_eval [--threads N] [--runs R] [--rounds K] TMP_DIR ORACLE_DIR MODEL.onnx...
//        bench_eval --child MODEL THREADS RUNS OUT_DIR INPUT.npy...   (the evaluator's process; prints JSON)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eval/io/npy_file.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/passive_waits.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "ir/data_type.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace fs = std::filesystem;
using namespace fb;

namespace {

uint64_t statusBytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(key.size())) * 1024;
  return 0;
}

void resetPeakResident() { std::ofstream("/proc/self/clear_refs") << "5"; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

void missingOps(const ir::Graph& g, int64_t opset, std::set<std::string>& out) {
  for (const auto& n : g.nodes()) {
    if (n->isDefaultDomain() && !eval::KernelRegistry::instance().find(n->opType, opset)) out.insert(n->opType);
    for (const ir::Graph* body : n->subgraphs()) missingOps(*body, opset, out);
  }
}

// Bytes of the initializers the evaluator copies once per loaded model (not aligned for their type in the file).
uint64_t unalignedWeightBytes(const ir::Graph& g) {
  uint64_t copied = 0;
  for (const auto& t : g.initializers()) {
    const auto bytes = t->bytes();
    if (reinterpret_cast<uintptr_t>(bytes.data()) % std::max<size_t>(1, ir::elementSize(t->dtype)) != 0)
      copied += bytes.size();
  }
  return copied;
}

double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string runCommand(const std::string& cmd) {
  std::string printed;
  if (FILE* p = popen((cmd + " 2>&1").c_str(), "r")) {
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0) printed.append(buf, got);
    pclose(p);
  }
  return printed;
}

std::string mb(double bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", bytes / (1024.0 * 1024.0));
  return b;
}

// Largest |a - b| and whether every element is within 1e-4 + 1e-3 * |b|.
std::pair<double, bool> difference(const eval::Tensor& a, const eval::Tensor& b) {
  if (a.dims() != b.dims()) return {INFINITY, false};
  double worst = 0;
  bool ok = true;
  for (int64_t k = 0; k < a.size(); ++k) {
    const double x = a.doubleAt(k), y = b.doubleAt(k);
    const double d = std::fabs(x - y);
    if (!(d <= 1e-4 + 1e-3 * std::fabs(y))) ok = false;
    worst = std::max(worst, std::isnan(d) ? INFINITY : d);
  }
  return {worst, ok};
}

// The evaluator's side, in its own process: load, warm up, time; outputs written as OUT_DIR/i.npy.
int runChild(const std::string& path, int threads, int runs, const std::string& outDir,
             const std::vector<std::string>& inputFiles) {
  nlohmann::json out;
  try {
    std::vector<eval::Tensor> given;
    for (const std::string& f : inputFiles) given.push_back(eval::readNpyFile(f));
    resetPeakResident();
    const uint64_t base = statusBytes("VmRSS");
    auto model = loadModel(path);
    std::map<std::string, eval::Value> inputs;
    const std::vector<std::string> names = eval::requiredInputs(*model);
    for (size_t k = 0; k < names.size() && k < given.size(); ++k) inputs[names[k]] = given[k];
    eval::RunOptions o;
    o.threads = threads;
    eval::RunResult last = eval::runModel(*model, inputs, o);  // warm-up
    std::vector<double> ms, cpu;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = cpuMs();
      last = eval::runModel(*model, inputs, o);
      cpu.push_back(cpuMs() - c0);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    out["peak"] = statusBytes("VmHWM") - base;
    out["ms"] = ms;
    out["cpu_ms"] = cpu;
    out["tensor_peak"] = last.peakBytes;
    out["copied"] = unalignedWeightBytes(model->graph());
    fs::create_directories(outDir);
    for (size_t i = 0; i < last.outputs.size(); ++i)
      eval::writeNpyFile(outDir + "/" + std::to_string(i) + ".npy", last.outputs[i].second.tensor());
  } catch (const eval::RunError& e) {
    out["error"] = (e.node().empty() ? "" : e.node() + ": ") + e.what();
  } catch (const std::exception& e) {
    out["error"] = e.what();
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

// The JSON line a child printed last, or an object holding "error" with what it printed.
nlohmann::json childResult(const std::string& printed) {
  const size_t at = printed.rfind("\n{");
  try {
    return nlohmann::json::parse(at == std::string::npos ? printed : printed.substr(at + 1));
  } catch (const std::exception&) {
    return {{"error", printed.substr(0, 400)}};
  }
}

// Adds one round's times to `all` (peak: the largest).
void pool(nlohmann::json& all, const nlohmann::json& round) {
  if (all.is_null()) {
    all = round;
    return;
  }
  for (const char* key : {"ms", "cpu_ms"})
    for (const auto& v : round[key]) all[key].push_back(v);
  all["peak"] = std::max(all["peak"].get<double>(), round["peak"].get<double>());
}

void benchModel(const std::string& self, const std::string& path, const std::string& tmp, const std::string& oracle,
                int threads, int runs, int rounds) {
  const std::string name = fs::path(path).stem().string();
  auto model = loadModel(path);
  const int64_t opset = std::max<int64_t>(1, model->opsetVersion(""));
  std::set<std::string> missing;
  missingOps(model->graph(), opset, missing);
  if (!missing.empty()) {
    std::string list;
    for (const auto& op : missing) list += (list.empty() ? "" : ", ") + op;
    std::printf("%-26s not timed: the evaluator has no kernel for %s (opset %lld)\n", name.c_str(), list.c_str(),
                static_cast<long long>(opset));
    return;
  }
  const fs::path dir = fs::path(tmp) / name;
  fs::create_directories(dir / "inputs");
  const eval::SeededInputs inputs = eval::makeInputs(*model, {}, {}, 1);
  std::string inputArgs;
  size_t k = 0;
  for (const std::string& in : eval::requiredInputs(*model)) {
    const std::string file = (dir / "inputs" / (std::to_string(k++) + ".npy")).string();
    eval::writeNpyFile(file, inputs.values.at(in).tensor());
    inputArgs += " " + quote(file);
  }
  model.reset();
  const std::string fbOut = (dir / "fb").string(), ortOut = (dir / "ort").string();
  fs::remove_all(fbOut);
  fs::remove_all(ortOut);
  const std::string common = " " + quote(path) + " " + std::to_string(threads) + " " + std::to_string(runs) + " ";
  // Rounds alternate the two runtimes, so that a change of the machine's load falls on both; times of all rounds
  // are pooled, memory is the largest of the rounds'.
  nlohmann::json fb, ort;
  for (int round = 0; round < rounds; ++round) {
    const nlohmann::json f = childResult(runCommand(quote(self) + " --child" + common + quote(fbOut) + inputArgs));
    if (f.contains("error")) {
      std::printf("%-26s evaluator failed: %s\n", name.c_str(), f["error"].get<std::string>().c_str());
      return;
    }
    const nlohmann::json o = childResult(
        runCommand("node " + quote(FB_BENCH_ORT_SCRIPT) + " " + quote(oracle) + common + quote(ortOut) + inputArgs));
    if (o.contains("error")) {
      std::printf("%-26s ONNX Runtime failed: %s\n", name.c_str(), o["error"].get<std::string>().c_str());
      return;
    }
    pool(fb, f);
    pool(ort, o);
  }
  double worst = 0;
  bool ok = true;
  for (size_t i = 0; fs::exists(ortOut + "/" + std::to_string(i) + ".npy"); ++i) {
    const std::string file = "/" + std::to_string(i) + ".npy";
    if (!fs::exists(fbOut + file)) {
      ok = false;
      break;
    }
    auto [d, fine] = difference(eval::readNpyFile(fbOut + file), eval::readNpyFile(ortOut + file));
    worst = std::max(worst, d);
    ok = ok && fine;
  }
  const double fbMs = median(fb["ms"].get<std::vector<double>>()), oMs = median(ort["ms"].get<std::vector<double>>());
  const double fbCpu = median(fb["cpu_ms"].get<std::vector<double>>());
  const double oCpu = median(ort["cpu_ms"].get<std::vector<double>>());
  const double fbPeak = fb["peak"].get<double>(), oPeak = ort["peak"].get<double>();
  std::printf("%-26s %8.1f %8.1f %5.2fx  %8.1f %8.1f %5.2fx  %8s %8s %5.2fx  %8s  %s (max |diff| %.2g)\n", name.c_str(),
              fbMs, oMs, fbMs / oMs, fbCpu, oCpu, fbCpu / oCpu, mb(fbPeak).c_str(), mb(oPeak).c_str(),
              oPeak > 0 ? fbPeak / oPeak : 0.0, mb(fb["tensor_peak"].get<double>()).c_str(), ok ? "match" : "DIFFER",
              worst);
  if (fb["copied"].get<double>() > 0)
    std::printf("%-26s (%s MB of its weights are not aligned in the file: the evaluator copies them once)\n", "",
                mb(fb["copied"].get<double>()).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  eval::reexecWithPassiveWaits(argv);  // as flowbridge-cli run does
  if (argc >= 6 && std::string(argv[1]) == "--child")
    return runChild(argv[2], std::max(1, std::atoi(argv[3])), std::max(1, std::atoi(argv[4])), argv[5],
                    std::vector<std::string>(argv + 6, argv + argc));
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int runs = 10;
  int rounds = 1;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc)
      threads = std::max(1, std::atoi(argv[++i]));
    else if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else
      positional.push_back(a);
  }
  if (positional.size() < 3) {
    std::fprintf(stderr, "usage: bench_eval [--threads N] [--runs R] [--rounds K] TMP_DIR ORACLE_DIR MODEL.onnx...\n");
    return 2;
  }
  const std::string tmp = fs::absolute(positional[0]).string(), oracle = fs::absolute(positional[1]).string();
  if (!fs::exists(oracle + "/node_modules/onnxruntime-node/package.json")) {
    std::fprintf(stderr, "bench_eval: onnxruntime-node missing (bash tests/oracle/install.sh)\n");
    return 2;
  }
  const std::string self = fs::canonical("/proc/self/exe").string();
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  std::printf("load average %s; %u hardware threads; OMP_WAIT_POLICY %s\n", load.substr(0, 14).c_str(),
              std::thread::hardware_concurrency(), policy ? policy : "unset (libgomp spins, then sleeps)");
  std::printf(
      "evaluator (FB) vs ONNX Runtime (ORT): %d threads, median of %d runs after a warm-up (%d alternating "
      "rounds); MB: resident peak of loading and running, each in its own process; tensors: the evaluator's peak "
      "of live tensors\n",
      threads, runs * rounds, rounds);
  std::printf("%-26s %8s %8s %6s  %8s %8s %6s  %8s %8s %6s  %8s  outputs\n", "model", "FB ms", "ORT ms", "ratio",
              "FB cpu", "ORT cpu", "ratio", "FB MB", "ORT MB", "ratio", "tensors");
  for (size_t i = 2; i < positional.size(); ++i) {
    if (!fs::exists(positional[i])) {
      std::printf("%-26s missing (%s)\n", fs::path(positional[i]).stem().c_str(), positional[i].c_str());
      continue;
    }
    try {
      benchModel(self, positional[i], tmp, oracle, threads, runs, rounds);
    } catch (const std::exception& e) {
      std::printf("%-26s failed: %s\n", fs::path(positional[i]).stem().c_str(), e.what());
    }
  }
  return 0;
}
