// Growth on node-heavy graphs: synthetic residual networks (Conv -> BatchNormalization -> Relu -> Conv ->
// BatchNormalization -> Add -> Relu, seven nodes a block, names in scopes as PyTorch exports them) of about 1k,
// 3k, 10k, 30k and 100k nodes, written into the build folder. For each size: opening the model and the whole
// default conversion in-process (each in a fresh child, peak RSS from wait4), `flowbridge-cli inspect`, `check`
// and `convert --passes default` as processes, and python's onnx.load in-process and as a process, in the same
// run. Between sizes it prints the growth exponent log(t2/t1)/log(n2/n1).
// Targets (issue #14): convert of 100k nodes within 4x onnx.load in-process; exponent 30k -> 100k <= 1.15;
// peak memory of convert on 100k <= 400 MB; opening 100k nodes <= 0.7x onnx.load; `inspect` as a process faster
// than `python3 -c "import onnx; onnx.load(f)"`.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "check/onnx_check.h"
#include "child_process.h"
#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "residual_model.h"

#include <onnx/defs/schema.h>

namespace fs = std::filesystem;
using namespace fb;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// bench::buildResidualModel written to `dir` (once per size).
std::string makeResidualModel(const fs::path& dir, size_t targetNodes) {
  std::string path = (dir / ("residual_" + std::to_string(targetNodes) + ".onnx")).string();
  if (fs::exists(path)) return path;
  ir::Model m;
  bench::buildResidualModel(m, targetNodes);
  fs::create_directories(dir);
  onnxfmt::writeOnnxFile(m, path);
  return path;
}

// makeResidualModel in a child: a forked child's peak RSS starts from its parent's, so a parent that had built a
// 100k-node graph itself would lend every later measurement its size.
std::string residualModel(const fs::path& dir, size_t targetNodes) {
  const std::string path = (dir / ("residual_" + std::to_string(targetNodes) + ".onnx")).string();
  if (fs::exists(path)) return path;
  const pid_t pid = ::fork();
  if (pid == 0) {
    try {
      makeResidualModel(dir, targetNodes);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_scale: %s\n", e.what());
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      !fs::exists(path))
    throw std::runtime_error("cannot make " + path);
  return path;
}

struct Run {
  bool ok = false;
  double wallMs = 0;
  long peakKb = 0;
  std::vector<double> reported;  // numbers the child printed on stdout
};

// Runs argv in a child; peak RSS (ru_maxrss of wait4) belongs to that child alone.
Run runChild(const std::vector<std::string>& argv, bool quiet) {
  const bench::ChildResult c = bench::runChildProcess(argv, quiet);
  Run r;
  r.ok = c.ok;
  r.wallMs = c.wallMs;
  r.peakKb = c.peakKb;
  if (!quiet) {
    std::istringstream in(c.out);
    double x;
    while (in >> x) r.reported.push_back(x);
  }
  return r;
}

// Folds run `r` into `b`: the faster of the two (reported[0] when the child reports its own time, wall time
// otherwise), with the larger peak. False when `r` failed.
bool keepBest(Run& b, const Run& r, bool selfTimed) {
  if (!r.ok) {
    b = r;
    return false;
  }
  double t = selfTimed && !r.reported.empty() ? r.reported[0] : r.wallMs;
  double bt = selfTimed && !b.reported.empty() ? b.reported[0] : b.wallMs;
  long peak = std::max(b.peakKb, r.peakKb);
  if (!b.ok || t < bt) b = r;
  b.peakKb = peak;
  return true;
}

// Best time of `reps` runs, largest peak.
Run best(const std::vector<std::string>& argv, int reps, bool selfTimed) {
  Run b;
  for (int i = 0; i < reps; ++i)
    if (!keepBest(b, runChild(argv, !selfTimed), selfTimed)) break;
  return b;
}

// Reads the file once, so that every measurement finds it in the page cache.
void warmFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> b(1 << 20);
  while (in.read(b.data(), static_cast<std::streamsize>(b.size()))) {
  }
}

double timeOf(const Run& r, bool selfTimed) { return selfTimed && !r.reported.empty() ? r.reported[0] : r.wallMs; }

int childRead(const std::string& path) {
  auto t0 = Clock::now();
  auto m = loadModel(path);
  std::printf("%.3f %zu\n", msSince(t0), m->graph().nodeCount());
  return 0;
}

int childConvert(const std::string& path) {
  auto m = loadModel(path);
  convert::ConvertOptions o;
  o.targetOpset = 17;
  o.reloadSource = [path] { return loadModel(path); };
  auto t0 = Clock::now();
  auto r = convert::convertModel(std::move(m), o);  // in place, as flowbridge-cli convert does
  double total = msSince(t0);
  if (!r.model) return 2;
  std::printf("%.3f %.3f %.3f %zu %zu %d\n", total, r.passesMs, r.checkMs, r.model->graph().nodeCount(),
              r.passStats.iterations, r.check.ok ? 1 : 0);
  return 0;
}

// The fixed cost of a conversion, in a fresh process: libonnx 1.12 builds every opset's schemas on the first
// lookup (a one-off per process, which python's onnx pays as well, on its first get_schema), then the first
// conversion of the model, then the median of 20 more. Prints: registration, first, median ms.
int childFixed(const std::string& path) {
  auto t0 = Clock::now();
  const bool found = onnx::OpSchemaRegistry::Schema("Conv", 13, "") != nullptr;
  const double registration = msSince(t0);
  auto once = [&] {
    auto m = loadModel(path);
    convert::ConvertOptions o;
    o.targetOpset = 17;
    auto t = Clock::now();
    auto r = convert::convertModel(std::move(m), o);
    if (!r.model || !r.check.ok) throw std::runtime_error("conversion failed");
    return msSince(t);
  };
  const double first = once();
  std::vector<double> more;
  for (int i = 0; i < 20; ++i) more.push_back(once());
  std::sort(more.begin(), more.end());
  std::printf("%.3f %.3f %.3f %d\n", registration, first, more[more.size() / 2], found ? 1 : 0);
  return 0;
}

void printFixedCost(const std::string& self, const std::string& cli, const fs::path& dir, bool havePython) {
  std::printf(
      "\nFixed cost of a conversion (corpus models of 8 nodes, to opset 17; onnxoptimizer 0.2.7's time in-process "
      "from the corpus MANIFEST: 1 and 5 ms)\n");
  std::printf("%-28s %16s %16s %16s %14s\n", "model", "libonnx setup", "1st conversion", "later (median)",
              "cli process");
  for (const char* name : {"super_resolution_op11.onnx", "control_flow_op13.onnx"}) {
    const std::string path = std::string(FB_CORPUS_DIR) + "/models/" + name;
    if (!fs::exists(path)) continue;
    Run r = runChild({self, "--fixed", path}, false);
    Run c = best({cli, "convert", path, "-o", (dir / "fixed_out.onnx").string(), "--opset", "17"}, 5, false);
    if (!r.ok || r.reported.size() < 3) {
      std::printf("%-28s failed\n", name);
      continue;
    }
    std::printf("%-28s %13.2f ms %13.3f ms %13.3f ms %11.1f ms\n", name, r.reported[0], r.reported[1], r.reported[2],
                c.ok ? c.wallMs : NAN);
  }
  if (havePython) {
    const char* code =
        "import time\nt=time.perf_counter()\nimport onnx\nt1=time.perf_counter()\n"
        "onnx.defs.get_schema('Conv')\nt2=time.perf_counter()\nprint((t1-t)*1e3, (t2-t1)*1e3)";
    Run p = runChild({"/usr/bin/python3", "-c", code}, false);
    if (p.ok && p.reported.size() >= 2)
      std::printf("python: import onnx %.1f ms, then its first schema lookup (the same libonnx setup) %.2f ms\n",
                  p.reported[0], p.reported[1]);
  }
}

// libonnx's share: whole-graph shape inference (as the pass manager runs it) and the checker + strict inference.
int childLibonnx(const std::string& path) {
  auto m = loadModel(path);
  auto t0 = Clock::now();
  auto types = inferShapes(*m);
  double infer = msSince(t0);
  auto t1 = Clock::now();
  auto c = checkModel(*m);
  std::printf("%.3f %.3f %zu %d\n", infer, msSince(t1), types.size(), c.ok ? 1 : 0);
  return 0;
}

// The app's part (issue #14 point 4): bench_ui_open (next to this executable) opens each graph in a fresh child
// as the inspector does, offscreen, and reports open to first painted frame, peak RSS at that frame, expanding a
// collapsed block and panning. "process MB" is the child's peak including the work that follows the first frame
// (shape inference for display, the conversion dry run). Sizes: those of the table above, and 300k nodes unless
// FB_BENCH_SCALE_SIZES chose them. Targets at 100k nodes: first frame <= 3 s and <= 600 MB, expand <= 100 ms,
// panning >= 60 frames/s; 300k opens.
void printAppTable(const fs::path& dir, std::vector<size_t> sizes) {
  const fs::path ui = fs::canonical("/proc/self/exe").parent_path() / "bench_ui_open";
  if (!fs::exists(ui)) {
    std::printf("app: %s not built, skipped\n", ui.string().c_str());
    return;
  }
  if (std::find(sizes.begin(), sizes.end(), size_t(300000)) == sizes.end() && !std::getenv("FB_BENCH_SCALE_SIZES"))
    sizes.push_back(300000);
  setenv("QT_QPA_PLATFORM", "offscreen", 1);
  struct Row {
    size_t nodes = 0;
    double openMs = NAN, expandMs = NAN, panFps = NAN;
    long firstFrameKb = 0, peakKb = 0;
    int items = 0;
    bool ok = false;
  };
  std::vector<Row> rows;
  for (size_t target : sizes) {
    const std::string path = residualModel(dir, target);
    warmFile(path);
    Run r = best({ui.string(), "--first-frame", path}, target <= 10000 ? 3 : 1, true);
    Row row;
    row.ok = r.ok && r.reported.size() >= 6;
    if (row.ok) {
      row.openMs = r.reported[0];
      row.firstFrameKb = static_cast<long>(r.reported[1]);
      row.expandMs = r.reported[2];
      row.panFps = r.reported[3];
      row.items = static_cast<int>(r.reported[4]);
      row.nodes = static_cast<size_t>(r.reported[5]);
    }
    row.peakKb = r.peakKb;
    rows.push_back(row);
    std::fprintf(stderr, "bench_scale: app %zu nodes done\n", target);
  }
  std::printf(
      "\nThe app (bench_ui_open --first-frame, offscreen, a fresh process each): open to first painted frame\n");
  std::printf("%8s %10s %12s %10s %10s %10s %11s %9s\n", "nodes", "frame ms", "frame MB", "exponent", "expand ms",
              "pan fps", "process MB", "items");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (!r.ok) {
      std::printf("%8zu FAILED (process peak %ld MB)\n", sizes[i], r.peakKb / 1024);
      continue;
    }
    double exponent = NAN;
    if (i > 0 && rows[i - 1].ok)
      exponent = std::log(r.openMs / rows[i - 1].openMs) / std::log(double(r.nodes) / double(rows[i - 1].nodes));
    char expand[32] = "-";  // nothing collapsed on screen (small graphs open expanded)
    if (r.expandMs >= 0) std::snprintf(expand, sizeof expand, "%.1f", r.expandMs);
    std::printf("%8zu %10.0f %12ld %10.2f %10s %10.1f %11ld %9d\n", r.nodes, r.openMs, r.firstFrameKb / 1024, exponent,
                expand, r.panFps, r.peakKb / 1024, r.items);
  }
  for (const Row& r : rows)
    if (r.ok && r.nodes >= 90000 && r.nodes <= 110000)
      std::printf(
          "app at %zu nodes: first frame %.0f ms (target <= 3000), %ld MB (target <= 600), expand %.0f ms "
          "(target <= 100), panning %.0f frames/s (target >= 60)\n",
          r.nodes, r.openMs, r.firstFrameKb / 1024, r.expandMs, r.panFps);
}

struct Column {
  std::string name;
  std::vector<double> ms;
  std::vector<long> peakKb;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--read") return childRead(argv[2]);
  if (argc == 3 && std::string(argv[1]) == "--convert") return childConvert(argv[2]);
  if (argc == 3 && std::string(argv[1]) == "--libonnx") return childLibonnx(argv[2]);
  if (argc == 3 && std::string(argv[1]) == "--fixed") return childFixed(argv[2]);
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_scale SCRATCH_DIR FLOWBRIDGE_CLI [SIZES, e.g. 1000,3000,10000]\n");
    return 1;
  }
  const fs::path dir = argv[1];
  const std::string cli = argv[2];
  std::vector<size_t> sizes = {1000, 3000, 10000, 30000, 100000};
  if (argc > 3 || std::getenv("FB_BENCH_SCALE_SIZES")) {
    std::string list = argc > 3 ? argv[3] : std::getenv("FB_BENCH_SCALE_SIZES");
    sizes.clear();
    std::istringstream in(list);
    std::string s;
    while (std::getline(in, s, ',')) sizes.push_back(std::stoul(s));
  }
  if (cli == "--app-only") {  // bench_scale SCRATCH_DIR --app-only [SIZES]: the app's table alone
    printAppTable(dir, sizes);
    return 0;
  }
  const std::string self = fs::canonical("/proc/self/exe").string();
  const std::string py = "/usr/bin/python3";
  const std::string pyTimed =
      "import onnx,sys,time\nt=time.perf_counter()\nm=onnx.load(sys.argv[1])\nprint((time.perf_counter()-t)*1e3)";
  const bool havePython = std::system("/usr/bin/python3 -c 'import onnx' 2>/dev/null") == 0;

  std::vector<size_t> nodes;
  std::vector<double> fileMb;
  std::map<std::string, Column> cols;
  const std::vector<std::string> order = {"open",        "onnx.load",    "convert",   "passes",     "check",
                                          "cli inspect", "py onnx.load", "cli check", "cli convert"};
  std::vector<std::string> convertNotes;
  // The conversion, which the growth exponent is read from: every size once per repetition, in turn, so that a
  // slower minute of a shared machine weighs on all sizes alike (measured size after size, the best of three at
  // 30k nodes varied by 30 % between runs); the best of five for each.
  std::vector<Run> conversions(sizes.size());
  for (size_t target : sizes) warmFile(residualModel(dir, target));
  for (int rep = 0; rep < 5; ++rep)
    for (size_t i = 0; i < sizes.size(); ++i)
      if (conversions[i].ok || rep == 0)
        keepBest(conversions[i], runChild({self, "--convert", residualModel(dir, sizes[i])}, false), true);
  for (size_t index = 0; index < sizes.size(); ++index) {
    const size_t target = sizes[index];
    std::string path = residualModel(dir, target);
    const int reps = 3;  // best of three at every size: a different count per size would bias the exponent
    warmFile(path);
    Run open = best({self, "--read", path}, reps, true);
    if (!open.ok || open.reported.size() < 2) {
      std::fprintf(stderr, "bench_scale: reading %s failed\n", path.c_str());
      return 1;
    }
    nodes.push_back(static_cast<size_t>(open.reported[1]));
    fileMb.push_back(static_cast<double>(fs::file_size(path)) / 1e6);
    auto put = [&](const std::string& c, double ms, long kb) {
      cols[c].ms.push_back(ms);
      cols[c].peakKb.push_back(kb);
    };
    put("open", timeOf(open, true), open.peakKb);
    const Run& conv = conversions[index];
    if (conv.ok && conv.reported.size() >= 6) {
      put("convert", conv.reported[0], conv.peakKb);
      put("passes", conv.reported[1], 0);
      put("check", conv.reported[2], 0);
      convertNotes.push_back(std::to_string(nodes.back()) + " -> " +
                             std::to_string(static_cast<size_t>(conv.reported[3])) + " nodes in " +
                             std::to_string(static_cast<size_t>(conv.reported[4])) + " rounds" +
                             (conv.reported[5] > 0 ? "" : ", CHECK FAILED"));
    } else {
      put("convert", NAN, 0);
      put("passes", NAN, 0);
      put("check", NAN, 0);
      convertNotes.push_back(std::to_string(nodes.back()) + ": convert FAILED");
    }
    Run inspect = best({cli, "inspect", path}, reps, false);
    put("cli inspect", inspect.ok ? inspect.wallMs : NAN, inspect.peakKb);
    Run check = best({cli, "check", path, "--opset", "17"}, reps, false);
    put("cli check", check.ok ? check.wallMs : NAN, check.peakKb);
    const std::string out = (dir / ("converted_" + std::to_string(target) + ".onnx")).string();
    Run cconv = best({cli, "convert", path, "-o", out, "--passes", "default"}, reps, false);
    put("cli convert", cconv.ok ? cconv.wallMs : NAN, cconv.peakKb);
    fs::remove(out);
    if (havePython) {
      Run pin = best({py, "-c", pyTimed, path}, reps, true);
      put("onnx.load", pin.ok ? timeOf(pin, true) : NAN, pin.peakKb);
      Run pproc = best({py, "-c", "import onnx,sys; onnx.load(sys.argv[1])", path}, reps, false);
      put("py onnx.load", pproc.ok ? pproc.wallMs : NAN, pproc.peakKb);
    } else {
      put("onnx.load", NAN, 0);
      put("py onnx.load", NAN, 0);
    }
    std::fprintf(stderr, "bench_scale: %zu nodes done\n", nodes.back());
  }

  std::printf("Synthetic residual graphs (Conv/BatchNormalization/Relu/Add, %lld channels), warm cache; ms (peak MB)\n",
              static_cast<long long>(bench::kChannels));
  std::printf("%-14s", "nodes");
  for (size_t i = 0; i < nodes.size(); ++i) std::printf(" %17zu", nodes[i]);
  std::printf("   exponent between sizes\n%-14s", "file MB");
  for (double mb : fileMb) std::printf(" %17.1f", mb);
  std::printf("\n");
  for (const auto& c : order) {
    const Column& col = cols[c];
    std::printf("%-14s", c.c_str());
    for (size_t i = 0; i < col.ms.size(); ++i) {
      char cell[64];
      if (col.peakKb[i] > 0)
        std::snprintf(cell, sizeof cell, "%.1f (%ld)", col.ms[i], col.peakKb[i] / 1024);
      else
        std::snprintf(cell, sizeof cell, "%.1f", col.ms[i]);
      std::printf(" %17s", cell);
    }
    std::printf("  ");
    for (size_t i = 1; i < col.ms.size(); ++i)
      std::printf(" %.2f", std::log(col.ms[i] / col.ms[i - 1]) / std::log(double(nodes[i]) / double(nodes[i - 1])));
    std::printf("\n");
  }
  for (const auto& n : convertNotes) std::printf("convert: %s\n", n.c_str());
  // Targets on the largest size.
  const size_t L = nodes.size() - 1;
  auto at = [&](const std::string& c) { return cols[c].ms[L]; };
  std::printf(
      "largest (%zu nodes): convert / onnx.load %.2fx (target <= 4); open / onnx.load %.2fx (target <= 0.7);"
      " cli inspect / python onnx.load process %.2fx (target < 1); convert peak %ld MB (target <= 400)",
      nodes[L], at("convert") / at("onnx.load"), at("open") / at("onnx.load"), at("cli inspect") / at("py onnx.load"),
      cols["convert"].peakKb[L] / 1024);
  if (L > 0)
    std::printf("; convert exponent %zu -> %zu: %.2f (target <= 1.15)", nodes[L - 1], nodes[L],
                std::log(cols["convert"].ms[L] / cols["convert"].ms[L - 1]) /
                    std::log(double(nodes[L]) / double(nodes[L - 1])));
  std::printf("\n");
  printFixedCost(self, cli, dir, havePython);
  printAppTable(dir, sizes);
  return 0;
}
