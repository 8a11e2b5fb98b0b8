// Shapes as Python ints on the larger models (issue 25 point 2), minutes: resnet50 (make_corpus.py) and the corpus
// super_resolution model script with torch.jit.script (super_resolution also re-exported with dynamic axes and run
// at batch 1 and 3 in ONNX Runtime), and swin_t's small constants are literals or folded, not buffers.
#include <QtTest>

#include "support/static_shapes_check.h"
#include "oracle/oracle.h"
#include "support/corpus_export.h"
#include "support/helpers.h"

using namespace fb;

class TestCodegenShapesLarge : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(test::oracleInstalled(), "ONNX Runtime oracle missing: run tests/oracle/install.sh"); }

  void scriptAndReexport_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("reexport");
    QTest::newRow("super_resolution_op13_dyn") << test::corpusModel("super_resolution_op13_dyn.onnx") << true;
    QString why;
    const QString resnet = test::corpusExport("resnet50", "13", why);
    QVERIFY2(!resnet.isEmpty(), qPrintable(why));
    QTest::newRow("resnet50_op13") << resnet << false;  // exported with a fixed batch
  }

  void scriptAndReexport() {
    QFETCH(QString, model);
    QFETCH(bool, reexport);
    const QString why =
        test::scriptAndReexport(model, test::scratchDir("codegen_shapes/" + QFileInfo(model).baseName()), reexport);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  // swin_t: the integer constants of its window arithmetic are literals or folded away, not buffers.
  void smallConstantsAreLiterals() {
    QString why;
    const QString swin = test::corpusExport("swin_t", "17", why);
    QVERIFY2(!swin.isEmpty(), qPrintable(why));
    auto r = test::generate(swin, codegen::Flavour::PyTorch);
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

QTEST_GUILESS_MAIN(TestCodegenShapesLarge)
#include "test_codegen_shapes_large.moc"
