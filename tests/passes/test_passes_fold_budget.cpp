// Constant folding against hostile models (security issue, point 5): a broadcast whose result is the size of the
// product of two small constants, and hundreds of folds of a few megabytes each from a model of kilobytes. The CLI
// converts them in a child process whose peak memory and CPU time are measured (wait4); the conversion must
// succeed, leave the nodes that do not fit as they are, and say so in the report. In process: the budget of the
// whole model is one for every round and every If body of a run.
#include <QtTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/onnx/onnx_writer.h"
#include "passes/fold_budget.h"
#include "passes/pass_registry.h"
#include "support/helpers.h"
#include "passes/pass_graph.h"

using namespace fb;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// ASan keeps freed memory in quarantine (256 MB) and adds shadow memory: peak figures there run higher.
constexpr long kMemoryAllowanceFactor = kAddressSanitizer ? 2 : 1;

struct Measured {
  int exitCode = -1;  // -signal when killed
  long peakRssMb = 0;
  double cpuSeconds = 0;
  std::string out;
};

// Runs flowbridge-cli with `args` and measures its peak resident memory and CPU time. Outside sanitizer builds
// (which reserve terabytes of address space) the child may not map more than 3 GB: code that allocates what the
// file describes fails there instead of taking the machine's memory.
Measured runMeasured(const std::vector<std::string>& args, const std::string& stdoutPath) {
  std::vector<std::string> argv{FB_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) ::dup2(fd, 1);
    if (!kAddressSanitizer) {
      rlimit as{rlim_t{3} << 30, rlim_t{3} << 30};
      ::setrlimit(RLIMIT_AS, &as);
    }
    rlimit cpu{60, 60};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  Measured m;
  int status = 0;
  rusage ru{};
  if (pid < 0 || ::wait4(pid, &status, 0, &ru) != pid) return m;
  m.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  m.peakRssMb = ru.ru_maxrss / 1024;
  m.cpuSeconds =
      double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::ifstream f(stdoutPath);
  m.out.assign(std::istreambuf_iterator<char>(f), {});
  return m;
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f, nullptr, false);
}

// Every warning constant folding gave in a conversion report.
std::vector<std::string> foldingWarnings(const nlohmann::json& report) {
  std::vector<std::string> out;
  if (!report.contains("passes")) return out;
  for (const auto& p : report["passes"]["per_pass"])
    if (p["name"] == "constant_folding" && p.contains("warnings"))
      for (const auto& w : p["warnings"]) out.push_back(w.get<std::string>());
  return out;
}

size_t countOpsAfter(const nlohmann::json& report, const std::string& op) {
  return report.contains("ops_after") && report["ops_after"].contains(op) ? report["ops_after"][op].get<size_t>() : 0;
}

ir::Tensor floatScalar(float v) {
  return ir::Tensor::fromValues<float>("v", ir::DataType::Float, {1}, std::vector<float>{v});
}

}  // namespace

class FoldBudget : public QObject {
  Q_OBJECT
  std::string dir_;

  // Add of a [n, 1] and a [1, n] float constant, read by a ReduceSum (the main graph's outputs are never folded).
  // Folding the Add means n * n elements from 8n bytes of file.
  std::string writeBroadcastAdd(int64_t n) {
    test::GraphBuilder b(13);
    std::vector<float> column(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) column[static_cast<size_t>(k)] = static_cast<float>(k % 7);
    b.init("a", {n, 1}, column);
    b.init("b", {1, n}, column);
    b.node("Add", {b.v("a"), b.v("b")}, {"sum"});
    b.node("ReduceSum", {b.v("sum")}, {"y"}, {ir::Attribute::makeInt("keepdims", 0)});
    b.output("y", {});
    const std::string path = dir_ + "/broadcast_add_" + std::to_string(n) + ".onnx";
    onnxfmt::writeOnnxFile(*b.model, path);
    return path;
  }

  // `count` ConstantOfShape nodes, each [1024, 1024] floats (4 MiB) from one 16-byte shape, each added to the input
  // for an output of its own: every result stays alive, and without a budget for the whole model the file of a
  // few tens of kilobytes becomes count * 4 MiB.
  static std::unique_ptr<ir::Model> manyLargeFolds(int count) {
    test::GraphBuilder b(13);
    auto* x = b.input("x", {1024, 1024});
    auto* shape = b.ints("shape", {1024, 1024});
    for (int k = 0; k < count; ++k) {
      const std::string id = std::to_string(k);
      // Unnamed, as exporters often leave them: the report must still tell each apart.
      b.node("ConstantOfShape", {shape}, {"c" + id}, {ir::Attribute::makeTensor("value", floatScalar(float(k)))})
          ->name.clear();
      b.node("Add", {x, b.v("c" + id)}, {"y" + id});
      b.output("y" + id, {1024, 1024});
    }
    return std::move(b.model);
  }

  // The CLI converts `model`; the conversion must succeed and leave the node `node` (op `op`) unfolded with a
  // budget reason in the report; peak memory and CPU time stay small.
  void expectRefusedCheaply(const std::string& model, const std::string& tag, const std::string& op, long maxPeakMb) {
    const std::string out = dir_ + "/" + tag + "_out.onnx", report = dir_ + "/" + tag + "_report.json";
    const Measured m = runMeasured({"convert", model, "-o", out, "--report", report}, dir_ + "/" + tag + "_stdout.txt");
    qInfo("%s: exit %d, peak RSS %ld MB, CPU %.2f s", tag.c_str(), m.exitCode, m.peakRssMb, m.cpuSeconds);
    QCOMPARE(m.exitCode, 0);
    QVERIFY2(m.peakRssMb < maxPeakMb * kMemoryAllowanceFactor, std::to_string(m.peakRssMb).c_str());
    QVERIFY2(m.cpuSeconds < 10, std::to_string(m.cpuSeconds).c_str());
    const auto j = readJson(report);
    QVERIFY(!j.is_discarded());
    QCOMPARE(countOpsAfter(j, op), size_t(1));
    const auto warnings = foldingWarnings(j);
    QCOMPARE(warnings.size(), size_t(1));
    QVERIFY2(warnings[0].rfind("left unfolded: " + op + "_sum (" + op + "): ", 0) == 0, warnings[0].c_str());
    QVERIFY2(warnings[0].find("budget") != std::string::npos, warnings[0].c_str());
    // The summary on stdout names it too.
    QVERIFY2(m.out.find("left unfolded: " + op + "_sum") != std::string::npos, m.out.c_str());
  }

 private slots:
  void initTestCase() { dir_ = test::scratchDir("fold_budget").toStdString(); }

  void broadcastOf16000IsRefusedBeforeAllocating() {
    // 16000 x 16000 floats: 1 GB as a tensor, 2 GB as the evaluator's doubles, and 4 GB of index vectors before.
    expectRefusedCheaply(writeBroadcastAdd(16000), "add16000", "Add", 400);
  }

  void broadcastOf30000IsRefusedBeforeAllocating() {
    // 30000 x 30000: std::bad_alloc was what the user read.
    expectRefusedCheaply(writeBroadcastAdd(30000), "add30000", "Add", 400);
  }

  void manyLargeFoldsStayWithinTheModelsBudget() {
    constexpr int kFolds = 600;
    auto model = manyLargeFolds(kFolds);
    const std::string in = dir_ + "/many_folds.onnx", out = dir_ + "/many_folds_out.onnx",
                      report = dir_ + "/many_folds_report.json";
    onnxfmt::writeOnnxFile(*model, in);
    const auto sourceBytes = std::filesystem::file_size(in);
    QVERIFY2(sourceBytes < 100 * 1024, std::to_string(sourceBytes).c_str());
    const Measured m = runMeasured({"convert", in, "-o", out, "--report", report}, dir_ + "/many_folds_stdout.txt");
    qInfo("600 folds: exit %d, peak RSS %ld MB, CPU %.2f s", m.exitCode, m.peakRssMb, m.cpuSeconds);
    QCOMPARE(m.exitCode, 0);
    // The default budget: the folds may add 64 MiB (plus the model's own 16 bytes of tensors) to the model.
    const passes::FoldLimits limits;
    const auto outBytes = std::filesystem::file_size(out);
    QVERIFY2(outBytes < limits.addedBytes + sourceBytes, std::to_string(outBytes).c_str());
    QVERIFY2(m.peakRssMb < 600 * kMemoryAllowanceFactor, std::to_string(m.peakRssMb).c_str());  // 2.5 GB before
    QVERIFY2(m.cpuSeconds < 20, std::to_string(m.cpuSeconds).c_str());
    const auto j = readJson(report);
    QVERIFY(!j.is_discarded());
    const size_t left = countOpsAfter(j, "ConstantOfShape");
    const size_t folded = kFolds - left;
    QCOMPARE(folded, size_t(limits.addedBytes / (4 << 20)));  // as many 4 MiB results as the budget holds
    // Every node left unfolded is named in the report, with the model's budget as the reason.
    const auto warnings = foldingWarnings(j);
    QCOMPARE(warnings.size(), left);  // one line each: none merged with another's
    QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
      return w.rfind("left unfolded: the node making 'c599' (ConstantOfShape): ", 0) == 0;
    }));
    for (const auto& w : warnings) {
      QVERIFY2(w.rfind("left unfolded: the node making 'c", 0) == 0, w.c_str());
      QVERIFY2(w.find("the model's constant-folding budget") != std::string::npos, w.c_str());
    }
    // Each fold adds its result less its constant input, the 16-byte shape.
    QCOMPARE(j["passes"]["fold_budget"]["added_bytes"].get<uint64_t>(), uint64_t(folded) * ((4 << 20) - 16));
    // On stdout: the first few, and how many more the report holds.
    QVERIFY2(
        m.out.find("... and " + std::to_string(left - 10) + " more (the report lists them all)") != std::string::npos,
        m.out.c_str());
  }

  void oneBudgetForEveryRoundAndBody() {
    // Folds in the main graph and in both branches of an If draw on one budget: with room for three 4 MiB results,
    // three fold in all, whichever graphs they are in.
    test::GraphBuilder b(13);
    auto* x = b.input("x", {1024, 1024});
    auto* cond = b.input("cond", {}, ir::DataType::Bool);
    auto* shape = b.ints("shape", {1024, 1024});
    for (int k = 0; k < 2; ++k) {
      b.node("ConstantOfShape", {shape}, {"c" + std::to_string(k)},
             {ir::Attribute::makeTensor("value", floatScalar(1.f))});
      b.node("Add", {x, b.v("c" + std::to_string(k))}, {"m" + std::to_string(k)});
      b.output("m" + std::to_string(k), {1024, 1024});
    }
    ir::Node* ifNode = b.node("If", {cond}, {"y"});
    auto branch = [&](const std::string& name) {
      auto g = std::make_shared<ir::Graph>(b.g().idSource());
      g->name = name;
      g->setOwner(&b.g(), ifNode);
      ir::Value* outerShape = g->getOrCreateValue("shape");
      g->markOuterScope(outerShape);
      ir::Value* outerX = g->getOrCreateValue("x");
      g->markOuterScope(outerX);
      ir::Node* c = g->addNode("ConstantOfShape", {outerShape}, {g->getOrCreateValue(name + "_c")});
      c->name = name + "_c";
      c->attributes = {ir::Attribute::makeTensor("value", floatScalar(2.f))};
      ir::Node* add = g->addNode("Add", {outerX, c->output(0)}, {g->getOrCreateValue(name + "_out")});
      add->output(0)->type = test::GraphBuilder::type(ir::DataType::Float, {1024, 1024});
      g->addOutput(add->output(0));
      return g;
    };
    ifNode->attributes = {ir::Attribute::makeGraph("then_branch", branch("then")),
                          ir::Attribute::makeGraph("else_branch", branch("else"))};
    b.output("y", {1024, 1024});

    passes::PassManager pm(passes::PassRegistry::instance().defaultPipeline());
    passes::FoldLimits limits;
    limits.addedBytes = uint64_t{3} * (4 << 20);
    pm.setFoldLimits(limits);
    const auto r = pm.run(*b.model);
    size_t left = test::countOp(*b.model, "ConstantOfShape");
    for (const auto& n : b.model->graph().nodes())
      for (const ir::Graph* sg : n->subgraphs())
        for (const auto& bn : sg->nodes()) left += bn->opType == "ConstantOfShape";
    QCOMPARE(left, size_t(1));
    QVERIFY(r.foldAddedBytes <= r.foldAddedLimit);
    QCOMPARE(r.foldAddedBytes, uint64_t{3} * ((4 << 20) - 16));  // each result less its 16-byte shape
    QVERIFY(r.reachedFixpoint);
  }
};

QTEST_GUILESS_MAIN(FoldBudget)
#include "test_passes_fold_budget.moc"
