// flowbridge-cli extract: a cut of a corpus model that passes the check on its own, whose --with-data reproducer
// (ONNX's test_data_set_0 layout) gives in ONNX Runtime the outputs the run saved; cuts at intermediate inputs;
// bad arguments.
#include <QtTest>

#include "eval/io/proto_value_file.h"
#include "eval/verify/value_diff.h"
#include "ir/node.h"
#include "support/eval_oracle.h"
#include "support/helpers.h"

using namespace fb;

namespace {

// The reproducer in ONNX Runtime: its input_<k>.pb as .npy, the outputs against output_<k>.pb.
QString checkReproducer(const QString& sub, const QString& dataDir, const QString& scratch) {
  auto m = loadModel(sub.toStdString());
  QStringList npys;
  for (size_t k = 0; k < m->graph().inputs().size(); ++k) {
    const auto v = eval::readProtoValueFile((dataDir + QString("/test_data_set_0/input_%1.pb").arg(k)).toStdString());
    const QString npy = scratch + QString("/input_%1.npy").arg(k);
    eval::writeNpyFile(npy.toStdString(), v.tensor());
    npys << npy;
  }
  const QString err = test::runOnnxRuntime(sub, scratch + "/ort", npys);
  if (!err.isEmpty()) return err;
  for (size_t k = 0; k < m->graph().outputs().size(); ++k) {
    const auto expected =
        eval::readProtoValueFile((dataDir + QString("/test_data_set_0/output_%1.pb").arg(k)).toStdString());
    const auto ort = eval::readNpyFile((scratch + QString("/ort/%1.npy").arg(k)).toStdString());
    const auto d = eval::diffValues(expected, eval::Value(ort), eval::Tolerance{1e-4, 1e-3});
    if (!d.agree) return QString("output %1: %2").arg(k).arg(QString::fromStdString(eval::toText(d)));
  }
  return {};
}

// A value computed about half-way through the model's main graph.
std::string middleValue(const ir::Model& m, size_t* index = nullptr) {
  const size_t half = m.graph().nodeCount() / 2;
  size_t k = 0;
  for (const auto& n : m.graph().nodes())
    if (k++ == half) {
      if (index) *index = k;
      return n->output(0)->name();
    }
  return {};
}

}  // namespace

class CliExtractTest : public QObject {
  Q_OBJECT
 private slots:
  void reproducerRunsInOnnxRuntime_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"squeezenet1_0_op11.onnx", "transformer_encoder_op17.onnx", "mobilenet_v3_small_op13.onnx",
                          "super_resolution_op13_dyn.onnx"})
      QTest::newRow(f) << f;
  }
  void reproducerRunsInOnnxRuntime() {
    QFETCH(QString, file);
    QVERIFY(test::oracleInstalled());
    const QString dir = test::scratchDir("cli_extract_" + QFileInfo(file).baseName());
    const QString model = test::corpusModel(file);
    auto m = loadModel(model.toStdString());
    const std::string value = middleValue(*m);
    QVERIFY(!value.empty());
    auto r = test::runCli({"extract", model, "--outputs", QString::fromStdString(value), "-o", dir + "/sub.onnx",
                           "--with-data", dir + "/data"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto sub = loadModel((dir + "/sub.onnx").toStdString());
    QVERIFY(sub->graph().nodeCount() < m->graph().nodeCount());
    QCOMPARE(sub->graph().outputs().front()->name(), value);
    // Valid on its own: FlowBridge's check at its opset.
    r = test::runCli({"check", dir + "/sub.onnx", "--opset", QString::number(sub->opsetVersion(""))});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    const QString err = checkReproducer(dir + "/sub.onnx", dir + "/data", dir);
    QVERIFY2(err.isEmpty(), qPrintable(err));
  }

  void cutBetweenTwoValues() {
    const QString dir = test::scratchDir("cli_extract_between");
    const QString model = test::corpusModel("squeezenet1_0_op11.onnx");
    auto m = loadModel(model.toStdString());
    std::vector<const ir::Node*> nodes;
    for (const auto& n : m->graph().nodes()) nodes.push_back(n.get());
    const std::string from = nodes[nodes.size() / 3]->output(0)->name();
    const std::string to = nodes[2 * nodes.size() / 3]->output(0)->name();
    auto r = test::runCli({"extract", model, "--inputs", QString::fromStdString(from), "--outputs",
                           QString::fromStdString(to), "-o", dir + "/sub.onnx", "--with-data", dir + "/data"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto sub = loadModel((dir + "/sub.onnx").toStdString());
    QCOMPARE(sub->graph().inputs().size(), size_t{1});
    QCOMPARE(sub->graph().inputs().front()->name(), from);
    const QString err = checkReproducer(dir + "/sub.onnx", dir + "/data", dir);
    QVERIFY2(err.isEmpty(), qPrintable(err));
  }

  void badArguments_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown output") << QStringList{"--outputs", "no_such_value"} << 1 << "no value 'no_such_value'";
    QTest::newRow("unknown input") << QStringList{"--outputs", "output", "--inputs", "nope"} << 1 << "no value 'nope'";
    QTest::newRow("a weight as input") << QStringList{"--outputs", "output", "--inputs", "conv1.weight"} << 1
                                       << "is a weight";
  }
  void badArguments() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString dir = test::scratchDir("cli_extract_bad");
    auto r = test::runCli(
        QStringList{"extract", test::corpusModel("super_resolution_op11.onnx"), "-o", dir + "/sub.onnx"} + args);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QVERIFY(!QFileInfo::exists(dir + "/sub.onnx"));
  }

  void neverOverTheInput() {
    const QString dir = test::scratchDir("cli_extract_over_input");
    QFile::copy(test::corpusModel("super_resolution_op11.onnx"), dir + "/m.onnx");
    const auto before = QFileInfo(dir + "/m.onnx").size();
    auto r = test::runCli({"extract", dir + "/m.onnx", "--outputs", "output", "-o", dir + "/m.onnx"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(QFileInfo(dir + "/m.onnx").size(), before);
    // The data folder is replaced as a whole: it may not hold the model or the output.
    r = test::runCli({"extract", dir + "/m.onnx", "--outputs", "output", "-o", dir + "/d/test_data_set_0/sub.onnx",
                      "--with-data", dir + "/d"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("would replace a folder holding"), r.err.constData());
    QVERIFY(!QFileInfo::exists(dir + "/d"));
  }
};

QTEST_GUILESS_MAIN(CliExtractTest)
#include "test_cli_extract.moc"
