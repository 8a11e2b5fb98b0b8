// Shapes as Python ints, constants as literals (issue 25 point 2): the generated PyTorch code of the corpus
// transformer computes its attention block's shapes from `x.shape[i]` without building a single shape tensor, can be
// scripted with torch.jit.script, and exported again with torch.onnx.export and dynamic axes, the re-export running
// at batch 1 and 3 in ONNX Runtime with the source's outputs (tests/codegen/check_static_shapes.py). ONNX's integer
// semantics where Python differs (Div truncating negative numbers, Mod, negative Gather indices, Slice clamping,
// Reshape's 0) are checked against ONNX Runtime on a model made for it. Small constants are literals: swin_t's
// generated module registers no integer buffer of up to 16 elements.
#include <QtTest>

#include <set>

#include "codegen/code_generator.h"
#include "formats/model_io.h"
#include "oracle/oracle.h"
#include "support/corpus_export.h"
#include "support/helpers.h"

using namespace fb;

namespace {

std::unique_ptr<codegen::CodegenResult> generate(const QString& model, codegen::Flavour flavour) {
  auto source = loadModel(model.toStdString());
  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  return std::make_unique<codegen::CodegenResult>(codegen::generatePython(*source, opts));
}

QString write(const codegen::CodegenResult& r, codegen::Flavour flavour, const QString& dir) {
  const QString out = dir + "/" + QString::fromLatin1(codegen::flavourName(flavour).data());
  codegen::writeGeneratedFolder(*r.code, flavour, out.toStdString());
  return out;
}

// Runs a Python script of tests/codegen; its last line of output is the JSON report.
QString runPython(const QStringList& args, bool& ok) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start("/usr/bin/python3", args);
  ok = p.waitForFinished(600000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
  return QString::fromUtf8(p.readAll());
}

}  // namespace

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
      if (!line.contains("# /layers.0/self_attn/")) continue;
      ++attention;
      for (const char* shapeTensor : {"torch.tensor(", ".tolist()", "_onnx_reshape", "torch.cat(", "_onnx_slice"})
        QVERIFY2(!line.contains(shapeTensor), qPrintable("a shape tensor in the attention block: " + line));
    }
    // 64 statements before shapes became ints; the matrix products, softmax and projections remain.
    QVERIFY2(attention > 10 && attention <= 24, qPrintable(QString::number(attention)));
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
    QTest::newRow("super_resolution_op13_dyn") << test::corpusModel("super_resolution_op13_dyn.onnx") << true;
    // A Loop and an If: tracing records one path, so only scripting applies.
    QTest::newRow("control_flow_op13") << test::corpusModel("control_flow_op13.onnx") << false;
    QString why;
    const QString resnet = test::corpusExport("resnet50", "13", why);
    QVERIFY2(!resnet.isEmpty(), qPrintable(why));
    QTest::newRow("resnet50_op13") << resnet << false;
  }

  void scriptAndReexport() {
    QFETCH(QString, model);
    QFETCH(bool, reexport);
    const QString dir = test::scratchDir("codegen_shapes/" + QFileInfo(model).baseName());
    auto r = generate(model, codegen::Flavour::PyTorch);
    QVERIFY(r->complete());
    const QString code = write(*r, codegen::Flavour::PyTorch, dir);
    QStringList args{FB_SOURCE_DIR "/tests/codegen/check_static_shapes.py", "--model", model, "--work", dir + "/check"};
    if (reexport) args << "--export" << dir + "/reexport.onnx";
    bool ok = false;
    const QString report = runPython(args << code, ok);
    QVERIFY2(ok, qPrintable(report));
    QVERIFY2(report.contains("\"script_3\": {\"ok\": true"), qPrintable(report));
    if (reexport) QVERIFY2(report.contains("\"export_3\": {\"ok\": true"), qPrintable(report));
  }

  // ONNX int64 semantics where Python's differ, both flavours, scripted and re-exported at batch 1 and 3.
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
    out = runPython({FB_SOURCE_DIR "/tests/codegen/check_static_shapes.py", "--model", model, "--work", dir + "/check",
                     "--export", dir + "/reexport.onnx", folders[0]},
                    ok);
    QVERIFY2(ok, qPrintable(out));
  }

  // swin_t: the integer constants of its window arithmetic are literals or folded away, not buffers.
  void smallConstantsAreLiterals() {
    QString why;
    const QString swin = test::corpusExport("swin_t", "17", why);
    QVERIFY2(!swin.isEmpty(), qPrintable(why));
    auto r = generate(swin, codegen::Flavour::PyTorch);
    QVERIFY(r->complete());
    int buffers = 0;
    for (const auto& w : r->code->weights) {
      if (w.parameter) continue;
      ++buffers;
      const bool small = w.tensor.dims.size() <= 1 && w.tensor.numElements() <= codegen::kMaxLiteralElements;
      QVERIFY2(!small, qPrintable(QString::fromStdString(w.key + " is a small constant kept as a buffer")));
    }
    // 484 buffers before (324 one-element int64 tensors, 160 scalars); the relative-position tables remain.
    QVERIFY2(buffers <= 24, qPrintable(QString::number(buffers)));
    qInfo("swin_t: %d buffers, %lld lines of model.py", buffers,
          static_cast<long long>(QString::fromStdString(r->code->modelPy).count('\n')));
  }
};

QTEST_GUILESS_MAIN(TestCodegenShapes)
#include "test_codegen_shapes.moc"
