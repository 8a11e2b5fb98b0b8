// Issue 25 point 5: generated OneFlow code checked by signature, not by name. Every call the generated code makes
// (keywords and positional arity) must fit OneFlow 0.8, 0.9 and 1.0 as codegen/oneflow_signatures.inc describes
// them; the checker itself must catch what a release rejects (`flow.ones_like(x, dtype=flow.bool)` in 0.8), and the
// table must agree with the version list it was made from (oneflow-api-versions.tsv).
#include <QtTest>

#include <map>
#include <set>

#include "codegen/code_generator.h"
#include "codegen/oneflow_signatures.h"
#include "formats/model_io.h"
#include "support/corpus_export.h"
#include "support/helpers.h"

using namespace fb;
using codegen::OneflowRelease;

namespace {

QString problemsText(const std::vector<codegen::OneflowCallProblem>& problems) {
  QString s;
  for (const auto& p : problems)
    s += QStringLiteral("\n  OneFlow %1, line %2: %3: %4")
             .arg(QString::fromLatin1(codegen::oneflowReleaseName(p.release).data()))
             .arg(p.call.line)
             .arg(QString::fromStdString(p.call.text), QString::fromStdString(p.why));
  return s;
}

// The calls of one generated OneFlow model.py that do not fit a release (unknown APIs included), and how many
// calls were checked.
struct SweepResult {
  std::vector<codegen::OneflowCallProblem> problems;
  size_t calls = 0;
  std::set<std::string> apis;
};

SweepResult sweep(const std::string& modelPy) {
  SweepResult r;
  const auto calls = codegen::pythonCallsIn(modelPy, "oneflow");
  r.calls = calls.size();
  for (const auto& c : calls) r.apis.insert(c.api);
  for (OneflowRelease rel : codegen::kOneflowReleases) {
    auto p = codegen::oneflowCallProblems(modelPy, rel, true);
    r.problems.insert(r.problems.end(), p.begin(), p.end());
  }
  return r;
}

std::unique_ptr<codegen::GeneratedCode> generateOneflow(const QString& path, QString& why) {
  auto source = loadModel(path.toStdString());
  codegen::CodegenOptions opts;
  opts.flavour = codegen::Flavour::OneFlow;
  auto r = codegen::generatePython(*source, opts);
  for (const auto& n : r.conversion.nodes)
    if (n.status != convert::NodeStatus::Converted)
      why += QStringLiteral("\n  %1 (%2): %3")
                 .arg(QString::fromStdString(n.nodeName), QString::fromStdString(n.opType),
                      QString::fromStdString(n.message));
  return r.complete() ? std::move(r.code) : nullptr;
}

}  // namespace

class TestCodegenOneflowSignatures : public QObject {
  Q_OBJECT
 private slots:
  void checkerRejectsWhatAReleaseRejects();
  void tableAgreesWithTheVersionList();
  void corpusCodeFitsEveryRelease();
  void swinTCodeFitsEveryRelease();
  void nodeSuiteCodeFitsEveryRelease();
};

void TestCodegenOneflowSignatures::checkerRejectsWhatAReleaseRejects() {
  auto problemsAt = [](const std::string& code, OneflowRelease r) {
    return codegen::oneflowCallProblems(code, r, true);
  };
  // The case: OneFlow 0.8's ones_like takes the tensor alone; 0.9 and 1.0 take dtype=.
  const std::string onesLike = "y = flow.ones_like(x, dtype=flow.bool)\n";
  auto at08 = problemsAt(onesLike, OneflowRelease::V0_8);
  QCOMPARE(at08.size(), size_t(1));
  QCOMPARE(at08[0].call.api, std::string("oneflow.ones_like"));
  QVERIFY2(at08[0].why.find("dtype") != std::string::npos, at08[0].why.c_str());
  QVERIFY(problemsAt(onesLike, OneflowRelease::V0_9).empty());
  QVERIFY(problemsAt(onesLike, OneflowRelease::V1_0).empty());
  // The reason a node with that statement is refused (the generator writes no code that fails at run time).
  QCOMPARE(codegen::oneflowRefusal(onesLike),
           std::string("OneFlow 0.8 rejects flow.ones_like(x, dtype=flow.bool): unexpected keyword 'dtype' (takes: "
                       "input, /)"));
  QVERIFY(codegen::oneflowRefusal("y = flow.ones_like(x).to(flow.bool)\n").empty());
  // Its replacement fits every release.
  for (OneflowRelease r : codegen::kOneflowReleases)
    QVERIFY(problemsAt("y = flow.ones_like(x).to(flow.bool)\n", r).empty());

  // Keyword names, keyword-only parameters, required parameters and arity, in every release.
  const std::map<std::string, std::string> rejected{
      {"F.relu(input=x)", "unexpected keyword 'input'"},  // the parameter is named x
      {"F.leaky_relu(x)", "missing 'alpha'"},
      {"F.leaky_relu(x, negative_slope=0.1)", "unexpected keyword 'negative_slope'"},
      {"F.softshrink(x, 0.5)", "takes 1 positional argument, 2 given"},  // alpha is keyword-only
      {"flow.unsqueeze(x, 0, 1)", "takes 2 positional arguments, 3 given"},
      {"flow.cat([a, b], 1, dim=1)", "'dim' given twice"},
      {"x.unsqueeze(dim=0, axis=1)", "unexpected keyword 'axis'"},
      {"self.w.mean(dim=1, keepdims=True)", "unexpected keyword 'keepdims'"},
      {"(a + b).sum(axis=1)", "unexpected keyword 'axis'"},
  };
  for (const auto& [code, why] : rejected)
    for (OneflowRelease r : codegen::kOneflowReleases) {
      auto p = problemsAt("y = " + code + "\n", r);
      QVERIFY2(p.size() == 1, code.c_str());
      QVERIFY2(p[0].why.find(why) != std::string::npos, (code + ": " + p[0].why).c_str());
    }
  // Names a release lacks: F.group_norm is new in 1.0, F.batch_norm in 0.9.
  QCOMPARE(problemsAt("y = F.group_norm(x, 2)\n", OneflowRelease::V0_9).size(), size_t(1));
  QVERIFY(problemsAt("y = F.group_norm(x, 2)\n", OneflowRelease::V1_0).empty());
  QCOMPARE(problemsAt("y = F.batch_norm(x, m, v)\n", OneflowRelease::V0_8).size(), size_t(1));

  // What fits: varargs shapes, the (input, perm) overload, keywords by OneFlow's names, nested calls.
  const std::string fine =
      "y = x.reshape(1, 2, 3).permute(0, 2, 1)\n"
      "y = flow.transpose(x, [1, 0])\n"
      "y = flow.transpose(x, 0, 1)\n"
      "y = F.max_pool2d(x, 3, stride=2, ceil_mode=True)\n"
      "y = flow.cat([flow.zeros(2, 3), flow.ones((2, 3), dtype=flow.int64)], dim=0)\n"
      "y = F.conv2d(x, self.w, self.b, padding=[1, 1], groups=2)\n"
      "y = flow.randn(*shape)\n"
      "s = 'flow.ones_like(x, dtype=flow.bool)'  # flow.ones_like(x, dtype=flow.bool)\n";
  for (OneflowRelease r : codegen::kOneflowReleases) {
    auto p = problemsAt(fine, r);
    QVERIFY2(p.empty(), qPrintable(problemsText(p)));
  }
  // Strings and comments hold no calls; the calls found are the ones written.
  QCOMPARE(codegen::pythonCallsIn(fine, "oneflow").size(), size_t(10));
}

void TestCodegenOneflowSignatures::tableAgreesWithTheVersionList() {
  // Every row names releases that have the API (oneflow-api-versions.tsv, the table's source).
  QFile tsv(QStringLiteral(FB_SHARED_DOCS "/oneflow-api-versions.tsv"));
  QVERIFY(tsv.open(QIODevice::ReadOnly));
  std::map<std::string, std::set<std::string>> present;
  const QStringList versions{"0.8", "0.9", "1.0"};
  for (const QByteArray& line : tsv.readAll().split('\n')) {
    const QList<QByteArray> cols = line.split('\t');
    if (cols.size() < 4 || cols[0] == "name") continue;
    for (int i = 0; i < 3; ++i)
      if (cols[i + 1] == "Y") present[cols[0].toStdString()].insert(versions[i].toStdString());
  }
  QVERIFY(present.size() > 1000);
  QVERIFY(codegen::oneflowSignatures().size() > 300);
  for (const auto& s : codegen::oneflowSignatures())
    for (OneflowRelease r : s.releases)
      QVERIFY2(present[s.api].count(std::string(codegen::oneflowReleaseName(r))),
               qPrintable(QString::fromStdString(s.api) + " is not in OneFlow " +
                          QString::fromLatin1(codegen::oneflowReleaseName(r).data())));
  // Every OneFlow function the generator may name has a signature in every release (dtypes, modules and tensor
  // attributes are not called).
  std::set<std::string> withRows;
  for (const auto& s : codegen::oneflowSignatures()) withRows.insert(s.api);
  const std::set<std::string> notCalled{
      "oneflow.Tensor",      "oneflow.Tensor.T",      "oneflow.Tensor.device", "oneflow.Tensor.dtype",
      "oneflow.Tensor.ndim", "oneflow.Tensor.shape",  "oneflow.bfloat16",      "oneflow.bool",
      "oneflow.float16",     "oneflow.float32",       "oneflow.float64",       "oneflow.int32",
      "oneflow.int64",       "oneflow.int8",          "oneflow.uint8",         "oneflow.linalg",
      "oneflow.nn",          "oneflow.nn.functional", "oneflow.nn.init"};
  for (const auto& name : codegen::oneflowApiNames())
    if (!notCalled.count(name))
      QVERIFY2(withRows.count(name), qPrintable(QString::fromStdString(name) + " has no signature"));
}

void TestCodegenOneflowSignatures::corpusCodeFitsEveryRelease() {
  size_t calls = 0;
  std::set<std::string> apis;
  for (const QString& file : test::corpusModels()) {
    QString why;
    auto code = generateOneflow(test::corpusModel(file), why);
    QVERIFY2(code, qPrintable(file + why));
    SweepResult r = sweep(code->modelPy);
    QVERIFY2(r.problems.empty(), qPrintable(file + problemsText(r.problems)));
    calls += r.calls;
    apis.insert(r.apis.begin(), r.apis.end());
  }
  // The check really ran over the corpus's code: thousands of calls of dozens of APIs.
  qInfo("%zu calls of %zu OneFlow APIs checked against 0.8, 0.9 and 1.0", calls, apis.size());
  QVERIFY(calls > 3000);
  QVERIFY(apis.size() > 30);
  QVERIFY(apis.count("oneflow.nn.functional.conv2d") && apis.count("oneflow.Tensor.reshape"));
}

void TestCodegenOneflowSignatures::swinTCodeFitsEveryRelease() {
  // The model: swin_t's generated OneFlow code failed in 0.8 on ones_like(..., dtype=).
  QString why;
  const QString path = test::corpusExport(QStringLiteral("swin_t"), QStringLiteral("17"), why);
  QVERIFY2(!path.isEmpty(), qPrintable(why));
  auto code = generateOneflow(path, why);
  QVERIFY2(code, qPrintable("swin_t" + why));
  SweepResult r = sweep(code->modelPy);
  QVERIFY2(r.problems.empty(), qPrintable("swin_t" + problemsText(r.problems)));
  QVERIFY(r.calls > 1000);
  // Where a mask of ones is still made (its Dropout mask is unread since recognised dead statements are left out),
  // it is in the form 0.8 accepts: never ones_like(..., dtype=).
  for (size_t at = code->modelPy.find("ones_like("); at != std::string::npos;
       at = code->modelPy.find("ones_like(", at + 1))
    QVERIFY(code->modelPy.substr(at, code->modelPy.find('\n', at) - at).find("dtype=") == std::string::npos);
}

void TestCodegenOneflowSignatures::nodeSuiteCodeFitsEveryRelease() {
  // ONNX's backend node tests (Debian's libonnx-testdata) reach the handlers the corpus does not: every one that
  // converts to OneFlow code must fit all three releases (the code is generated and checked here, not run).
  QDir node(qEnvironmentVariableIsEmpty("FB_ONNX_NODE_TESTS") ? QStringLiteral("/usr/share/libonnx-testdata/data/node")
                                                              : qEnvironmentVariable("FB_ONNX_NODE_TESTS"));
  QVERIFY2(node.exists(), qPrintable(node.path() + " missing: install the Debian package libonnx-testdata"));
  size_t generated = 0, calls = 0;
  std::set<std::string> apis;
  QString problems;
  for (const QString& t : node.entryList(QStringList{"test_*"}, QDir::Dirs, QDir::Name)) {
    std::unique_ptr<ir::Model> model;
    try {
      model = loadModel(node.filePath(t + "/model.onnx").toStdString());
    } catch (const std::exception&) {
      continue;  // unreadable models are test_codegen_node_suite's business
    }
    codegen::CodegenOptions opts;
    opts.flavour = codegen::Flavour::OneFlow;
    auto r = codegen::generatePython(*model, opts);
    if (!r.complete()) continue;
    ++generated;
    SweepResult s = sweep(r.code->modelPy);
    calls += s.calls;
    apis.insert(s.apis.begin(), s.apis.end());
    if (!s.problems.empty()) problems += "\n" + t + problemsText(s.problems);
  }
  QVERIFY2(problems.isEmpty(), qPrintable(problems));
  qInfo("%zu node tests generated, %zu calls of %zu OneFlow APIs checked against 0.8, 0.9 and 1.0", generated, calls,
        apis.size());
  QVERIFY(generated > 700);
  QVERIFY(apis.size() > 120);
}

QTEST_GUILESS_MAIN(TestCodegenOneflowSignatures)
#include "test_codegen_oneflow_signatures.moc"
