// Every whole-model OneFlow fixture (torchvision CNNs, a transformer encoder, old layouts, text, JobSet,
// SavedModel) converted at opsets 9, 10, 11, 13, 17: the result passes libonnx's checker and strict shape
// inference, and ONNX Runtime's outputs equal PyTorch's within 1e-4 + 1e-3 |ref|.
#include <QtTest>

#include "check/onnx_check.h"
#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "oneflow_fixture.h"
#include "support/helpers.h"

using namespace fb;
namespace of = fb::test::oneflow;

class OneflowModels : public QObject {
  Q_OBJECT
 private slots:
  void fixturesExist();
  void convert_data();
  void convert();
};

void OneflowModels::fixturesExist() {
  const QStringList models = of::fixturesOfKind("model");
  for (const char* required : {"resnet18", "alexnet", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_0",
                               "shufflenet_v2_x1_0", "inception_v3", "densenet121", "efficientnet_b0",
                               "transformer_encoder", "small_net_saved_model", "small_net_blob_v03"})
    QVERIFY2(models.contains(required), required);
}

void OneflowModels::convert_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("opset");
  for (const auto& name : of::fixturesOfKind("model"))
    for (int opset : {9, 10, 11, 13, 17})
      QTest::newRow(qPrintable(QString("%1@%2").arg(name).arg(opset))) << name << opset;
}

void OneflowModels::convert() {
  QFETCH(QString, name);
  QFETCH(int, opset);
  const int minOpset = of::fixtureInfo(name).value("min_opset").toInt(7);
  try {
    auto model = loadModel(of::fixture(name).toStdString());
    QCOMPARE(QString::fromStdString(model->sourceFormat).left(7), QString("oneflow"));
    convert::ConvertOptions opts;
    opts.direction = "oneflow";
    opts.targetOpset = opset;
    auto result = convert::convertModel(*model, opts);
    QString problems;
    for (const auto& r : result.nodes)
      if (r.status == convert::NodeStatus::Unsupported || r.status == convert::NodeStatus::Failed)
        problems += QString::fromStdString(r.opType + " '" + r.nodeName + "': " + r.message) + "\n";
    if (opset < minOpset) {
      // Ops the fixture uses have no handler this low: every such node says which opset it needs.
      QVERIFY(result.count(convert::NodeStatus::Unsupported) > 0);
      for (const auto& r : result.nodes)
        if (r.status == convert::NodeStatus::Unsupported)
          QVERIFY2(r.message.find("needs opset ") != std::string::npos, r.message.c_str());
      return;
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QVERIFY2(result.error.empty(), result.error.c_str());
    QVERIFY(result.model);
    for (const auto& n : result.model->graph().nodes()) QVERIFY2(n->domain.empty(), n->opType.c_str());
    QString messages;
    for (const auto& m : result.check.messages) messages += QString::fromStdString(m.node + ": " + m.message) + "\n";
    QVERIFY2(result.check.ok, qPrintable(messages));
    // result.check is libonnx's checker plus strict shape inference on the converted model.
    auto& converted = *result.model;
    converted.sourcePath = model->sourcePath;

    const QString out = test::scratchDir("oneflow_models") + QString("/%1_%2.onnx").arg(name).arg(opset);
    onnxfmt::writeOnnxFile(converted, out.toStdString());
    auto verdict = of::runOrt(out, of::fixture(name));
    QFile::remove(out);
    QVERIFY2(verdict.ran, qPrintable(verdict.detail));
    QVERIFY2(verdict.ok, qPrintable(verdict.detail));
  } catch (const std::exception& e) {
    QFAIL(e.what());
  }
}

QTEST_GUILESS_MAIN(OneflowModels)
#include "test_convert_oneflow_models.moc"
