// The proofs of issue 28 through the command line, on corpus models, with ONNX Runtime as the referee:
// - pinning a dynamic model's dims (`edit --set-input-shape`) lets `convert`'s default passes fold its shape
//   arithmetic (Shape/Gather/Unsqueeze/Concat chains feeding Reshape): fewer nodes, no Shape node left, and ONNX
//   Runtime gives the optimised model the source's outputs at the pinned shape;
// - a model using an op the target opset lacks (ThresholdedRelu, first in opset 10) is refused by `check` and
//   `convert --opset 9`; replacing it by an equivalent op the target has (`set-op` to Relu: ThresholdedRelu with
//   alpha 0 is x > 0 ? x : 0) makes the conversion go through, and ONNX Runtime agrees with the source.
#include <QtTest>

#include <cmath>

#include "formats/model_io.h"
#include "ir/node.h"
#include "support/eval_oracle.h"
#include "support/helpers.h"

using namespace fb;
using test::runCli;
using test::writeText;

namespace {

size_t countOp(const ir::Model& m, const std::string& op) {
  size_t c = 0;
  for (const auto& n : m.graph().nodes()) c += n->opType == op;
  return c;
}

// ONNX Runtime on `a` and `b` with the same seeded inputs (made for `shapeOf`, whose dims are static): the largest
// absolute difference of their first outputs, or -1 with the failure in `why`.
double ortDifference(const QString& a, const QString& b, const QString& shapeOf, const QString& dir, QString& why) {
  QDir().mkpath(dir + "/in");
  const auto inputs = test::writeSeededInputs(shapeOf, dir + "/in");
  why = test::runOnnxRuntime(a, dir + "/ort_a", inputs.files);
  if (why.isEmpty()) why = test::runOnnxRuntime(b, dir + "/ort_b", inputs.files);
  if (!why.isEmpty()) return -1;
  const auto x = eval::readNpyFile((dir + "/ort_a/0.npy").toStdString());
  const auto y = eval::readNpyFile((dir + "/ort_b/0.npy").toStdString());
  if (x.dims() != y.dims()) {
    why = "the outputs' shapes differ";
    return -1;
  }
  const auto u = x.toDoubles(), v = y.toDoubles();
  double worst = 0;
  for (size_t k = 0; k < u.size(); ++k) worst = std::max(worst, std::abs(u[k] - v[k]));
  return worst;
}

}  // namespace

class CliEditProofsTest : public QObject {
  Q_OBJECT
 private slots:
  void pinnedDimsFoldUnderConvert_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("shape");
    QTest::newRow("transformer_encoder_op13_dyn") << "transformer_encoder_op13_dyn.onnx"
                                                  << "1,32,256";
    QTest::newRow("super_resolution_op13_dyn") << "super_resolution_op13_dyn.onnx"
                                               << "1,1,224,224";
  }
  void pinnedDimsFoldUnderConvert() {
    QFETCH(QString, file);
    QFETCH(QString, shape);
    const QString dir = test::scratchDir("cli_edit_pin_" + file.section('.', 0, 0));
    const QString src = test::corpusModel(file);
    const QString pinned = dir + "/pinned.onnx", dynOpt = dir + "/dynamic_opt.onnx", pinOpt = dir + "/pinned_opt.onnx";
    auto r = runCli({"edit", src, "--set-input-shape", "input=" + shape, "-o", pinned});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({"convert", src, "-o", dynOpt});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({"convert", pinned, "-o", pinOpt});
    QVERIFY2(r.exitCode == 0, r.err.constData());

    auto source = loadModel(src.toStdString());
    auto dynamic = loadModel(dynOpt.toStdString());
    auto optimised = loadModel(pinOpt.toStdString());
    QVERIFY(!source->graph().inputs()[0]->type.hasStaticShape());
    QVERIFY(optimised->graph().inputs()[0]->type.hasStaticShape());
    const size_t shapesBefore = countOp(*source, "Shape");
    qInfo("%s: %zu nodes (%zu Shape); convert's default passes: %zu nodes dynamic (%zu Shape), %zu pinned (%zu Shape)",
          qPrintable(file), source->graph().nodeCount(), shapesBefore, dynamic->graph().nodeCount(),
          countOp(*dynamic, "Shape"), optimised->graph().nodeCount(), countOp(*optimised, "Shape"));
    QCOMPARE(countOp(*optimised, "Shape"), size_t(0));
    if (shapesBefore > 0) {
      // The shape arithmetic survives the passes while the dims are unknown, and folds once they are pinned.
      QVERIFY(countOp(*dynamic, "Shape") > 0);
      QVERIFY(optimised->graph().nodeCount() < dynamic->graph().nodeCount());
      for (const char* op : {"Gather", "Unsqueeze", "Concat", "ConstantOfShape", "Constant"})
        QVERIFY2(countOp(*optimised, op) == 0, op);
    } else {
      QCOMPARE(optimised->graph().nodeCount(), dynamic->graph().nodeCount());
    }

    QString why;
    const double worst = ortDifference(src, pinOpt, pinned, dir, why);
    QVERIFY2(worst >= 0, qPrintable(why));
    qInfo("ONNX Runtime, source vs edited and optimised: max abs difference %g", worst);
    // ONNX Runtime rounds a graph with fewer nodes differently: float rounding, nothing more.
    QVERIFY2(worst < 1e-4, qPrintable(QString("max abs difference %1").arg(worst)));
  }

  void replacingAnOpTheTargetLacksMakesItConvertible() {
    const QString dir = test::scratchDir("cli_edit_replace_op");
    const QString src = test::corpusModel("super_resolution_op17.onnx");
    auto source = loadModel(src.toStdString());
    QByteArray toThresholded, toRelu;
    for (const auto& n : source->graph().nodes())
      if (n->opType == "Relu") {
        const QByteArray name = "\"" + QByteArray::fromStdString(n->name) + "\"";
        toThresholded += "set-op node=" + name + " op=ThresholdedRelu\nset-attr node=" + name + " name=alpha value=0\n";
        toRelu += "set-op node=" + name + " op=Relu\nremove-attr node=" + name + " name=alpha\n";
      }
    QVERIFY(!toRelu.isEmpty());

    // The model as an exporter that writes ThresholdedRelu(alpha=0) for ReLU would give it: the same function.
    const QString thresholded = dir + "/thresholded.onnx";
    auto r =
        runCli({"edit", src, "--script", writeText(dir + "/to_thresholded.txt", toThresholded), "-o", thresholded});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QString why;
    double worst = ortDifference(src, thresholded, src, dir + "/thresholded_vs_source", why);
    QVERIFY2(worst >= 0 && worst < 1e-5, qPrintable(why + QString(" difference %1").arg(worst)));

    // Opset 9 has no ThresholdedRelu: the dry run and the conversion refuse it, naming the op, nothing written.
    r = runCli({"check", thresholded, "--opset", "9"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.out.contains("ThresholdedRelu does not exist at opset 9"), r.out.constData());
    const QString refused = dir + "/refused.onnx";
    r = runCli({"convert", thresholded, "--opset", "9", "-o", refused});
    QCOMPARE(r.exitCode, 3);
    QVERIFY(!QFile::exists(refused));

    // The fix: each ThresholdedRelu(alpha=0) replaced by the Relu opset 9 has.
    const QString fixed = dir + "/fixed.onnx", converted = dir + "/fixed_op9.onnx";
    r = runCli({"edit", thresholded, "--script", writeText(dir + "/to_relu.txt", toRelu), "-o", fixed});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({"check", fixed, "--opset", "9"});
    QVERIFY2(r.exitCode == 0 && r.out.contains("convertible"), r.out.constData());
    r = runCli({"convert", fixed, "--opset", "9", "-o", converted});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto result = loadModel(converted.toStdString());
    QCOMPARE(result->opsetVersion(""), int64_t(9));
    QCOMPARE(countOp(*result, "ThresholdedRelu"), size_t(0));
    QCOMPARE(countOp(*result, "Relu"), countOp(*source, "Relu"));

    worst = ortDifference(src, converted, src, dir + "/converted_vs_source", why);
    QVERIFY2(worst >= 0, qPrintable(why));
    qInfo("ONNX Runtime, source vs fixed and converted to opset 9: max abs difference %g", worst);
    QVERIFY2(worst < 1e-5, qPrintable(QString("max abs difference %1").arg(worst)));
  }
};

QTEST_GUILESS_MAIN(CliEditProofsTest)
#include "test_cli_edit_proofs.moc"
