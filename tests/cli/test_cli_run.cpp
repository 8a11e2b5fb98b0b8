// flowbridge-cli run: outputs' summaries, --save-outputs against ONNX Runtime on every corpus model, --keep, file
// names made from hostile value names, and bad inputs (one line, exit code, nothing written).
#include <QtTest>

#include "eval/io/npy_file.h"
#include "eval/verify/value_diff.h"
#include "support/eval_oracle.h"
#include "support/helpers.h"
#include "support/proto_builders.h"

using namespace fb;

namespace {

// x[4] -> Relu -> Relu -> y, the value between them named with a slash and a terminal escape.
QString smallModel(const QString& dir) {
  auto m = test::reluChain(2);
  m.mutable_graph()->mutable_node(0)->set_output(0, "a/b\x1b[2Jc");
  m.mutable_graph()->mutable_node(1)->set_input(0, "a/b\x1b[2Jc");
  const QString path = dir + "/chain.onnx";
  test::saveProto(m, path.toStdString());
  return path;
}

int lineCount(const QByteArray& s) { return s.trimmed().isEmpty() ? 0 : int(s.trimmed().count('\n')) + 1; }

}  // namespace

class CliRunTest : public QObject {
  Q_OBJECT
 private slots:
  void matchesOnnxRuntimeOnEveryCorpusModel_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void matchesOnnxRuntimeOnEveryCorpusModel() {
    QFETCH(QString, file);
    QVERIFY(test::oracleInstalled());
    const QString dir = test::scratchDir("cli_run_" + QFileInfo(file).baseName());
    const QString model = test::corpusModel(file);
    const auto both = test::runCliAndOnnxRuntime(model, dir);
    QVERIFY2(both.error.isEmpty(), qPrintable(both.error));
    const auto& r = both.cli;
    auto m = loadModel(model.toStdString());
    const auto& outs = m->graph().outputs();
    QVERIFY(!outs.empty());
    for (size_t k = 0; k < outs.size(); ++k) {
      const QString name = QString::fromStdString(outs[k]->name());
      // Each output is printed with its type and summary.
      QVERIFY2(r.out.contains((name + ": ").toUtf8()) && r.out.contains(" min ") && r.out.contains(" mean "),
               r.out.constData());
      const auto [ort, ours] = test::outputsOfBothRuns(dir, name, k);
      const auto d = eval::diffValues(eval::Value(ort), eval::Value(ours), eval::Tolerance{1e-4, 1e-3});
      QVERIFY2(d.agree, qPrintable(file + " " + name + ": " + QString::fromStdString(eval::toText(d))));
    }
  }

  void keepsValuesAndNamesFilesSafely() {
    const QString dir = test::scratchDir("cli_run_keep");
    const QString model = smallModel(dir);
    auto r = test::runCli({"run", model, "--keep", "a/b\x1b[2Jc", "--save-outputs", dir + "/out"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    // The escape never reaches the terminal; the file name has no '/' or control character.
    QVERIFY(!r.out.contains('\x1b'));
    QVERIFY2(r.out.contains("a/b\\x1b[2Jc -> a_b__2Jc.npy"), r.out.constData());
    const QStringList files = QDir(dir + "/out").entryList(QDir::Files, QDir::Name);
    QCOMPARE(files, (QStringList{"a_b__2Jc.npy", "y.npy"}));
    // Relu twice of the seeded input: no negative values, the kept value equals the output.
    const auto kept = eval::readNpyFile((dir + "/out/a_b__2Jc.npy").toStdString());
    const auto y = eval::readNpyFile((dir + "/out/y.npy").toStdString());
    QCOMPARE(y.dims(), (std::vector<int64_t>{4}));
    QVERIFY(eval::diffValues(eval::Value(kept), eval::Value(y), eval::Tolerance{0, 0}).agree);
    for (int64_t k = 0; k < y.size(); ++k) QVERIFY(y.doubleAt(k) >= 0);
  }

  void givenInputsAreUsed() {
    const QString dir = test::scratchDir("cli_run_given");
    const QString model = smallModel(dir);
    eval::writeNpyFile((dir + "/x.npy").toStdString(), eval::Tensor::floats({4}, {-2, -1, 0.5f, 3}));
    auto r = test::runCli({"run", model, "--input", "x=" + dir + "/x.npy", "--save-outputs", dir + "/out"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto y = eval::readNpyFile((dir + "/out/y.npy").toStdString());
    QCOMPARE(y.toDoubles(), (std::vector<double>{0, 0, 0.5, 3}));
    QVERIFY2(r.out.contains("y: float[4]  min 0 max 3 mean 0.875"), r.out.constData());
  }

  void badInputsAreOneLineAndWriteNothing_data() {
    QTest::addColumn<QString>("inputSpec");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("wrong shape") << "x=@/wrong_shape.npy" << 2 << "float[2,4] where the model declares float[4]";
    QTest::newRow("missing file") << "x=@/missing.npy" << 2 << "missing.npy";
    QTest::newRow("malformed npy") << "x=@/garbage.npy" << 2 << "not a .npy file";
    QTest::newRow("truncated npy") << "x=@/truncated.npy" << 2 << "bytes where the shape needs";
    QTest::newRow("wrong type") << "x=@/ints.npy" << 2 << "int64[4] where the model declares float[4]";
    QTest::newRow("unknown input") << "nope=@/wrong_shape.npy" << 1 << "the model has no input 'nope'";
    QTest::newRow("no equals sign") << "x" << 1 << "expected NAME=FILE";
  }
  void badInputsAreOneLineAndWriteNothing() {
    QFETCH(QString, inputSpec);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString dir = test::scratchDir("cli_run_bad");
    const QString model = smallModel(dir);
    eval::writeNpyFile((dir + "/wrong_shape.npy").toStdString(),
                       eval::Tensor::floats({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}));
    eval::writeNpyFile((dir + "/ints.npy").toStdString(), eval::Tensor::int64s({4}, {0, 1, 2, 3}));
    QFile garbage(dir + "/garbage.npy");
    QVERIFY(garbage.open(QIODevice::WriteOnly));
    garbage.write("this is not numpy\n");
    garbage.close();
    QFile::copy(dir + "/wrong_shape.npy", dir + "/truncated.npy");
    QVERIFY(QFile::resize(dir + "/truncated.npy", QFileInfo(dir + "/wrong_shape.npy").size() - 4));
    auto r = test::runCli({"run", model, "--input", inputSpec.replace("@", dir), "--save-outputs", dir + "/out"});
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(lineCount(r.err), 1);
    QVERIFY2(r.err.startsWith("flowbridge-cli: error: "), r.err.constData());
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QVERIFY(!QFileInfo::exists(dir + "/out"));
  }

  void aLoopPastMaxIterationsIsAnError() {
    const QString dir = test::scratchDir("cli_run_loop");
    const QString model = test::corpusModel("control_flow_op13.onnx");
    eval::writeNpyFile((dir + "/n.npy").toStdString(), eval::Tensor::int64s({}, {3}));
    auto r = test::runCli(
        {"run", model, "--input", "n=" + dir + "/n.npy", "--max-iterations", "2", "--save-outputs", dir + "/out"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(lineCount(r.err), 1);
    QVERIFY2(r.err.contains("control_flow_op13.onnx: node '/Loop' (Loop): the Loop did not end within 2"),
             r.err.constData());
    QVERIFY(!QFileInfo::exists(dir + "/out"));
    r = test::runCli({"run", model, "--input", "n=" + dir + "/n.npy", "--max-iterations", "3"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
  }

  void aModelTheEvaluatorCannotRunNamesTheNode() {
    const QString dir = test::scratchDir("cli_run_unsupported");
    auto m = test::reluChain(1);
    m.mutable_graph()->mutable_node(0)->set_op_type("NoSuchOp");
    m.mutable_graph()->mutable_node(0)->set_domain("com.example");
    m.mutable_graph()->mutable_node(0)->set_name("custom1");
    auto* imp = m.add_opset_import();
    imp->set_domain("com.example");
    imp->set_version(1);
    test::saveProto(m, (dir + "/custom.onnx").toStdString());
    auto r = test::runCli({"run", dir + "/custom.onnx", "--save-outputs", dir + "/out"});
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(lineCount(r.err), 1);
    QVERIFY2(r.err.contains("custom.onnx: node 'custom1'"), r.err.constData());
    QVERIFY(!QFileInfo::exists(dir + "/out"));
  }
};

QTEST_GUILESS_MAIN(CliRunTest)
#include "test_cli_run.moc"
