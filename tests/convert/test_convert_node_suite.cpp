// ONNX's own node tests (Debian's libonnx-testdata, data/node/*) as a measure of retargeting: every model is
// converted in-process to each target opset (default passes, checker, as `flowbridge-cli convert` does), the
// source and each result run in ONNX Runtime (one long-lived process, tests/oracle/serve.mjs) on the test's
// inputs, and the results are compared with the test's expected outputs (1e-4 + 1e-3 * |expected|).
// Every (test, opset) outcome must equal the line in tests/node_suite_expected.tsv:
//   ok                   converted, and ORT gives the expected outputs
//   refused  REASON      the conversion left an unsupported/failed node or failed the check (exit 3 in the CLI);
//                        the reason must name the lowest opset at which the node converts, and be right about it
//   wrong    DETAIL      converted, but the outputs differ (or ORT cannot run the result)
//   skip     REASON      (opset *) ORT cannot run the source as it is, or gets other outputs than expected
// Any difference fails: an improvement updates the file, a regression cannot hide. To regenerate it:
//   FB_NODE_SUITE_UPDATE=1 build/tests/test_convert_node_suite        (then review `git diff tests/`)
// FB_NODE_SUITE_OPSETS=9,13 restricts the targets (CI runs 9 and 13; `cmake --build build --target sweep`
// runs all five and prints the whole table).
// FB_NODE_SUITE_VERSION_CONVERTER=1 (set by the `sweep` target) also converts every test with python3-onnx's
// onnx.version_converter + checker (tests/oracle/version_converter_serve.py, one long-lived process), runs
// its results in the same ONNX Runtime process with the same comparison, and prints its column beside
// FlowBridge's: ok / refused (it raised) / crashed (the interpreter died) / wrong. Its outcomes are measured,
// not checked against the expectations file.
#include <QtTest>

#include <onnx/onnx_pb.h>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_proto_import.h"
#include "formats/onnx/onnx_writer.h"
#include "oracle/oracle_server.h"
#include "support/helpers.h"
#include "support/stdout_lines.h"

using namespace fb;

namespace {

const char* kExpectationsFile = FB_SOURCE_DIR "/tests/node_suite_expected.tsv";
const std::vector<int64_t> kAllOpsets{7, 9, 11, 13, 17};

struct Outcome {
  std::string kind;    // ok / refused / wrong / skip
  std::string detail;  // reason; empty for ok
  bool operator==(const Outcome&) const = default;
};
using Key = std::pair<std::string, std::string>;  // test name, opset ("*" for skips)

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  if (s.size() > 300) s = s.substr(0, 300) + "...";
  return s;
}

std::vector<int64_t> opsetsToRun() {
  QByteArray env = qgetenv("FB_NODE_SUITE_OPSETS");
  if (env.isEmpty()) return kAllOpsets;
  std::vector<int64_t> out;
  for (const auto& part : env.split(',')) out.push_back(part.trimmed().toLongLong());
  return out;
}

bool readTensorFile(const QString& path, ir::Tensor& out) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return false;
  onnx::TensorProto tp;
  QByteArray bytes = f.readAll();
  if (!tp.ParseFromArray(bytes.constData(), static_cast<int>(bytes.size()))) return false;
  out = onnxfmt::importTensor(tp);
  return true;
}

std::vector<ir::Tensor> readTensors(const QString& dir, const char* prefix) {
  std::vector<ir::Tensor> out;
  for (int i = 0;; ++i) {
    QString path = QString("%1/%2_%3.pb").arg(dir, prefix).arg(i);
    if (!QFileInfo::exists(path)) break;
    ir::Tensor t;
    if (!readTensorFile(path, t)) throw std::runtime_error("cannot parse " + path.toStdString());
    out.push_back(std::move(t));
  }
  return out;
}

// Empty when `actual` matches `expected` within 1e-4 + 1e-3 * |expected| (NaN matches NaN), else why not.
std::string compareTensor(const ir::Tensor& expected, const ir::Tensor& actual) {
  if (expected.dtype != actual.dtype)
    return "type " + std::string(ir::dataTypeName(actual.dtype)) + " instead of " +
           std::string(ir::dataTypeName(expected.dtype));
  if (expected.dims != actual.dims) return "shape differs";
  if (expected.dtype == ir::DataType::String) return expected.strings == actual.strings ? "" : "strings differ";
  auto e = expected.asDouble(), a = actual.asDouble();
  if (e.size() != a.size()) return "element count differs";
  bool ok = true;
  for (size_t i = 0; i < e.size(); ++i) {
    if (std::isnan(e[i]) && std::isnan(a[i])) continue;
    if (std::isinf(e[i]) && e[i] == a[i]) continue;
    double d = std::abs(e[i] - a[i]);
    if (!(d <= 1e-4 + 1e-3 * std::abs(e[i]))) ok = false;
  }
  // No magnitude in the message: it is recorded in the expectations, and random ops (Bernoulli, training
  // Dropout) would make it change from run to run.
  return ok ? "" : "values differ";
}

// Empty when the outputs (by position of the model's outputs) match the expected ones.
std::string compareOutputs(const ir::Model& m, const std::vector<ir::Tensor>& expected, const test::OracleAnswer& a) {
  const auto& outs = m.graph().outputs();
  if (outs.size() != expected.size()) return "the test has " + std::to_string(expected.size()) + " expected outputs";
  for (size_t i = 0; i < outs.size(); ++i) {
    auto it = a.outputs.find(outs[i]->name());
    if (it == a.outputs.end()) return "output " + outs[i]->name() + " missing";
    auto why = compareTensor(expected[i], it->second);
    if (!why.empty()) return outs[i]->name() + ": " + why;
  }
  return "";
}

// Why a conversion was refused: the first unsupported or failed node, else the check or a whole-model error.
std::string refusal(const convert::ConvertResult& r) {
  for (const auto& n : r.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed) {
      std::string s = std::string(convert::statusName(n.status)) + " " + n.opType + ": " + n.message;
      if (n.lowestOpset) s += " (converts at opset " + std::to_string(*n.lowestOpset) + ")";
      return s;
    }
  if (!r.error.empty()) return "error: " + r.error;
  for (const auto& m : r.check.messages) return "check: " + m.message;
  return "incomplete";
}

std::map<Key, Outcome> readExpectations() {
  std::map<Key, Outcome> out;
  std::ifstream in(kExpectationsFile);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string part;
    while (std::getline(ss, part, '\t')) f.push_back(part);
    if (f.size() < 3) continue;
    out[{f[0], f[1]}] = Outcome{f[2], f.size() > 3 ? f[3] : ""};
  }
  return out;
}

void writeExpectations(const std::map<Key, Outcome>& all) {
  std::ofstream out(kExpectationsFile);
  out << "# Outcome of every ONNX node test (libonnx-testdata data/node) per target opset; written by\n"
         "# FB_NODE_SUITE_UPDATE=1 test_convert_node_suite, checked by test_convert_node_suite.\n"
         "# test\topset\toutcome\treason\n";
  for (const auto& [k, o] : all)
    out << k.first << '\t' << k.second << '\t' << o.kind << (o.detail.empty() ? "" : "\t" + o.detail) << '\n';
}

// python3-onnx's version converter in one process (tests/oracle/version_converter_serve.py), restarted
// after a request that killed it.
class VersionConverterServer {
 public:
  VersionConverterServer() { start(); }
  ~VersionConverterServer() { stop(); }
  bool started() const { return started_; }
  QString onnxVersion() const { return version_; }

  // kind: ok (written to `out`), refused (it raised; `detail` says what), crashed (the process died or hung).
  Outcome convert(const QString& model, int64_t opset, const QString& out) {
    if (!started_) start();
    if (!started_) return {"crashed", "python3 did not start"};
    QJsonObject req{{"model", model}, {"opset", static_cast<qint64>(opset)}, {"out", out}};
    proc_.write(QJsonDocument(req).toJson(QJsonDocument::Compact) + "\n");
    QByteArray line;
    while ((line = takeLine()).isEmpty()) {
      if (proc_.state() != QProcess::Running || !proc_.waitForReadyRead(120000)) {
        if (!(line = takeLine()).isEmpty()) break;
        QString err = QString::fromUtf8(proc_.readAllStandardError()).simplified().right(200);
        const bool died = proc_.state() == QProcess::NotRunning;
        const QString how = !died ? "no answer in 120 s"
                            : proc_.exitStatus() == QProcess::CrashExit
                                ? "python3 killed by a signal (segmentation fault or abort)"
                                : QString("python3 exited with code %1").arg(proc_.exitCode());
        stop();
        return {"crashed", oneLine((how + (err.isEmpty() ? QString() : ": " + err)).toStdString())};
      }
    }
    auto doc = QJsonDocument::fromJson(line).object();
    version_ = doc.value("onnx").toString();
    if (doc.value("ok").toBool()) return {"ok", ""};
    return {"refused", oneLine(doc.value("error").toString().toStdString())};
  }

 private:
  void start() {
    lines_.clear();
    proc_.setProcessChannelMode(QProcess::SeparateChannels);
    proc_.start("/usr/bin/python3", {FB_SOURCE_DIR "/tests/oracle/version_converter_serve.py"});
    started_ = proc_.waitForStarted(30000);
  }
  void stop() {
    if (proc_.state() != QProcess::NotRunning) {
      proc_.closeWriteChannel();
      if (!proc_.waitForFinished(5000)) proc_.kill();
      proc_.waitForFinished();
    }
    started_ = false;
  }
  QByteArray takeLine() { return lines_.take(proc_); }
  QProcess proc_;
  test::StdoutLines lines_;
  QString version_;
  bool started_ = false;
};

}  // namespace

class TestConvertNodeSuite : public QObject {
  Q_OBJECT

 private slots:
  void sweep() {
    QVERIFY2(QFileInfo::exists(FB_ONNX_NODE_TESTS_DIR "/test_abs/model.onnx"),
             "install the Debian package libonnx-testdata (packaging/install-deps.sh)");
    QVERIFY2(test::oracleInstalled(), "run tests/oracle/install.sh");
    test::OracleServer oracle;
    QVERIFY2(oracle.started(), "node did not start");
    const auto opsets = opsetsToRun();
    const QString scratch = test::scratchDir("node_suite");
    const bool update = qEnvironmentVariableIsSet("FB_NODE_SUITE_UPDATE");
    const bool sideBySide = qEnvironmentVariableIntValue("FB_NODE_SUITE_VERSION_CONVERTER") != 0;
    std::optional<VersionConverterServer> reference;
    if (sideBySide) reference.emplace();
    std::map<Key, Outcome> referenceOutcomes;  // onnx.version_converter's, when measured
    double referenceSeconds = 0;

    QDir root(FB_ONNX_NODE_TESTS_DIR);
    const auto tests = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    std::map<Key, Outcome> actual;
    QElapsedTimer timer;
    timer.start();
    for (const QString& name : tests) {
      const QString dir = root.filePath(name);
      const std::string test = name.toStdString();
      std::unique_ptr<ir::Model> model;
      std::vector<ir::Tensor> inputs, expected;
      try {
        model = loadModel((dir + "/model.onnx").toStdString());
        inputs = readTensors(dir + "/test_data_set_0", "input");
        expected = readTensors(dir + "/test_data_set_0", "output");
      } catch (const std::exception& e) {
        actual[{test, "*"}] = {"skip", oneLine(std::string("cannot read the test: ") + e.what())};
        continue;
      }
      // Inputs bind by position to the graph inputs that are not initializers.
      std::vector<ir::Value*> formal;
      for (ir::Value* v : model->graph().inputs())
        if (!v->initializer()) formal.push_back(v);
      bool tensorsOnly = formal.size() == inputs.size();
      for (size_t i = 0; tensorsOnly && i < formal.size(); ++i) {
        tensorsOnly = formal[i]->type.isTensor();
        inputs[i].name = formal[i]->name();
      }
      if (!tensorsOnly) {
        actual[{test, "*"}] = {"skip", "inputs are not all tensors (sequence/optional inputs are not fed)"};
        continue;
      }
      auto src = oracle.run(dir + "/model.onnx", inputs);
      if (!src.ok) {
        actual[{test, "*"}] = {"skip", oneLine("ORT cannot run the source: " + src.error.toStdString())};
        QVERIFY2(oracle.started(), "the oracle process stopped");
        continue;
      }
      if (auto why = compareOutputs(*model, expected, src); !why.empty()) {
        actual[{test, "*"}] = {"skip", oneLine("ORT's outputs for the source differ from the expected ones: " + why)};
        continue;
      }
      for (int64_t t : opsets) {
        const std::string key = std::to_string(t);
        convert::ConvertOptions opts;
        opts.targetOpset = t;
        convert::ConvertResult r;
        try {
          r = convert::convertModel(*model, opts);
        } catch (const std::exception& e) {
          actual[{test, key}] = {"refused", oneLine(std::string("threw: ") + e.what())};
          continue;
        }
        if (!r.complete() || !r.model) {
          actual[{test, key}] = {"refused", oneLine(refusal(r))};
          continue;
        }
        const QString out = scratch + "/" + name + "_" + QString::number(t) + ".onnx";
        onnxfmt::writeOnnxFile(*r.model, out.toStdString());
        auto res = oracle.run(out, inputs);
        std::string why =
            res.ok ? compareOutputs(*model, expected, res) : "ORT cannot run the result: " + res.error.toStdString();
        if (why.empty()) {
          actual[{test, key}] = {"ok", ""};
          QFile::remove(out);  // wrong results stay for a look
        } else {
          actual[{test, key}] = {"wrong", oneLine(why)};
        }
      }
      if (!reference) continue;
      QElapsedTimer referenceTimer;
      referenceTimer.start();
      for (int64_t t : opsets) {
        const QString out = scratch + "/" + name + "_vc" + QString::number(t) + ".onnx";
        Outcome o = reference->convert(dir + "/model.onnx", t, out);
        if (o.kind == "ok") {
          auto res = oracle.run(out, inputs);
          std::string why =
              res.ok ? compareOutputs(*model, expected, res) : "ORT cannot run the result: " + res.error.toStdString();
          if (!why.empty()) o = {"wrong", oneLine(why)};
          QFile::remove(out);
        }
        referenceOutcomes[{test, std::to_string(t)}] = o;
      }
      referenceSeconds += referenceTimer.elapsed() / 1000.0;
    }
    const double seconds = timer.elapsed() / 1000.0;

    // The table.
    size_t skipped = 0;
    for (const auto& [k, o] : actual) skipped += o.kind == "skip";
    QString table = QString("\n%1 node tests, %2 skipped (ORT cannot run the source as it is), %3 s\n")
                        .arg(tests.size())
                        .arg(skipped)
                        .arg(seconds, 0, 'f', 1);
    auto counts = [](const std::map<Key, Outcome>& outcomes, int64_t t) {
      std::map<std::string, int> c;
      for (const auto& [k, o] : outcomes)
        if (k.second == std::to_string(t)) ++c[o.kind];
      return c;
    };
    if (reference) {
      table += QString("onnx.version_converter + checker (python3-onnx %1) measured in the same run: %2 s of it\n")
                   .arg(reference->onnxVersion())
                   .arg(referenceSeconds, 0, 'f', 1);
      table +=
          "| target opset | FlowBridge ok / refused / wrong | onnx.version_converter ok / refused / crashed / wrong |\n"
          "|---|---|---|\n";
      for (int64_t t : opsets) {
        auto c = counts(actual, t), v = counts(referenceOutcomes, t);
        table += QString("| %1 | %2 / %3 / %4 | %5 / %6 / %7 / %8 |\n")
                     .arg(t)
                     .arg(c["ok"])
                     .arg(c["refused"])
                     .arg(c["wrong"])
                     .arg(v["ok"])
                     .arg(v["refused"])
                     .arg(v["crashed"])
                     .arg(v["wrong"]);
      }
      for (const auto& [k, o] : referenceOutcomes)
        if (o.kind == "wrong" || o.kind == "crashed")
          table += QString("  version_converter %1 @%2: %3 %4\n")
                       .arg(QString::fromStdString(k.first), QString::fromStdString(k.second),
                            QString::fromStdString(o.kind), QString::fromStdString(o.detail));
    } else {
      table += "| target opset | ok | refused | wrong |\n|---|---|---|---|\n";
      for (int64_t t : opsets) {
        auto c = counts(actual, t);
        table += QString("| %1 | %2 | %3 | %4 |\n").arg(t).arg(c["ok"]).arg(c["refused"]).arg(c["wrong"]);
      }
    }
    qInfo().noquote() << table;

    // Every refusal names the lowest opset at which its node converts, and that opset is right: the test
    // converts there (when it is one of the measured targets) and at no measured target between.
    QStringList badLowest;
    for (const auto& [k, o] : actual) {
      if (o.kind != "refused") continue;
      const QString where = QString::fromStdString(k.first + " @" + k.second);
      static const QRegularExpression lowestRe("\\(converts at opset (\\d+)\\)");
      auto match = lowestRe.match(QString::fromStdString(o.detail));
      if (!match.hasMatch()) {
        badLowest << where +
                         ": the refusal names no opset where the node converts: " + QString::fromStdString(o.detail);
        continue;
      }
      const int64_t lowest = match.captured(1).toLongLong();
      for (int64_t t : opsets) {
        auto it = actual.find({k.first, std::to_string(t)});
        if (it == actual.end()) continue;
        const bool ok = it->second.kind == "ok";
        if (t >= lowest && !ok && it->second.kind != "wrong")
          badLowest << where + QString(": says it converts at %1, but at %2: ").arg(lowest).arg(t) +
                           QString::fromStdString(it->second.detail);
        if (t < lowest && ok)
          badLowest << where + QString(": says it converts from %1, but %2 is ok").arg(lowest).arg(t);
      }
    }
    QVERIFY2(badLowest.isEmpty(), qPrintable(badLowest.join('\n')));

    std::map<Key, Outcome> expectedOutcomes = readExpectations();
    if (update) {
      // Keep the lines of opsets this run did not cover.
      std::set<std::string> ran;
      for (int64_t t : opsets) ran.insert(std::to_string(t));
      ran.insert("*");
      for (auto it = expectedOutcomes.begin(); it != expectedOutcomes.end();)
        it = ran.count(it->first.second) ? expectedOutcomes.erase(it) : std::next(it);
      for (const auto& [k, o] : actual) expectedOutcomes[k] = o;
      writeExpectations(expectedOutcomes);
      qInfo() << "wrote" << kExpectationsFile;
      return;
    }
    QStringList diffs;
    std::set<std::string> ran{"*"};
    for (int64_t t : opsets) ran.insert(std::to_string(t));
    for (const auto& [k, o] : actual) {
      auto it = expectedOutcomes.find(k);
      if (it == expectedOutcomes.end() || !(it->second == o))
        diffs << QString("%1 @%2: now %3 %4; expected %5 %6")
                     .arg(QString::fromStdString(k.first), QString::fromStdString(k.second),
                          QString::fromStdString(o.kind), QString::fromStdString(o.detail),
                          it == expectedOutcomes.end() ? QString("(no line)") : QString::fromStdString(it->second.kind),
                          it == expectedOutcomes.end() ? QString() : QString::fromStdString(it->second.detail));
    }
    for (const auto& [k, o] : expectedOutcomes)
      if (ran.count(k.second) && !actual.count(k))
        diffs << QString("%1 @%2: expected %3, no longer measured")
                     .arg(QString::fromStdString(k.first), QString::fromStdString(k.second),
                          QString::fromStdString(o.kind));
    QVERIFY2(diffs.isEmpty(), qPrintable(QString("%1 outcome(s) differ from tests/node_suite_expected.tsv "
                                                 "(FB_NODE_SUITE_UPDATE=1 regenerates it):\n")
                                             .arg(diffs.size()) +
                                         diffs.join('\n')));
  }
};

QTEST_GUILESS_MAIN(TestConvertNodeSuite)
#include "test_convert_node_suite.moc"
