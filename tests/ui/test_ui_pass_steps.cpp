// The optimizer pipeline in the app (issue 12, point 9): per-pass figures of the preview's conversion (runs, time,
// nodes removed and added, op counts before -> after), and pass-by-pass stepping: each step shows the graph as one
// pass run left it, with what it added or modified marked and what it removed listed. Each step's graph on screen
// is the step's model itself (issue 23): no file is written to show it.
#include <QtTest>

#include <QAction>
#include <QDirIterator>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QTableWidget>

#include "support/wait_for_ui.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/model_diff.h"
#include "ui/conversion/pass_stepper.h"
#include "ui/graph/status_overlay.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/main_window.h"
#include "ui/conversion/convert_panel.h"
#include "ui/widgets/log_panel.h"

using namespace fb;
using namespace fb::ui;

namespace {

using fb::test::openAndWait;

using fb::test::previewAndWait;

// The value of a table cell in the row whose first column is `key`.
QVariant cell(QTableWidget* t, const QString& key, int column) {
  for (int row = 0; row < t->rowCount(); ++row)
    if (t->item(row, 0) && t->item(row, 0)->text() == key) return t->item(row, column)->data(Qt::DisplayRole);
  return {};
}

}  // namespace

class UiPassSteps : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_pass_steps");
    // This process's temporary files go to a folder of its own: stepping must leave it empty.
    tempDir_ = test::scratchDir("pass_steps_tmpdir");
    qputenv("TMPDIR", tempDir_.toLocal8Bit());
    QCOMPARE(QDir::tempPath(), tempDir_);
  }

  void figuresAndStepsOfTheDefaultPipeline() {
    MainWindow w;
    w.show();
    // A raw export: BatchNormalization, Constant and Identity nodes that the default passes fold away.
    QVERIFY(openAndWait(w, test::corpusModel("mobilenet_v2_op13_raw.onnx")));
    auto* controller = w.conversion()->controller();
    auto* stepper = w.conversion()->passStepper();
    QVERIFY(previewAndWait(w));
    const convert::ConvertResult* r = controller->conversion();
    QVERIFY(r && r->passesRan);

    // Convert > Pass Figures and Steps shows the dock.
    QVERIFY(!w.conversion()->passesDock()->isVisible());
    w.conversion()->passesAction()->trigger();
    QVERIFY(w.conversion()->passesDock()->isVisible());

    // Per-pass figures: one row per pass of the pipeline, with the pass manager's numbers.
    QTableWidget* figures = stepper->figuresTable();
    QCOMPARE(size_t(figures->rowCount()), r->passStats.perPass.size());
    qlonglong removedTotal = 0;
    for (const auto& p : r->passStats.perPass) {
      const QString name = QString::fromStdString(p.name);
      QCOMPARE(cell(figures, name, 1).toLongLong(), qlonglong(p.runs));
      QCOMPARE(cell(figures, name, 3).toLongLong(), qlonglong(p.total.nodesRemoved));
      QCOMPARE(cell(figures, name, 4).toLongLong(), qlonglong(p.total.nodesAdded));
      QVERIFY(cell(figures, name, 2).toDouble() >= 0);
      removedTotal += qlonglong(p.total.nodesRemoved);
    }
    QVERIFY(removedTotal > 200);  // 404 nodes become about 100
    // Op counts before -> after.
    QTableWidget* ops = stepper->opsTable();
    QVERIFY(r->opsBefore.count("BatchNormalization"));
    QCOMPARE(cell(ops, "BatchNormalization", 1).toLongLong(), qlonglong(r->opsBefore.at("BatchNormalization")));
    QCOMPARE(cell(ops, "BatchNormalization", 2).toLongLong(), 0);
    QCOMPARE(cell(ops, "Conv", 2).toLongLong(), qlonglong(r->opsAfter.at("Conv")));

    // Stepping: recorded off the UI thread.
    QSignalSpy recorded(stepper, &PassStepper::stepsRecorded);
    QSignalSpy shown(stepper, &PassStepper::stepShown);
    stepper->recordSteps();
    QVERIFY(stepper->isRecording());
    QVERIFY(recorded.wait(120000));
    const int steps = stepper->stepCount();
    QVERIFY(steps > 2);
    QCOMPARE(stepper->stepList()->count(), steps);
    QCOMPARE(stepper->modelAt(0)->graph().nodeCount(), r->passStats.nodesBefore);
    QCOMPARE(stepper->modelAt(steps - 1)->graph().nodeCount(), controller->convertedModel()->graph().nodeCount());
    // Every step is one pass run that changed the model, and its diff is what that run said it did.
    int bnStep = -1;
    for (int i = 1; i < steps; ++i) {
      const passes::PassStep* s = stepper->passStep(i);
      QVERIFY(s && s->change.changed());
      const ModelDiff d = diffGraphs(stepper->modelAt(i - 1)->graph(), stepper->modelAt(i)->graph());
      QVERIFY2(size_t(d.count(DiffKind::Removed)) == s->change.nodesRemoved,
               qPrintable(QString::fromStdString(s->pass)));
      QVERIFY2(size_t(d.count(DiffKind::Added)) == s->change.nodesAdded, qPrintable(QString::fromStdString(s->pass)));
      if (s->pass == "fuse_bn_into_conv" && bnStep < 0) bnStep = i;
    }
    QVERIFY(bnStep > 0);

    // Step 0 is shown first; then the BatchNormalization folding, with its graph on screen and its Convs marked.
    QVERIFY(shown.wait(60000));
    QCOMPARE(stepper->currentStep(), 0);
    shown.clear();
    stepper->stepList()->setCurrentRow(bnStep);
    QVERIFY(shown.wait(60000));
    QCOMPARE(stepper->currentStep(), bnStep);
    const auto model = stepper->modelAt(bnStep);
    QCOMPARE(stepper->stepDocument()->model(), model.get());
    QVERIFY(stepper->stepDocument()->path().isEmpty());
    QCOMPARE(stepper->stepScene()->nodeItemCount(), int(model->graph().nodeCount()));
    const ModelDiff& d = stepper->currentDiff();
    QVERIFY(d.count(DiffKind::Removed) > 0);
    for (const ir::Node* n : d.removed) QCOMPARE(n->opType, std::string("BatchNormalization"));
    QVERIFY(d.count(DiffKind::Modified) > 0);  // the Convs that took the BatchNormalization in
    QCOMPARE(stepper->stepOverlay()->markedCount(), d.count(DiffKind::Added) + d.count(DiffKind::Modified));
    const QString summary = stepper->stepSummary()->text();
    QVERIFY2(summary.contains("fuse_bn_into_conv"), qPrintable(summary));
    QVERIFY2(summary.contains(QString("BatchNormalization %1").arg(d.count(DiffKind::Removed))), qPrintable(summary));
    QVERIFY(w.logPanel()->toPlainText().contains(QString("Recorded %1 pass steps").arg(steps - 1)));
    // The marks are the diff's, on the step's own node ids: each Conv that took a BatchNormalization in is marked.
    int marked = 0;
    for (const auto& n : model->graph().nodes())
      if (d.after.value(n->id(), DiffKind::Same) == DiffKind::Modified) {
        QCOMPARE(n->opType, std::string("Conv"));
        ++marked;
      }
    QCOMPARE(marked, d.count(DiffKind::Modified));
    // Every step back and forth, then the last: none of them wrote a file.
    for (int step : {1, steps - 1, 0}) {
      shown.clear();
      stepper->showStep(step);
      QVERIFY(shown.wait(60000));
      QCOMPARE(stepper->stepDocument()->model(), stepper->modelAt(step).get());
    }
    QStringList files;
    for (QDirIterator it(tempDir_, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
      files << it.next();
    QCOMPARE(files, QStringList());

    // Another target drops the steps and the figures.
    w.conversion()->panel()->opsetBox()->setValue(11);
    QCOMPARE(stepper->stepCount(), 0);
    QCOMPARE(stepper->figuresTable()->rowCount(), 0);
    QVERIFY(!stepper->stepDocument()->model());
  }

 private:
  QString tempDir_;
};

QTEST_MAIN(UiPassSteps)
#include "test_ui_pass_steps.moc"
