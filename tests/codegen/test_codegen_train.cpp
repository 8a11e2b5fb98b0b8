// Generated code whose train() trains (issue 25, point 3), both flavours (OneFlow against the stand-in):
// - mobilenet_v2 exported raw (corpus; BatchNormalization kept): one SGD step in train mode moves every BatchNorm's
//   running statistics as torchvision's own module does on the same batch, eval mode leaves them alone, and
//   `.double()` of the generated module runs in float64 (tests/codegen/train_mode_check.py; resnet50:
//   test_codegen_train_large);
// - a Dropout node of an inference-mode export drops in train mode only, and its unread mask is not computed;
// - a Cast to the type a value already has writes no statement, a Cast that changes values stays, and the code still
//   computes what ONNX Runtime computes.
#include <QtTest>

#include "codegen/codegen_test_helpers.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "oracle/oracle.h"

using namespace fb;
using ir::DataType;

namespace {

ir::TypeInfo floatType(std::vector<int64_t> dims, DataType t = DataType::Float) {
  ir::Shape s;
  for (auto d : dims) s.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(t, s);
}

}  // namespace

class TestCodegenTrain : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void batchNormTrainsAsTorchvisionDoes() {
    // mobilenet_v2 exported raw (the corpus): 52 BatchNormalization nodes, each nn.BatchNorm's behaviour with the
    // export's momentum (ONNX 0.9 -> torch 0.1). resnet50: test_codegen_train_large.
    const QStringList folders = test::convertToBothFlavours(test::corpusModel("mobilenet_v2_op13_raw.onnx"),
                                                            test::scratchDir("codegen_train/mobilenet_v2"));
    QCOMPARE(folders.size(), 2);
    QCOMPARE(test::readText(folders[0] + "/model.py").count("training=self.training, momentum=0.1, eps="), 52);
    QCOMPARE(test::readText(folders[1] + "/model.py").count("self.training, 0.1, "), 52);
    QString report;
    QVERIFY2(test::runPython(
                 QStringList{FB_SOURCE_DIR "/tests/codegen/train_mode_check.py", "batchnorm", "mobilenet_v2"} + folders,
                 report),
             qPrintable(report));
    QCOMPARE(report.count("\"ok\": true"), 2);
  }

  void dropoutDropsInTrainModeOnly() {
    // Dropout-13 as an inference-mode export leaves it: ratio an input, no training_mode (false), the mask named but
    // read by nothing.
    auto m = std::make_unique<ir::Model>();
    m->setOpsetVersion("", 13);
    m->irVersion = 8;
    ir::Graph& g = m->graph();
    g.name = "dropout_model";
    g.addInitializer(ir::Tensor::fromValues("ratio", DataType::Float, {}, std::vector<float>{0.3f}));
    ir::Value* x = g.getOrCreateValue("x");
    x->type = floatType({64, 256});
    g.addInput(x);
    ir::Value* y = g.getOrCreateValue("y");
    y->type = floatType({64, 256});
    ir::Value* mask = g.getOrCreateValue("mask");
    g.addNode("Dropout", {x, g.getOrCreateValue("ratio")}, {y, mask})->name = "/dropout/Dropout";
    g.addOutput(y);
    const QString dir = test::scratchDir("codegen_train/dropout");
    const QString file = dir + "/dropout.onnx";
    onnxfmt::writeOnnxFile(*m, file.toStdString());
    const QStringList folders = test::convertToBothFlavours(file, dir);
    for (const QString& folder : folders) {
      const QString code = test::readText(folder + "/model.py");
      QVERIFY2(code.contains("F.dropout(x, p=0.30000001192092896, training=self.training)") ||
                   code.contains("F.dropout(x, p=0.3"),
               qPrintable(code));
      QVERIFY2(!code.contains("ones_like") && !code.contains("mask"), qPrintable(code));  // the unread mask
    }
    QString report;
    QVERIFY2(test::runPython(
                 QStringList{FB_SOURCE_DIR "/tests/codegen/train_mode_check.py", "dropout", "0.3"} + folders, report),
             qPrintable(report));
    QCOMPARE(report.count("\"ok\": true"), 2);
  }

  void castsThatRestateTheTypeFollowTheModule() {
    // x (float) -> Cast(FLOAT) -> Relu -> y1: the cast restates the type, no statement; x -> Cast(INT32) ->
    // Cast(FLOAT) -> y2: truncation, which both casts keep.
    auto m = std::make_unique<ir::Model>();
    m->setOpsetVersion("", 13);
    m->irVersion = 8;
    ir::Graph& g = m->graph();
    g.name = "casts";
    ir::Value* x = g.getOrCreateValue("x");
    x->type = floatType({3, 4});
    g.addInput(x);
    auto value = [&](const char* name, DataType t) {
      ir::Value* v = g.getOrCreateValue(name);
      v->type = floatType({3, 4}, t);
      return v;
    };
    ir::Value *same = value("same", DataType::Float), *y1 = value("y1", DataType::Float),
              *asInt = value("as_int", DataType::Int32), *y2 = value("y2", DataType::Float);
    g.addNode("Cast", {x}, {same})->setAttr(ir::Attribute::makeInt("to", 1));
    g.addNode("Relu", {same}, {y1});
    g.addNode("Cast", {x}, {asInt})->setAttr(ir::Attribute::makeInt("to", 6));
    g.addNode("Cast", {asInt}, {y2})->setAttr(ir::Attribute::makeInt("to", 1));
    g.addOutput(y1);
    g.addOutput(y2);
    const QString dir = test::scratchDir("codegen_train/casts");
    const QString file = dir + "/casts.onnx";
    onnxfmt::writeOnnxFile(*m, file.toStdString());
    const QStringList folders = test::convertToBothFlavours(file, dir);
    for (const QString& folder : folders) {
      const QString code = test::readText(folder + "/model.py");
      QVERIFY2(code.contains("F.relu(x)"), qPrintable(code));
      QCOMPARE(code.count(".to("), 2);
      QVERIFY2(code.contains("x.to(" + QString(folder.endsWith("oneflow") ? "flow" : "torch") + ".int32)"),
               qPrintable(code));
    }
    QString report;
    QVERIFY2(test::runPython(QStringList{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", file, "--work",
                                         dir + "/verify"} +
                                 folders,
                             report),
             qPrintable(report));
    // The PyTorch module in float64: y1 follows it, y2 is float32 as the model says.
    QVERIFY2(test::runPython(
                 {"-c", "import sys, torch; sys.path.insert(0, '" FB_SOURCE_DIR
                        "/tests/codegen'); from generated_module import load_generated; m, _ = load_generated('" +
                            folders[0] +
                            "', 0); y1, y2 = m.double()(torch.rand(3, 4, dtype=torch.float64) * 4); "
                            "assert y1.dtype == torch.float64 and y2.dtype == torch.float32, (y1.dtype, y2.dtype)"},
                 report),
             qPrintable(report));
  }
};

QTEST_GUILESS_MAIN(TestCodegenTrain)
#include "test_codegen_train.moc"
