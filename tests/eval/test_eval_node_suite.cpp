// ONNX's own node tests (Debian's libonnx-testdata, data/node/*) run on FlowBridge's evaluator: each model with its
// test_data_set_0 inputs, every output compared with the test's expected output at the backend tests' tolerance
// (|got - expected| <= 1e-7 + 1e-3 * |expected|, NaN where NaN is expected, strings and integers exactly).
// Every test's outcome must equal its line in tests/eval_node_suite_expected.tsv:
//   ok                  every output matches
//   unsupported REASON  the evaluator refuses the model (RunError Unsupported: an op, attribute or type it lacks)
//   mismatch DETAIL     it runs, but an output differs (or the run fails for another reason)
// Any difference fails: an improvement updates the file, a regression cannot hide. To regenerate it:
//   FB_EVAL_SUITE_UPDATE=1 build/tests/test_eval_node_suite        (then review `git diff tests/`)
// FB_EVAL_SUITE_FILTER=substring runs the tests whose name contains it (and compares only those).
// `cmake --build build --target eval_sweep` prints the table of every test that is not ok.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "eval/io/proto_value_file.h"
#include "eval/runtime/run.h"
#include "formats/model_io.h"
#include "ir/graph.h"
#include "support/helpers.h"

using namespace fb;
namespace fs = std::filesystem;

namespace {

const char* kExpectationsFile = FB_SOURCE_DIR "/tests/eval_node_suite_expected.tsv";

struct Outcome {
  std::string kind;  // ok / unsupported / mismatch
  std::string detail;
  bool operator==(const Outcome&) const = default;
};

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  if (s.size() > 200) s = s.substr(0, 200) + "...";
  return s;
}

// Empty when `got` matches `want`; else what differs.
std::string compareTensors(const eval::Tensor& got, const eval::Tensor& want) {
  if (got.dtype() != want.dtype())
    return "type " + std::string(ir::dataTypeName(got.dtype())) + " where " +
           std::string(ir::dataTypeName(want.dtype())) + " is expected";
  if (got.dims() != want.dims())
    return "shape " + eval::describe(got) + " where " + eval::describe(want) + " is expected";
  if (got.isString()) return got.stringValues() == want.stringValues() ? "" : "string values differ";
  const bool floating = ir::isFloatingPoint(got.dtype());
  for (int64_t k = 0; k < got.size(); ++k) {
    const double g = got.doubleAt(k), w = want.doubleAt(k);
    if (floating) {
      if (std::isnan(w) && std::isnan(g)) continue;
      if (std::isinf(w) && g == w) continue;
      if (std::fabs(g - w) <= 1e-7 + 1e-3 * std::fabs(w)) continue;
    } else if (got.int64At(k) == want.int64At(k)) {
      continue;
    }
    std::ostringstream os;
    os << "element " << k << " is " << g << " where " << w << " is expected";
    return os.str();
  }
  return "";
}

std::string compareValues(const eval::Value& got, const eval::Value& want) {
  if (got.kind() != want.kind()) return eval::describe(got) + " where " + eval::describe(want) + " is expected";
  if (got.isNone()) return "";
  if (got.isTensor()) return compareTensors(got.tensor(), want.tensor());
  if (got.items().size() != want.items().size()) return "sequence length differs";
  for (size_t k = 0; k < got.items().size(); ++k) {
    std::string d = compareTensors(got.items()[k], want.items()[k]);
    if (!d.empty()) return "item " + std::to_string(k) + ": " + d;
  }
  return "";
}

// Random ops draw from the evaluator's own generator, never the values another runtime drew: their tests can only
// agree on shapes and types, so a value difference there is reported as that and not as a wrong result.
bool drawsRandomValues(const ir::Graph& g) {
  for (const auto& n : g.nodes())
    for (const char* op :
         {"Bernoulli", "RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial"})
      if (n->opType == op) return true;
  return false;
}

Outcome runTest(const fs::path& dir) {
  try {
    auto model = loadModel((dir / "model.onnx").string());
    const ir::Graph& g = model->graph();
    const fs::path data = dir / "test_data_set_0";
    std::map<std::string, eval::Value> inputs;
    size_t k = 0;
    for (const ir::Value* v : g.inputs()) {
      if (v->initializer()) continue;
      const fs::path p = data / ("input_" + std::to_string(k++) + ".pb");
      if (!fs::exists(p)) break;
      inputs[v->name()] = eval::readProtoValueFile(p.string(), &v->type);
    }
    eval::RunOptions o;
    o.threads = 1;
    auto result = eval::runModel(*model, inputs, o);
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const fs::path p = data / ("output_" + std::to_string(i) + ".pb");
      eval::Value want = eval::readProtoValueFile(p.string(), &g.outputs()[i]->type);
      std::string d = compareValues(result.outputs[i].second, want);
      if (!d.empty() && d.rfind("element ", 0) == 0 && drawsRandomValues(g))
        return {"mismatch", "random values: only shape and type are comparable"};
      if (!d.empty()) return {"mismatch", oneLine("output '" + g.outputs()[i]->name() + "': " + d)};
    }
    return {"ok", ""};
  } catch (const eval::RunError& e) {
    const std::string where = e.node().empty() ? "" : e.node() + ": ";
    if (e.kind() == eval::RunError::Kind::Unsupported) return {"unsupported", oneLine(where + e.what())};
    return {"mismatch", oneLine(where + e.what())};
  } catch (const std::exception& e) {
    return {"mismatch", oneLine(e.what())};
  }
}

std::map<std::string, Outcome> readExpectations() {
  std::map<std::string, Outcome> m;
  std::ifstream in(kExpectationsFile);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string name, kind, detail;
    std::getline(ls, name, '\t');
    std::getline(ls, kind, '\t');
    std::getline(ls, detail);
    m[name] = {kind, detail};
  }
  return m;
}

}  // namespace

class TestEvalNodeSuite : public QObject {
  Q_OBJECT
 private slots:
  void everyTestAsExpected() {
    const fs::path root = FB_ONNX_NODE_TESTS_DIR;
    QVERIFY2(fs::is_directory(root), "libonnx-testdata's data/node is not installed");
    const char* filter = std::getenv("FB_EVAL_SUITE_FILTER");
    std::map<std::string, Outcome> got;
    for (const auto& e : fs::directory_iterator(root)) {
      const std::string name = e.path().filename().string();
      if (filter && name.find(filter) == std::string::npos) continue;
      got[name] = runTest(e.path());
    }
    QVERIFY(got.size() > (filter ? 0u : 900u));
    size_t ok = 0;
    for (const auto& [n, o] : got) ok += o.kind == "ok";
    qInfo("evaluator on ONNX's node tests: %zu of %zu match (%.1f %%)", ok, got.size(), 100.0 * ok / got.size());
    if (std::getenv("FB_EVAL_SUITE_PRINT"))
      for (const auto& [n, o] : got)
        if (o.kind != "ok") std::printf("%s\t%s\t%s\n", n.c_str(), o.kind.c_str(), o.detail.c_str());
    if (std::getenv("FB_EVAL_SUITE_UPDATE")) {
      std::map<std::string, Outcome> all = filter ? readExpectations() : std::map<std::string, Outcome>{};
      for (const auto& [n, o] : got) all[n] = o;
      std::ofstream out(kExpectationsFile);
      out << "# test\toutcome\tdetail   (tests/eval/test_eval_node_suite.cpp; FB_EVAL_SUITE_UPDATE=1 rewrites it)\n";
      for (const auto& [n, o] : all) out << n << '\t' << o.kind << '\t' << o.detail << '\n';
      return;
    }
    const auto want = readExpectations();
    QStringList diffs;
    for (const auto& [n, o] : got) {
      auto it = want.find(n);
      const Outcome expected = it == want.end() ? Outcome{"(missing)", ""} : it->second;
      if (expected.kind != o.kind || (o.kind == "unsupported" && expected.detail != o.detail))
        diffs << QString::fromStdString(n + ": expected " + expected.kind + " " + expected.detail + ", got " + o.kind +
                                        " " + o.detail);
    }
    if (!diffs.isEmpty()) QFAIL(qPrintable(diffs.join("\n")));
  }
};

QTEST_GUILESS_MAIN(TestEvalNodeSuite)
#include "test_eval_node_suite.moc"
