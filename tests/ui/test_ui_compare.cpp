// File > Compare With... (issue 27): a second model opens beside the open one, its nodes paired by core/diff off the
// UI thread; changed nodes and nodes only on one side are marked on both graphs, the Compare dock's table lists the
// differences (filter by class and op, a row selects its nodes on both sides), selections follow each other through
// the pairs, and the Node and Tensor panels show the counterpart with what differs. A drop with Shift compares too,
// and Cancel stops the comparison.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QTableView>

#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/compare/compare_controller.h"
#include "ui/compare/compare_docks.h"
#include "ui/compare/compare_table.h"
#include "ui/compare/compare_view_sync.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/graph/graph_view.h"
#include "ui/document.h"
#include "ui/graph/status_overlay.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/main_window.h"
#include "ui/preview/preview_split.h"
#include "ui/theme/colors.h"

using namespace fb;
using namespace fb::ui;

namespace {

const ir::Node* nthOf(const ir::Graph& g, const std::string& op, size_t skip) {
  for (const auto& n : g.nodes())
    if (n->opType == op && skip-- == 0) return n.get();
  return nullptr;
}

const ir::Node* named(const ir::Model& m, const std::string& name) {
  for (const auto& n : m.graph().nodes())
    if (n->name == name) return n.get();
  return nullptr;
}

bool compareAndWait(MainWindow& w, const QString& path) {
  QSignalSpy done(w.compare()->controller(), &CompareController::finished);
  QSignalSpy failed(w.compare()->controller(), &CompareController::failed);
  w.compareWith(path);
  QElapsedTimer t;
  t.start();
  while (done.isEmpty() && failed.isEmpty() && t.elapsed() < 60000) QTest::qWait(10);
  QTest::qWait(50);
  return !done.isEmpty();
}

void waitForLayout(Document* d) {
  QElapsedTimer t;
  t.start();
  while (d->isLoading() && t.elapsed() < 30000) QTest::qWait(10);
  QTest::qWait(100);
}

}  // namespace

class CompareTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_compare");
    QSettings().clear();
    // B: mobilenet_v2 with the strides of one Conv changed, one weight element changed, one Clip removed and one
    // Relu inserted.
    auto m = loadModel(test::corpusModel("mobilenet_v2_op11.onnx").toStdString());
    ir::Graph& g = m->graph();
    auto* conv = const_cast<ir::Node*>(nthOf(g, "Conv", 10));
    conv->setAttr(ir::Attribute::makeInts("strides", {3, 3}));
    changedConv_ = conv->name;
    ir::Value* wv = nthOf(g, "Conv", 51)->input(1);
    changedWeight_ = wv->name();
    auto values = wv->initializer()->values<float>();
    values[0] += 0.25f;
    wv->initializer()->setBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
    auto* clip = const_cast<ir::Node*>(nthOf(g, "Clip", 5));
    removedClip_ = clip->name;
    g.replaceAllUses(clip->output(0), clip->input(0));
    g.removeNode(clip);
    ir::Value* v = nthOf(g, "Clip", 30)->output(0);
    ir::Value* out = g.createUniqueValue("inserted_out");
    g.replaceAllUses(v, out);
    g.addNode("Relu", {v}, {out})->name = "inserted_relu";
    edited_ = test::scratchDir("ui_compare") + "/mobilenet_edited.onnx";
    onnxfmt::writeOnnxFile(*m, edited_.toStdString());
  }

  void compareWithOpensBesideAndMarks() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(test::openAndWait(w, test::corpusModel("mobilenet_v2_op11.onnx")));
    auto* action = w.findChild<QAction*>(QStringLiteral("compareWith"));
    QVERIFY(action && !action->shortcut().isEmpty());
    QVERIFY(w.menuBar()->actions().first()->menu()->actions().contains(action));  // in the File menu
    QVERIFY(compareAndWait(w, edited_));
    CompareDocks* c = w.compare();
    Document* a = w.document();
    Document* b = c->controller()->documentB();
    waitForLayout(b);
    // Beside the source, half the width each.
    QVERIFY(c->pane()->isVisible());
    QCOMPARE(w.split()->shownView(), c->view());
    const QList<int> sizes = w.split()->sizes();
    const int paneSize = sizes[w.split()->indexOf(c->pane())];
    QVERIFY2(std::abs(sizes[0] - paneSize) <= 2, qPrintable(QString("%1 vs %2").arg(sizes[0]).arg(paneSize)));
    QVERIFY(c->dock()->isVisible());
    // Exactly the four edits: 1 changed, 1 only in A, 1 only in B in the table of differences.
    QCOMPARE(c->table()->filter()->rowCount(), 3);
    QVERIFY2(c->legend()->text().contains("only in A (1)"), qPrintable(c->legend()->text()));
    // Marks on both graphs: the changed Conv and the removed Clip in A, the Conv and the inserted Relu in B.
    a->expandAll();
    b->expandAll();
    waitForLayout(a);
    waitForLayout(b);
    QCOMPARE(c->overlayA()->markedCount(), 2);
    QCOMPARE(c->overlayB()->markedCount(), 2);
    QCOMPARE(c->controller()->colourOf(a, named(*a->model(), removedClip_)->id()), removedColor());
    QCOMPARE(c->controller()->colourOf(b, named(*b->model(), "inserted_relu")->id()), addedColor());

    // Filters: by class, then by op; a row selects its nodes on both sides.
    auto* classes = c->table()->classFilter();
    classes->setCurrentIndex(classes->findText("Only in B"));
    QCOMPARE(c->table()->filter()->rowCount(), 1);
    c->table()->activate(0);
    QCOMPARE(b->focusNode()->name, std::string("inserted_relu"));
    QVERIFY(a->selectedNodes().isEmpty());
    classes->setCurrentIndex(classes->findText("All nodes"));
    auto* ops = c->table()->opFilter();
    ops->setCurrentIndex(ops->findText("Conv"));
    QCOMPARE(c->table()->filter()->rowCount(), 52);
    classes->setCurrentIndex(classes->findText("Differences"));
    QCOMPARE(c->table()->filter()->rowCount(), 1);
    c->table()->activate(0);
    QCOMPARE(a->focusNode()->name, changedConv_);
    QCOMPARE(b->focusNode()->name, changedConv_);

    // Selections follow through the pairs, both ways.
    const ir::Node* gemm = nthOf(a->model()->graph(), "Gemm", 0);
    a->selectNode(gemm);
    QCOMPARE(b->focusNode()->opType, std::string("Gemm"));
    QCOMPARE(b->focusNode()->name, gemm->name);
    b->selectNode(nthOf(b->model()->graph(), "Conv", 3));
    QCOMPARE(a->focusNode()->name, nthOf(b->model()->graph(), "Conv", 3)->name);

    // Pan and zoom follow through the pairs: B's view comes to the counterpart of the node at A's centre.
    QVERIFY(c->syncAction()->isChecked());
    w.view()->zoomBy(1.5);
    const ir::Node* middle = nthOf(a->model()->graph(), "Conv", 25);  // not at an edge, where views cannot centre
    w.view()->centerOnNode(middle);
    QTest::qWait(400);
    QVERIFY2(std::abs(c->view()->zoom() - w.view()->zoom()) < 0.01 * w.view()->zoom(),
             qPrintable(QString("%1 vs %2").arg(c->view()->zoom()).arg(w.view()->zoom())));
    const NodeItem* middleB = c->scene()->itemForNode(named(*b->model(), middle->name));
    QVERIFY(middleB);
    const QPointF centreB = c->view()->mapToScene(c->view()->viewport()->rect().center());
    QVERIFY2(middleB->sceneBoundingRect().adjusted(-20, -20, 20, 20).contains(centreB), "B is not at the Conv");
    c->syncAction()->setChecked(false);
    const double zoomB = c->view()->zoom();
    w.view()->zoomBy(0.5);
    QTest::qWait(200);
    QCOMPARE(c->view()->zoom(), zoomB);
    c->syncAction()->setChecked(true);

    // The Node panel: the counterpart and both nodes' attributes, the differing one marked.
    a->selectNode(named(*a->model(), changedConv_));
    PropertyTreeModel* panel = w.nodePanel()->model();
    QCOMPARE(panel->valueOf("comparison"), QStringLiteral("changed"));
    const QString before = QString::fromStdString(named(*a->model(), changedConv_)->attr("strides")->valueToString());
    QCOMPARE(panel->valueOf(QStringLiteral("\u2260 strides")), QStringLiteral("A %1, B [3, 3]").arg(before));
    QCOMPARE(panel->valueOf(QStringLiteral("= group")),
             QString::number(nthOf(a->model()->graph(), "Conv", 10)->attrInt("group", 1)));

    // The Tensor panel: the other weight and the difference.
    a->selectValue(a->model()->graph().findValue(changedWeight_));
    PropertyTreeModel* tensor = w.tensorPanel()->model();
    QCOMPARE(tensor->valueOf("max abs diff"), QStringLiteral("0.25"));
    QVERIFY(tensor->valueOf("elements differing").startsWith("1 of "));

    // Closing drops the pane, the marks and the table.
    c->closeAction()->trigger();
    QTest::qWait(50);
    QVERIFY(!c->pane()->isVisible());
    QCOMPARE(c->overlayA()->markedCount(), 0);
    QCOMPARE(c->table()->tableModel()->rowCount(), 0);
  }

  void dropWithShiftCompares() {
    MainWindow w;
    w.show();
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(test::corpusModel("super_resolution_op17.onnx"))});
    QSignalSpy done(w.compare()->controller(), &CompareController::finished);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY(enter.isAccepted() && drop.isAccepted());
    QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 30000);
    // The open model stays: B is the dropped one.
    QVERIFY(w.document()->path().endsWith("super_resolution_op11.onnx"));
    QVERIFY(w.compare()->controller()->documentB()->name().endsWith("super_resolution_op17.onnx"));
    QCOMPARE(w.compare()->controller()->result()->counts().paired, size_t(8));
  }

  void badFileIsReportedAndAStays() {
    MainWindow w;
    w.show();
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    CompareController* c = w.compare()->controller();
    QSignalSpy failed(c, &CompareController::failed);
    const QString missing = test::scratchDir("ui_compare_bad") + "/missing.onnx";
    c->compareWith(missing);
    QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
    QVERIFY2(failed.first().first().toString().contains(missing), qPrintable(failed.first().first().toString()));
    QVERIFY(!c->isRunning() && !c->result());
    QVERIFY(!w.compare()->pane()->isVisible());
    QVERIFY(w.document()->model());
    QVERIFY(w.compare()->table()->summary()->text().contains("missing.onnx"));
  }

  void cancelStopsIt() {
    MainWindow w;
    w.show();
    QVERIFY(test::openAndWait(w, test::corpusModel("transformer_encoder_op13_dyn.onnx")));
    CompareController* c = w.compare()->controller();
    QSignalSpy cancelled(c, &CompareController::cancelled);
    QSignalSpy finished(c, &CompareController::finished);
    c->compareWith(test::corpusModel("transformer_encoder_op17.onnx"));
    QVERIFY(c->isRunning());
    c->cancel();
    QCOMPARE(cancelled.size(), 1);
    QTest::qWait(1500);
    QVERIFY(!c->isRunning());
    QVERIFY(finished.isEmpty());
    QVERIFY(!c->result());
    QVERIFY(!w.compare()->pane()->isVisible());
    // Another model in A drops a comparison.
    QVERIFY(compareAndWait(w, test::corpusModel("transformer_encoder_op17.onnx")));
    QVERIFY(c->result());
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QVERIFY(!c->result());
  }

 private:
  QString edited_;
  std::string changedConv_, changedWeight_, removedClip_;
};

QTEST_MAIN(CompareTest)
#include "test_ui_compare.moc"
