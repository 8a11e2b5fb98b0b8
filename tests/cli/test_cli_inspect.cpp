// `flowbridge-cli inspect --json` on every corpus model agrees with the manifest counted by python's onnx.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include "support/helpers.h"

using namespace fb;

class CliInspect : public QObject {
  Q_OBJECT
 private slots:
  void matchesManifest_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }

  void matchesManifest() {
    QFETCH(QString, file);
    const QJsonObject expected = test::manifest().value(file).toObject();
    QVERIFY2(!expected.isEmpty(), "model missing from manifest.json");
    auto r = test::runCli({"inspect", "--json", test::corpusModel(file)});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    QJsonParseError perr;
    QJsonObject got = QJsonDocument::fromJson(r.out, &perr).object();
    QVERIFY2(perr.error == QJsonParseError::NoError, qPrintable(perr.errorString()));
    QCOMPARE(got.value("format").toString(), QString("onnx"));
    QCOMPARE(got.value("path").toString(), test::corpusModel(file));
    for (const char* key : {"ir_version", "producer", "opsets", "inputs", "outputs", "nodes", "subgraph_nodes", "ops",
                            "initializers", "parameters", "parameter_bytes", "subgraphs", "functions"}) {
      QVERIFY2(got.contains(key), key);
      QVERIFY2(
          got.value(key) == expected.value(key),
          qPrintable(
              QString("%1: got %2, manifest %3")
                  .arg(
                      key, QString(QJsonDocument(QJsonObject{{"v", got.value(key)}}).toJson(QJsonDocument::Compact)),
                      QString(QJsonDocument(QJsonObject{{"v", expected.value(key)}}).toJson(QJsonDocument::Compact)))));
    }
  }

  void textSummaryNamesTheFacts() {
    auto r = test::runCli({"inspect", test::corpusModel("control_flow_op13.onnx")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("pytorch 1.13.0"));
    QVERIFY(r.out.contains("nodes       8 (+6 in 3 subgraphs)"));
    QVERIFY(r.out.contains("probs: float[Softmaxprobs_dim_0, 4]"));
    // The operator counts are aligned with spaces: no escaped tab ("43\\tConstant") in the summary.
    QVERIFY2(!r.out.contains("\\"), r.out.constData());
    auto sq = test::runCli({"inspect", test::corpusModel("squeezenet1_0_op11.onnx")});
    QVERIFY2(QRegularExpression("\\n +26  Relu\\n").match(QString::fromUtf8(sq.out)).hasMatch(), sq.out.constData());
  }

  void versionAndHelp() {
    auto v = test::runCli({"--version"});
    QCOMPARE(v.exitCode, 0);
    QVERIFY(v.out.startsWith("flowbridge-cli "));
    auto h = test::runCli({"--help"});
    QCOMPARE(h.exitCode, 0);
    QVERIFY(h.out.contains("inspect"));
    QVERIFY(h.out.contains("Exit codes"));
  }

  void usageErrorsExitWithOne() {
    QCOMPARE(test::runCli({}).exitCode, 1);
    QCOMPARE(test::runCli({"inspect"}).exitCode, 1);
    QCOMPARE(test::runCli({"no-such-command"}).exitCode, 1);
    QCOMPARE(test::runCli({"inspect", "--no-such-flag", test::corpusModel("control_flow_op13.onnx")}).exitCode, 1);
  }
};

QTEST_GUILESS_MAIN(CliInspect)
#include "test_cli_inspect.moc"
