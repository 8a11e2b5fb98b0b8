// Every corpus model converted to PyTorch and to OneFlow code: every node is converted, the generated
// folder holds model.py, run.py and the weights, and the code computes what ONNX Runtime computes on the
// source (tests/codegen/verify_generated.py: same seeded inputs, every element within 1e-4 + 1e-3*|ref|;
// OneFlow code runs against the test-only stand-in package). The OneFlow flavour uses only the API names
// FlowBridge allows itself (codegen::oneflowApiNames()).
#include <QtTest>

#include <set>

#include "codegen/code_generator.h"
#include "formats/model_io.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;

class TestCodegenCorpus : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void generatedCodeMatchesOnnxRuntime_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }

  void generatedCodeMatchesOnnxRuntime() {
    QFETCH(QString, file);
    auto source = loadModel(test::corpusModel(file).toStdString());
    const QString dir = test::scratchDir("codegen_corpus/" + QFileInfo(file).baseName());
    const std::set<std::string> allowed(codegen::oneflowApiNames().begin(), codegen::oneflowApiNames().end());
    QStringList folders;
    for (auto flavour : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow}) {
      codegen::CodegenOptions opts;
      opts.flavour = flavour;
      auto r = codegen::generatePython(*source, opts);
      QString problems;
      for (const auto& n : r.conversion.nodes)
        if (n.status != convert::NodeStatus::Converted)
          problems += QString("\n  %1 (%2): %3")
                          .arg(QString::fromStdString(n.nodeName), QString::fromStdString(n.opType),
                               QString::fromStdString(n.message));
      QVERIFY2(r.complete(), qPrintable(QString::fromStdString(std::string(codegen::flavourName(flavour))) + problems));
      QCOMPARE(r.conversion.nodes.size(), source->graph().totalNodeCount());
      // Every node is named by a comment on a line of its own code (Identity and Constant write none, nor nodes
      // whose output is their input, "no statement: ...": a Cast to the type the value has, `x * 1`, `x[:]`).
      for (const auto& n : r.conversion.nodes)
        if (n.opType != "Identity" && n.opType != "Constant" && n.message.rfind("no statement: ", 0) != 0)
          QVERIFY2(r.code->nodeLines.count(n.nodeId), qPrintable(QString::fromStdString(n.nodeName) + " has no line"));
      if (flavour == codegen::Flavour::OneFlow)
        for (const auto& name : r.code->apiNames)
          QVERIFY2(allowed.count(name), qPrintable("generated OneFlow code uses " + QString::fromStdString(name) +
                                                   ", which is not in the allowed list"));
      const QString out = dir + "/" + QString::fromLatin1(codegen::flavourName(flavour).data());
      codegen::writeGeneratedFolder(*r.code, flavour, out.toStdString());
      QVERIFY(QFileInfo::exists(out + "/model.py"));
      QVERIFY(QFileInfo::exists(out + "/run.py"));
      folders << out;
    }
    // Round trip: the PyTorch module exported back with torch.onnx.export computes the same. Tracing records
    // one path through data-dependent control flow, so models with If/Loop/Scan are left out of that part.
    bool controlFlow = false;
    for (const auto& n : source->graph().nodes()) controlFlow = controlFlow || !n->subgraphs().empty();
    QStringList args{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", test::corpusModel(file), "--work",
                     dir + "/verify"};
    if (!controlFlow) args << "--roundtrip" << dir + "/roundtrip.onnx";
    QProcess p;
    p.start("/usr/bin/python3", args + folders);
    QVERIFY(p.waitForFinished(900000));
    const QString report = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(report));
    if (!controlFlow) QVERIFY2(report.contains("\"roundtrip\": {\"ok\": true"), qPrintable(report));
  }

  // run.py, as a user runs it: random inputs of the declared shapes (dynamic dims 1), outputs printed.
  void runScriptRunsTheModel() {
    auto source = loadModel(test::corpusModel("super_resolution_op13_dyn.onnx").toStdString());
    const QString dir = test::scratchDir("codegen_corpus/run_script");
    for (auto flavour : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow}) {
      codegen::CodegenOptions opts;
      opts.flavour = flavour;
      auto r = codegen::generatePython(*source, opts);
      QVERIFY(r.complete());
      const QString out = dir + "/" + QString::fromLatin1(codegen::flavourName(flavour).data());
      codegen::writeGeneratedFolder(*r.code, flavour, out.toStdString());
      QProcess p;
      auto env = QProcessEnvironment::systemEnvironment();
      env.insert("PYTHONPATH", FB_SOURCE_DIR "/tests/oneflow_standin");
      p.setProcessEnvironment(env);
      p.start("/usr/bin/python3", {out + "/run.py"});
      QVERIFY(p.waitForFinished(300000));
      const QString stdoutText = QString::fromUtf8(p.readAllStandardOutput());
      QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardError())));
      QVERIFY2(stdoutText.contains("output: (1, 1, 672, 672)"), qPrintable(stdoutText));
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenCorpus)
#include "test_codegen_corpus.moc"
