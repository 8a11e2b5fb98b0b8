// flowbridge-cli convert --verify: good conversions of the corpus verify (exit 0, the model written); a conversion
// broken on purpose (the CLI's test build, FLOWBRIDGE_TEST_BREAK_HANDLER) gets exit 4, nothing written unless
// --continue-on-error, and the broken node named.
#include <QtTest>

#include "support/eval_oracle.h"
#include "support/helpers.h"

using namespace fb;

class CliVerifyTest : public QObject {
  Q_OBJECT
 private slots:
  void goodConversionsVerify_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("opset");
    for (const auto& f : test::corpusModels())
      for (int opset : {11, 17}) QTest::newRow(qPrintable(f + " -> " + QString::number(opset))) << f << opset;
  }
  void goodConversionsVerify() {
    QFETCH(QString, file);
    QFETCH(int, opset);
    const QString dir = test::scratchDir("cli_verify_good");
    const QString out = dir + "/out.onnx";
    auto r = test::runCli({"convert", test::corpusModel(file), "-o", out, "--opset", QString::number(opset), "--verify",
                           "--samples", "2"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    QVERIFY2(r.out.contains("verify: all "), r.out.constData());
    QVERIFY(r.out.contains("max abs "));
    QVERIFY(QFileInfo::exists(out));
  }

  void aBrokenHandlerIsCaught() {
    const QString dir = test::scratchDir("cli_verify_broken");
    const QString model = test::corpusModel("super_resolution_op11.onnx");
    const QString out = dir + "/out.onnx";
    auto r = test::runCliWithBrokenHandler("Relu", {"convert", model, "-o", out, "--opset", "13", "--verify"});
    QCOMPARE(r.exitCode, 4);
    QVERIFY2(r.out.contains("OUTSIDE THE TOLERANCE"), r.out.constData());
    // The first Relu of the network is where the result parts from the source.
    QVERIFY2(r.out.contains("first divergent node: '/relu/Relu' (Add"), r.out.constData());
    QVERIFY2(r.out.contains("nothing written"), r.out.constData());
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(QDir(dir).entryList(QDir::Files).isEmpty());

    r = test::runCliWithBrokenHandler(
        "Relu", {"convert", model, "-o", out, "--opset", "13", "--verify", "--continue-on-error"});
    QCOMPARE(r.exitCode, 4);
    QVERIFY(QFileInfo::exists(out));
  }

  void theTestBuildWithoutTheHookVerifies() {
    // The hook changes nothing unless asked: the same command with no broken handler is a good conversion.
    const QString dir = test::scratchDir("cli_verify_hook_off");
    auto r = test::runCliWithBrokenHandler(
        "", {"convert", test::corpusModel("super_resolution_op11.onnx"), "-o", dir + "/out.onnx", "--verify"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
  }

  void generatedCodeIsRunAgainstTheEvaluator() {
    const QString dir = test::scratchDir("cli_verify_code");
    const QString model = test::corpusModel("super_resolution_op11.onnx");
    auto r = test::runCli({"convert", model, "--to", "pytorch", "-o", dir + "/torch", "--verify", "--samples", "1"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    QVERIFY2(r.out.contains("verify: run.py (torch) against the evaluator"), r.out.constData());
    QVERIFY(r.out.contains("verify: all 1 outputs agree"));
    QVERIFY(QFileInfo::exists(dir + "/torch/run.py"));
    // No temporary folder is left beside the output.
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"torch"});

    // OneFlow does not import here: a notice, no check, the code written.
    r = test::runCli({"convert", model, "--to", "oneflow", "-o", dir + "/of", "--verify"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    QVERIFY2(r.out.contains("verify: oneflow does not import in /usr/bin/python3: the generated code is not checked"),
             r.out.constData());
    // With the tests' OneFlow stand-in on the path it does, and the code is checked.
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", FB_SOURCE_DIR "/tests/oneflow_standin");
    p.setProcessEnvironment(env);
    p.start(FB_CLI_PATH, {"convert", model, "--to", "oneflow", "-o", dir + "/of", "--verify", "--samples", "1"});
    QVERIFY(p.waitForFinished(300000));
    const QByteArray out = p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(out.contains("verify: run.py (oneflow) against the evaluator"), out.constData());
    QVERIFY(out.contains("verify: all 1 outputs agree"));
  }

  void toleranceOptions() {
    // A zero tolerance still passes where the conversion changes nothing numerically, and --help documents exit 4.
    const QString dir = test::scratchDir("cli_verify_tol");
    auto r = test::runCli({"convert", test::corpusModel("super_resolution_op11.onnx"), "-o", dir + "/out.onnx",
                           "--opset", "11", "--passes", "none", "--verify", "--atol", "0", "--rtol", "0"});
    QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    r = test::runCli({"--help"});
    QVERIFY(r.out.contains("  4  values disagree beyond the tolerance"));
  }
};

QTEST_GUILESS_MAIN(CliVerifyTest)
#include "test_cli_verify.moc"
