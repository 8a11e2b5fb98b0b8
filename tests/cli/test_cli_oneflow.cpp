// flowbridge-cli on OneFlow fixtures: convert (direction picked from the input), check (dry run), inspect,
// with their exit codes and messages.
#include <QtTest>

#include "formats/model_io.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"

using namespace fb;
namespace of = fb::test::oneflow;

class OneflowCli : public QObject {
  Q_OBJECT
 private slots:
  void convertWritesOnnx();
  void unsupportedBelowOpsetWritesNothing();
  void checkReportsFailure();
  void inspectShowsOneflowOps();
};

void OneflowCli::convertWritesOnnx() {
  const QString out = test::scratchDir("oneflow_cli") + "/small.onnx";
  auto r = test::runCli({"convert", of::fixture("small_net"), "-o", out, "--opset", "11"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  QVERIFY2(r.out.contains("0 unsupported, 0 failed"), r.out.constData());
  auto m = loadModel(out.toStdString());
  QCOMPARE(m->opsetVersion(""), int64_t(11));
  QCOMPARE(m->opsetVersion("oneflow"), int64_t(0));
  QCOMPARE(QString::fromStdString(m->graph().outputs().at(0)->name()), QString("_SmallGraph_0-output_0/out"));
  QCOMPARE(QString::fromStdString(m->graph().inputs().at(0)->name()), QString("_SmallGraph_0-input_0/out"));
  // Default target for OneFlow input: opset 17.
  const QString out17 = test::scratchDir("oneflow_cli_default") + "/small.onnx";
  auto d = test::runCli({"convert", of::fixture("small_net_saved_model"), "-o", out17});
  QVERIFY2(d.exitCode == 0, d.err.constData());
  QCOMPARE(loadModel(out17.toStdString())->opsetVersion(""), int64_t(17));
}

void OneflowCli::unsupportedBelowOpsetWritesNothing() {
  const QString out = test::scratchDir("oneflow_cli_arange") + "/arange.onnx";
  auto r = test::runCli({"convert", of::fixture("op_arange"), "-o", out, "--opset", "10"});
  QCOMPARE(r.exitCode, 3);
  QVERIFY2(r.err.contains("needs opset 11"), r.err.constData());
  QVERIFY(!QFile::exists(out));
}

void OneflowCli::checkReportsFailure() {
  auto r = test::runCli({"check", of::fixture("op_normalization_training_error"), "--opset", "13"});
  QCOMPARE(r.exitCode, 3);
  QVERIFY2(r.out.contains("failed") && r.out.contains("training=true"), r.out.constData());
  auto ok = test::runCli({"check", of::fixture("mobilenet_v3_small"), "--opset", "9"});
  QVERIFY2(ok.exitCode == 0, ok.out.constData());
  QVERIFY(ok.out.contains("oneflow::hardswish: converted="));
}

void OneflowCli::inspectShowsOneflowOps() {
  auto r = test::runCli({"inspect", of::fixture("transformer_encoder"), "--json"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  auto doc = QJsonDocument::fromJson(r.out);
  QVERIFY(doc.isObject());
  QVERIFY2(r.out.contains("oneflow::layer_norm") && r.out.contains("oneflow::batch_matmul"),
           r.out.left(2000).constData());
}

QTEST_GUILESS_MAIN(OneflowCli)
#include "test_cli_oneflow.moc"
