// Verify in the Convert dock: the source and its previewed conversion run on the same seeded inputs off the UI
// thread; a faithful conversion agrees everywhere and the preview is coloured by error with a legend; a conversion
// broken on purpose (one handler replaced in this test) is caught, the first divergent node is the broken one, and
// the legend's button shows it on both sides. The threshold slider recolours without running again. The Tensor panel
// shows a selected node's outputs on both sides at once (source and result columns, their differences, two
// histograms on one range), whichever side it follows.
#include <QtTest>

#include <QPushButton>
#include <QSlider>

#include "convert/builtin_handlers.h"
#include "convert/handler_registry.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/error_legend.h"
#include "ui/graph/status_overlay.h"
#include "ui/conversion/verify_controller.h"
#include "ui/document.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/main_window.h"
#include "ui/widgets/histogram_view.h"
#include "eval/verify/value_diff.h"
#include "eval/verify/value_stats.h"
#include "ir/value.h"

using namespace fb;

namespace {

bool verifyAndWait(ui::MainWindow& w, bool* ok, QString* message) {
  QSignalSpy done(w.conversion()->verifier(), &ui::VerifyController::finished);
  w.conversion()->verifyAction()->trigger();
  if (!done.wait(240000)) return false;
  *ok = done.first().at(0).toBool();
  *message = done.first().at(1).toString();
  return true;
}

}  // namespace

class TestUiVerify : public QObject {
  Q_OBJECT
 private slots:
  void aFaithfulConversionAgrees() {
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QVERIFY(!w.conversion()->verifyAction()->isEnabled());  // nothing to verify before a preview
    QVERIFY(test::previewAndWait(w));
    QVERIFY(w.conversion()->verifyAction()->isEnabled());
    bool ok = false;
    QString message;
    QVERIFY(verifyAndWait(w, &ok, &message));
    QVERIFY2(ok, qPrintable(message));
    ui::VerifyController* v = w.conversion()->verifier();
    QVERIFY(v->hasResult());
    QVERIFY2(v->comparedCount() >= 5, qPrintable(QString::number(v->comparedCount())));
    QVERIFY2(!v->firstDivergentPreviewNode(), qPrintable(message));
    QVERIFY2(message.contains("agree"), qPrintable(message));
    QCOMPARE(w.conversion()->previewOverlay()->markedCount(), v->comparedCount());
    QVERIFY(w.conversion()->errorLegend()->isVisibleTo(w.conversion()->previewPane()));
    // Both sides hold their run's values for the Tensor panel.
    QVERIFY(w.document()->runValues());
    QVERIFY(w.conversion()->previewDocument()->runValues());
  }

  void aBrokenConversionIsLocated() {
    // Relu converted into Add(x, x): a wrong conversion the checker cannot see.
    convert::registerBuiltinHandlers();
    auto& registry = convert::HandlerRegistry::forDirection("onnx");
    for (int64_t since = 1; since <= 26; ++since)
      registry.add({"", "Relu", since, "test: Add(x, x) instead", [](ir::Node& n, convert::HandlerContext& ctx) {
                      if (!ctx.commit()) return;
                      ir::Value* x = n.input(0);
                      n.opType = "Add";
                      n.clearInputs();
                      n.addInput(x);
                      n.addInput(x);
                    }});
    ui::MainWindow w;
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    // To opset 17: at the model's own opset its nodes are kept as they are, without handlers.
    w.conversion()->controller()->setTargetOpset(17);
    QVERIFY(test::previewAndWait(w));
    bool ok = false;
    QString message;
    QVERIFY(verifyAndWait(w, &ok, &message));
    QVERIFY2(ok, qPrintable(message));
    ui::VerifyController* v = w.conversion()->verifier();
    const ir::Node* b = v->firstDivergentPreviewNode();
    const ir::Node* a = v->firstDivergentSourceNode();
    QVERIFY2(b && a, qPrintable(message));
    QCOMPARE(QString::fromStdString(b->opType), QString("Add"));  // the broken node, not one after it
    QCOMPARE(QString::fromStdString(a->opType), QString("Relu"));
    QVERIFY2(message.contains(QString::fromStdString(b->name)), qPrintable(message));
    // F8 / the legend's button selects it on both sides.
    w.conversion()->errorLegend()->firstButton()->click();
    QCOMPARE(w.conversion()->previewDocument()->focusNode(), b);
    QCOMPARE(w.document()->focusNode(), a);
    // The threshold slider recolours without running again: the doubled Relu is off by exactly 100 %, so at a
    // threshold of 10^0 it no longer counts as divergent, and at 10^-3 it is the first again.
    const int marked = w.conversion()->previewOverlay()->markedCount();
    w.conversion()->errorLegend()->slider()->setValue(0);
    QVERIFY(v->firstDivergentPreviewNode() != b);
    w.conversion()->errorLegend()->slider()->setValue(-3);
    QCOMPARE(v->firstDivergentPreviewNode(), b);
    QCOMPARE(w.conversion()->previewOverlay()->markedCount(), marked);

    // The Tensor panel, following the preview: the doubled Relu's output beside the source's Relu output.
    ui::TensorPanel* panel = w.tensorPanel();
    ui::Document* preview = w.conversion()->previewDocument();
    panel->setDocument(preview);
    preview->selectNode(b);
    const ir::Value* bOut = b->output(0);
    const ir::Value* aOut = a->output(0);
    const eval::Value* bValue = preview->runValueOf(bOut);
    const eval::Value* aValue = w.document()->runValueOf(aOut);
    QVERIFY(aValue && bValue);
    const eval::ValueStats aStats = eval::statsOf(aValue->tensor()), bStats = eval::statsOf(bValue->tensor());
    QVERIFY2(aStats.min >= 0 && bStats.min < 0, "Relu is not negative, x + x is");
    const eval::ValueDiff d = eval::diffValues(*aValue, *bValue, eval::Tolerance{});
    auto checkBothSides = [&](const QString& shownName) {
      ui::PropertyTreeModel* m = panel->model();
      QVERIFY(
          !m->match(m->index(0, 0), Qt::DisplayRole, "Source | result: " + shownName, 1, Qt::MatchExactly).isEmpty());
      QCOMPARE(m->headerData(1, Qt::Horizontal).toString(), QString("Source"));
      QCOMPARE(m->headerData(2, Qt::Horizontal).toString(), QString("Result"));
      QCOMPARE(m->valueOf("min", 1).toDouble(), QString::number(aStats.min, 'g', 6).toDouble());
      QCOMPARE(m->valueOf("min", 2).toDouble(), QString::number(bStats.min, 'g', 6).toDouble());
      QCOMPARE(m->valueOf("max", 2).toDouble(), QString::number(bStats.max, 'g', 6).toDouble());
      QVERIFY(!m->valueOf("first values", 1).isEmpty() &&
              m->valueOf("first values", 1) != m->valueOf("first values", 2));
      QVERIFY2(qAbs(m->valueOf("max abs difference").toDouble() - d.maxAbs) <= 1e-3 * d.maxAbs,
               qPrintable(m->valueOf("max abs difference")));
      QVERIFY2(qAbs(m->valueOf("max rel difference").toDouble() - d.maxRel) <= 1e-3 * d.maxRel,
               qPrintable(m->valueOf("max rel difference")));
      QVERIFY(d.maxRel > 0.5);
      // Two histograms on one range: from the smaller minimum to the larger maximum.
      QVERIFY(panel->histogram()->isVisibleTo(panel) && panel->resultHistogram()->isVisibleTo(panel));
      QCOMPARE(panel->histogram()->histogram().min, panel->resultHistogram()->histogram().min);
      QCOMPARE(panel->histogram()->histogram().max, panel->resultHistogram()->histogram().max);
      QCOMPARE(panel->histogram()->histogram().min, std::min(aStats.min, bStats.min));
      QCOMPARE(panel->histogram()->histogram().max, std::max(aStats.max, bStats.max));
    };
    checkBothSides(QString::fromStdString(bOut->name()));
    // Following the source: the same pair, from the source's Relu.
    panel->setDocument(w.document());
    w.document()->selectNode(a);
    checkBothSides(QString::fromStdString(aOut->name()));
    // A new preview drops the pairs: a single "Computed" section again (the source's run values stay).
    w.conversion()->controller()->setTargetOpset(16);
    QTRY_VERIFY(!v->hasResult());
    w.document()->selectNode(a);
    QVERIFY(panel->model()->valueOf("max abs difference").isEmpty());
    QVERIFY(!panel->resultHistogram()->isVisibleTo(panel));
  }
};

QTEST_MAIN(TestUiVerify)
#include "test_ui_verify.moc"
