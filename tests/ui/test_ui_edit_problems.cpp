// Issue 28, live validation: after each edit of the open model its check, shape inference and the dry run at the
// current target run again on a worker; what they find shows on the node (an outline) and in the Problems dock,
// whose rows select their node. On squeezenet1_0_op11: a wrong Conv kernel_shape (the inferred shape no longer
// matches the declared one) is an error on that Conv, and putting the value back clears it; an op the target opset
// lacks (Relu turned into Round, target opset 9) turns the node Unsupported in the dry run and is listed, and undoing
// it clears both; a burst of edits is revalidated once, as the last one left the model. The window stays responsive
// while a 10k-node graph is revalidated (test_ui_edit_problems_large: swin_t and 100k nodes).
#include <QDockWidget>
#include <QLabel>
#include <QTableView>
#include <QtTest>

#include "convert/converter.h"
#include "edit_revalidation.h"
#include "preview_stalls.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/edit/problems_model.h"

using namespace fb;

namespace {

constexpr size_t kNodes = 10000;
// Same bound as test_ui_preview_responsive (a loaded 2-core CI machine): a check or dry run on the UI thread of
// a 10k-node graph (seconds) breaks it.
constexpr double kGapBoundMs = 250;

std::vector<const ir::Node*> nodesOf(const ir::Model& m, const std::string& op) {
  std::vector<const ir::Node*> out;
  for (const auto& n : m.graph().nodes())
    if (n->opType == op) out.push_back(n.get());
  return out;
}

std::string joined(const std::vector<int64_t>& v, int64_t add = 0) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x + add);
  return s;
}

edit::Edit setKernel(const ir::Node* conv, const std::string& value) {
  return edit::Edit{"set-attr", {{"node", conv->name}, {"name", "kernel_shape"}, {"value", value}}};
}

// Node ids the problems name (0: the whole model).
std::set<uint64_t> problemNodes(ui::MainWindow& w) {
  std::set<uint64_t> out;
  for (const ui::Problem& p : w.problems()->revalidator()->problems()) out.insert(p.nodeId);
  return out;
}

bool openSettled(ui::MainWindow& w, const QString& path) {
  if (!test::openAndWait(w, path)) return false;
  QElapsedTimer t;
  t.start();
  while (!w.conversion()->controller()->dryRun() && t.elapsed() < 60000) QTest::qWait(10);
  return w.conversion()->controller()->dryRun();
}

}  // namespace

class TestUiEditProblems : public QObject {
  Q_OBJECT

 private slots:
  void wrongAttributeShowsOnItsNodeAndInTheListUntilFixed() {
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openSettled(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    ui::Document* doc = w.document();
    ui::ProblemsDock* dock = w.problems();
    QVERIFY(!dock->revalidator()->hasResult());
    QVERIFY(dock->dock()->isHidden());
    const ir::Node* conv = nodesOf(*doc->model(), "Conv").at(0);
    const std::vector<int64_t> kernel = conv->attrInts("kernel_shape");
    QCOMPARE(kernel.size(), size_t(2));

    test::EditRun run = test::editMeasured(w, setKernel(conv, joined(kernel, 2)));
    QVERIFY(run.ok);
    // The inferred output no longer matches the declared one: an error on that Conv, and only there.
    const auto& problems = dock->revalidator()->problems();
    QVERIFY(!problems.isEmpty());
    QCOMPARE(problems.first().severity, ui::Problem::Severity::Error);
    QCOMPARE(problemNodes(w), std::set<uint64_t>{conv->id()});
    QVERIFY2(problems.first().message.contains(QLatin1String("shape")), qPrintable(problems.first().message));
    // No dry run of a model the check refuses: the conversion statuses say why instead of being about the old model.
    const ui::ConversionController* controller = w.conversion()->controller();
    QVERIFY(controller->dryRun() && !controller->dryRun()->error.empty());
    QVERIFY(!controller->statusOf(conv->id()));
    // The list: severity, node, message; its row selects the node.
    ui::ProblemsModel* model = dock->model();
    QCOMPARE(model->rowCount(), problems.size());
    QCOMPARE(model->index(0, ui::ProblemsModel::SeverityColumn).data().toString(), QStringLiteral("Error"));
    QCOMPARE(model->index(0, ui::ProblemsModel::NodeColumn).data().toString(), QString::fromStdString(conv->name));
    QCOMPARE(model->index(0, 0).data(ui::ProblemsModel::NodeIdRole).value<quint64>(), conv->id());
    QVERIFY(dock->summary()->text().contains(QLatin1String("1 errors")));
    // The dock, hidden until then, came out with the first problem.
    QTRY_VERIFY(dock->dock()->isVisible());
    doc->clearSelection();
    QTRY_VERIFY(dock->table()->isVisible());
    QTest::mouseClick(dock->table()->viewport(), Qt::LeftButton, {},
                      dock->table()->visualRect(model->index(0, ui::ProblemsModel::MessageColumn)).center());
    QCOMPARE(doc->focusNode(), conv);
    // The outline is on the node's item (the scene may rebuild after the selection expanded its block).
    QTRY_VERIFY(test::nodeItemOf(w, conv) && test::hasProblemOutline(test::nodeItemOf(w, conv)));
    QCOMPARE(dock->overlay()->markedCount(), 1);

    // Putting the value back clears the list and the outline.
    run = test::editMeasured(w, setKernel(conv, joined(kernel)));
    QVERIFY(run.ok);
    QVERIFY(dock->revalidator()->problems().isEmpty());
    QCOMPARE(model->rowCount(), 0);
    QCOMPARE(dock->overlay()->markedCount(), 0);
    QVERIFY(!test::hasProblemOutline(test::nodeItemOf(w, conv)));
    QVERIFY(dock->summary()->text().contains(QLatin1String("passes")));
    QVERIFY(controller->dryRun()->error.empty());
    QVERIFY(controller->statusOf(conv->id()));
  }

  void opTheTargetLacksUpdatesTheDryRunAndTheList() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openSettled(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    ui::Document* doc = w.document();
    ui::ConversionController* controller = w.conversion()->controller();
    controller->setTargetOpset(9);
    QTRY_VERIFY_WITH_TIMEOUT(controller->dryRun() && controller->dryRun()->targetOpset == 9, 30000);
    const ir::Node* relu = nodesOf(*doc->model(), "Relu").at(0);
    QVERIFY(controller->statusOf(relu->id()));
    QVERIFY(*controller->statusOf(relu->id()) != convert::NodeStatus::Unsupported);
    const convert::ConvertResult* before = controller->dryRun();
    const size_t unsupportedBefore = before->count(convert::NodeStatus::Unsupported);

    // Round exists from opset 11 (the model's): the model stays valid, but opset 9 has no Round.
    QVERIFY(test::editMeasured(w, edit::Edit{"set-op", {{"node", relu->name}, {"op", "Round"}}}).ok);
    QVERIFY(controller->dryRun() != before);
    QCOMPARE(controller->dryRun()->targetOpset, int64_t(9));
    QCOMPARE(*controller->statusOf(relu->id()), convert::NodeStatus::Unsupported);
    QCOMPARE(controller->dryRun()->count(convert::NodeStatus::Unsupported), unsupportedBefore + 1);
    const auto& problems = w.problems()->revalidator()->problems();
    QCOMPARE(problems.size(), qsizetype(1));
    QCOMPARE(problems.first().nodeId, relu->id());
    QCOMPARE(problems.first().severity, ui::Problem::Severity::Warning);
    QVERIFY2(problems.first().message.contains(QLatin1String("Round")), qPrintable(problems.first().message));
    QCOMPARE(w.problems()->model()->rowCount(), 1);

    // Undone: Relu again, converted as before, nothing listed.
    test::undoInPlace(*doc);
    QVERIFY(test::waitForRevalidation(w));
    QCOMPARE(relu->opType, std::string("Relu"));
    QVERIFY(*controller->statusOf(relu->id()) != convert::NodeStatus::Unsupported);
    QCOMPARE(controller->dryRun()->count(convert::NodeStatus::Unsupported), unsupportedBefore);
    QVERIFY(w.problems()->revalidator()->problems().isEmpty());
    QCOMPARE(w.problems()->model()->rowCount(), 0);
  }

  void aBurstOfEditsEndsWithTheLastOnesResult() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openSettled(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    ui::Document* doc = w.document();
    const auto convs = nodesOf(*doc->model(), "Conv");
    const ir::Node* first = convs.at(0);
    const ir::Node* second = convs.at(1);
    const auto k1 = first->attrInts("kernel_shape"), k2 = second->attrInts("kernel_shape");
    QSignalSpy finished(w.problems()->revalidator(), &ui::Revalidator::finished);
    // No event-loop turn between the edits: each one cancels the run of the one before.
    for (const edit::Edit& e : {setKernel(first, joined(k1, 2)), setKernel(first, joined(k1, 4)),
                                setKernel(second, joined(k2, 2)), setKernel(first, joined(k1))})
      test::editInPlace(*doc, e);
    QVERIFY(test::waitForRevalidation(w));
    QTest::qWait(200);  // a stale result would arrive about now
    QCOMPARE(finished.size(), 1);
    QCOMPARE(problemNodes(w), std::set<uint64_t>{second->id()});

    // And back: the burst ends with a valid model.
    for (const edit::Edit& e :
         {setKernel(first, joined(k1, 2)), setKernel(second, joined(k2)), setKernel(first, joined(k1))})
      test::editInPlace(*doc, e);
    QVERIFY(test::waitForRevalidation(w));
    QTest::qWait(200);
    QCOMPARE(finished.size(), 2);
    QVERIFY(w.problems()->revalidator()->problems().isEmpty());
  }

  void revalidationKeepsTheWindowResponsive() {
    ui::MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openAndSettle(w, test::syntheticModel(kNodes)));
    ui::Document* doc = w.document();
    const ir::Node* named = nullptr;
    for (const auto& n : doc->model()->graph().nodes())
      if (!n->name.empty() && n->opType == "MatMul") named = n.get();
    QVERIFY(named);
    double worst = 0;
    for (int i = 0; i < 3; ++i) {
      const std::string to = named->name + "_edited" + std::to_string(i);
      const test::EditRun run = test::editMeasured(w, edit::Edit{"rename-node", {{"from", named->name}, {"to", to}}});
      QVERIFY(run.ok);
      const auto timing = w.problems()->revalidator()->lastTiming();
      qInfo(
          "%zu nodes: edit %.1f ms, revalidated in %.0f ms (copy %.0f, check %.0f, dry run %.0f), largest "
          "event-loop gap %.1f ms",
          kNodes, run.applyMs, run.revalidatedMs, timing.copyMs, timing.checkMs, timing.dryRunMs, run.largestGapMs);
      QVERIFY(timing.checkMs > 0);
      QVERIFY(timing.dryRunMs > 0);
      worst = std::max(worst, run.largestGapMs);
      // A rename keeps the model valid.
      QVERIFY(w.problems()->revalidator()->problems().isEmpty());
    }
    QVERIFY2(worst < kGapBoundMs, qPrintable(QString::number(worst)));
  }
};

QTEST_MAIN(TestUiEditProblems)
#include "test_ui_edit_problems.moc"
