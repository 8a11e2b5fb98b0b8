// The copies the evaluator keeps per loaded model (oneDNN layouts of Conv weights, aligned copies of unaligned
// initializers): a run of a real model makes them, a second run reuses them, and once the model is gone
// releaseOrphanedDerivedCopies frees them at once, copies of copies included, instead of at the next run.
#include <QtTest>

#include "eval/runtime/derived_copy_cache.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "support/helpers.h"

using namespace fb;

class TestEvalDerivedCopies : public QObject {
  Q_OBJECT
 private slots:
  void aClosedModelsCopiesAreFreed() {
    eval::releaseOrphanedDerivedCopies();  // what earlier tests in this process left
    {
      auto m = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
      const auto inputs = eval::makeInputs(*m, {}, {}, 3);
      const auto first = eval::runModel(*m, inputs.values);
      const auto second = eval::runModel(*m, inputs.values);
      QCOMPARE(first.outputs.size(), second.outputs.size());
      // The model is alive: nothing of its copies may go.
      QCOMPARE(eval::releaseOrphanedDerivedCopies(), size_t{0});
    }
    // squeezenet's Conv weights are 4.9 MB of float32: their blocked layouts are at least that.
    const size_t freed = eval::releaseOrphanedDerivedCopies();
    QVERIFY2(freed >= size_t{4} << 20, qPrintable(QString::number(freed)));
    QCOMPARE(eval::releaseOrphanedDerivedCopies(), size_t{0});
  }
};

QTEST_GUILESS_MAIN(TestEvalDerivedCopies)
#include "test_eval_derived_copies.moc"
