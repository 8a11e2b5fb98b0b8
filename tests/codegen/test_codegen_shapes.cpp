// Shapes as Python ints, constants as literals (issue 25 point 2): the generated PyTorch code of the corpus
// transformer computes its attention block's shapes from `x.shape[i]` without building a single shape tensor, can be
// scripted with torch.jit.script, and exported again with torch.onnx.export and dynamic axes, the re-export running
// at batch 1 and 3 in ONNX Runtime with the source's outputs (tests/codegen/check_static_shapes.py). ONNX's integer
// semantics where Python differs (Div truncating negative numbers, Mod, negative Gather indices, Slice clamping,
// Reshape's 0) are checked against ONNX Runtime on a model made for it. The larger models (resnet50, swin_t,
// super_resolution) are in test_codegen_shapes_large.
#include <QtTest>

#include "support/static_shapes_check.h"
#include "oracle/oracle.h"
#include "support/helpers.h"

using namespace fb;
using fb::test::generate;
using fb::test::runPython;
using fb::test::write;

class TestCodegenShapes : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  // Each of the 6 attention blocks: no shape tensor, no tensor-to-list round trip, no helper reshaping.
  void attentionBlockComputesShapesAsInts() {
    auto r = generate(test::corpusModel("transformer_encoder_op13_dyn.onnx"), codegen::Flavour::PyTorch);
    QVERIFY(r->complete());
    const QStringList lines = QString::fromStdString(r->code->modelPy).split('\n');
    int attention = 0;
    for (const QString& line : lines) {
      if (!line.contains("/self_attn/")) continue;
      attention += line.contains("# /layers.0/self_attn/");
      for (const char* shapeTensor : {"torch.tensor(", ".tolist()", "_onnx_reshape", "torch.cat(", "_onnx_slice"})
        QVERIFY2(!line.contains(shapeTensor), qPrintable("a shape tensor in the attention block: " + line));
    }
    // 68 statements in layer 0's block before shapes became ints; the matrix products, softmax and projections remain.
    QVERIFY2(attention > 10 && attention <= 30, qPrintable(QString::number(attention)));
    // Every tensor the code still builds from ints is on its input's device.
    for (const QString& line : lines)
      if (line.contains("torch.tensor(") && !line.contains("def "))
        QVERIFY2(line.contains("device="), qPrintable(line));
  }

  // torch.jit.script, and torch.onnx.export with dynamic axes run at two batch sizes, against ONNX Runtime.
  void scriptAndReexport_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("reexport");
    QTest::newRow("transformer_encoder_op13_dyn") << test::corpusModel("transformer_encoder_op13_dyn.onnx") << true;
    // A Loop and an If: tracing records one path, so only scripting applies.
    QTest::newRow("control_flow_op13") << test::corpusModel("control_flow_op13.onnx") << false;
  }

  void scriptAndReexport() {
    QFETCH(QString, model);
    QFETCH(bool, reexport);
    const QString why =
        test::scriptAndReexport(model, test::scratchDir("codegen_shapes/" + QFileInfo(model).baseName()), reexport);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  // ONNX int64 semantics where Python's differ, both flavours, and scripted at batch 1 and 3. (Not re-exported: the
  // model outputs its ints as a tensor, which tracing records as a constant.)
  void integerSemanticsMatchOnnxRuntime() {
    const QString dir = test::scratchDir("codegen_shapes/shape_arith");
    const QString model = dir + "/shape_arith.onnx";
    bool ok = false;
    QString out = runPython({FB_SOURCE_DIR "/tests/codegen/make_shape_arith_model.py", model}, ok);
    QVERIFY2(ok, qPrintable(out));
    QStringList folders;
    for (auto flavour : {codegen::Flavour::PyTorch, codegen::Flavour::OneFlow}) {
      auto r = generate(model, flavour);
      QVERIFY(r->complete());
      // Everything is ints but the tensors the model outputs: no shape tensor is read back with tolist().
      const QString py = QString::fromStdString(r->code->modelPy);
      QVERIFY2(!py.contains(".tolist()"), qPrintable(py));
      QVERIFY2(py.contains("_onnx_int_div("), qPrintable(py));  // -7 / 2 truncates
      folders << write(*r, flavour, dir);
    }
    out = runPython(
        QStringList{FB_SOURCE_DIR "/tests/codegen/verify_generated.py", "--model", model, "--work", dir + "/verify"} +
            folders,
        ok);
    QVERIFY2(ok, qPrintable(out));
    out = runPython(
        {FB_SOURCE_DIR "/tests/codegen/check_static_shapes.py", "--model", model, "--work", dir + "/check", folders[0]},
        ok);
    QVERIFY2(ok, qPrintable(out));
  }
};

QTEST_GUILESS_MAIN(TestCodegenShapes)
#include "test_codegen_shapes.moc"
