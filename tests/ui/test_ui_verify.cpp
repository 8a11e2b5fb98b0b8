// Verify in the Convert dock: the source and its previewed conversion run on the same seeded inputs off the UI
// thread; a faithful conversion agrees everywhere and the preview is coloured by error with a legend; a conversion
// broken on purpose (one handler replaced in this test) is caught, the first divergent node is the broken one, and
// the legend's button shows it on both sides. The threshold slider recolours without running again.
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
#include "ui/main_window.h"

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
  }
};

QTEST_MAIN(TestUiVerify)
#include "test_ui_verify.moc"
