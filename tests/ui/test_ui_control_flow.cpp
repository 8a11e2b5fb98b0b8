// Issue 12, point 14: control flow in the inspector. An If offers both branches on a double-click and the
// breadcrumb names the one opened; values a body reads from outside are drawn as stub inputs; Find and the
// Operators panel cover every body; Find's matches stay usable after navigating; Ctrl+F raises the Find tab.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTableView>

#include "ir/graph.h"
#include "ir/model.h"
#include "support/helpers.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/graph/value_item.h"
#include "ui/main_window.h"
#include "ui/inspector/find_results_model.h"
#include "ui/inspector/operator_histogram_model.h"
#include "ui/inspector/find_panel.h"
#include "ui/inspector/operators_panel.h"

using namespace fb;
using namespace fb::ui;

namespace {

bool openAndWait(MainWindow& w, const QString& path) {
  QSignalSpy ok(w.document(), &Document::modelChanged);
  QSignalSpy failed(w.document(), &Document::loadFailed);
  w.openFile(path);
  QElapsedTimer t;
  t.start();
  while (ok.isEmpty() && failed.isEmpty() && t.elapsed() < 60000) QTest::qWait(10);
  QTest::qWait(20);
  return !ok.isEmpty();
}

const ir::Node* nodeOfType(const ir::Graph& g, const std::string& op) {
  for (const auto& n : g.nodes())
    if (n->opType == op) return n.get();
  return nullptr;
}

}  // namespace

class ControlFlowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");
    QCoreApplication::setApplicationName("test_ui_control_flow");
  }

  void ifOffersBothBranches() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    const ir::Node* ifNode = nodeOfType(w.document()->model()->graph(), "If");
    QVERIFY(ifNode);
    NodeItem* item = w.scene()->itemForNode(ifNode);
    QVERIFY(item);
    w.view()->centerOn(item);
    QTest::mouseDClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->mapFromScene(item->box().center()));
    QTest::qWait(20);
    QMenu* menu = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* m = qobject_cast<QMenu*>(top); m && m->objectName() == QStringLiteral("bodyMenu") && m->isVisible())
        menu = m;
    QVERIFY(menu);
    QStringList names;
    for (QAction* a : menu->actions()) names << a->text();
    QCOMPARE(names, (QStringList{"then_branch", "else_branch"}));
    menu->actions().last()->trigger();
    menu->close();
    QCOMPARE(w.document()->levelCount(), 2);
    QVERIFY2(w.document()->currentLevel().title.endsWith(QStringLiteral("else_branch")),
             qPrintable(w.document()->currentLevel().title));
    QVERIFY(nodeOfType(*w.document()->currentLevel().graph, "Neg"));  // the else branch, not the first body

    // The branch reads /Loop_output_0 from the main graph: a stub input (the weights it reads are listed on Gemm).
    int stubs = 0;
    for (auto* it : w.scene()->items())
      if (auto* v = qgraphicsitem_cast<ValueItem*>(it);
          v && v->role() == ValueItem::Role::Input && v->value()->isOuterScope()) {
        ++stubs;
        QCOMPARE(QString::fromStdString(v->value()->name()), QStringLiteral("/Loop_output_0"));
      }
    QCOMPARE(stubs, 1);
    const ir::Node* gemm = nodeOfType(*w.document()->currentLevel().graph, "Gemm");
    QVERIFY(gemm && w.scene()->itemForNode(gemm));
    QCOMPARE(w.scene()->itemForNode(gemm)->details().size(), 2);  // B and C: head.weight, head.bias
  }

  void findAndOperatorsCoverBodies() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    // Tanh lives only in the Loop body, Neg only in the If's else branch.
    auto* ops = w.operatorsPanel()->findChild<QTableView*>();
    QVERIFY(ops);
    auto* hist = qobject_cast<OperatorHistogramModel*>(ops->model());
    QVERIFY(hist);
    int tanhRow = -1;
    for (int r = 0; r < hist->rowCount(); ++r)
      if (hist->index(r, 0).data().toString() == QStringLiteral("Tanh")) tanhRow = r;
    QVERIFY(tanhRow >= 0);
    ops->clicked(hist->index(tanhRow, 0));
    QCOMPARE(w.document()->levelCount(), 2);
    QCOMPARE(w.document()->focusNode()->opType, std::string("Tanh"));
    w.document()->goToLevel(0);

    FindPanel* find = w.findPanel();
    find->setQuery(QStringLiteral("Neg"));
    auto* results = find->findChild<FindResultsModel*>();
    QVERIFY(results);
    auto nodeRows = [results](const QString& op) {
      int n = 0;
      for (int r = 0; r < results->rowCount(); ++r)
        n += results->data(results->index(r), Qt::DisplayRole).toString().contains("[" + op + "]");
      return n;
    };
    QCOMPARE(nodeRows(QStringLiteral("Neg")), 1);
    QVERIFY(results->data(results->index(0), Qt::DisplayRole)
                .toString()
                .contains(QStringLiteral("[Neg]  in /If/else_branch")));
    QVERIFY(find->goToNext());
    QCOMPARE(w.document()->focusNode()->opType, std::string("Neg"));
    QVERIFY(w.document()->currentLevel().title.contains(QStringLiteral("If")));
    // Back on the main graph the matches still work (they used to point into the graph left behind).
    w.document()->goToLevel(0);
    find->setQuery(QStringLiteral("Gemm"));
    QCOMPARE(nodeRows(QStringLiteral("Gemm")), 3);  // Loop body, then and else branches
    const int rows = results->rowCount();
    QVERIFY(find->goToNext());
    QVERIFY(w.document()->levelCount() == 2);
    w.document()->goToLevel(0);
    QCOMPARE(results->rowCount(), rows);
    QVERIFY(find->goToNext());
    QCOMPARE(w.document()->focusNode()->opType, std::string("Gemm"));
  }

  void ctrlFRaisesFind() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    auto* findDock = qobject_cast<QDockWidget*>(w.findPanel()->parentWidget());
    QVERIFY(findDock);
    QVERIFY(!w.tabifiedDockWidgets(findDock).isEmpty());
    w.conversion()->convertDock()->show();
    w.conversion()->convertDock()->raise();
    QTest::qWait(50);
    QVERIFY2(w.findPanel()->visibleRegion().isEmpty(), "the Convert tab is in front");
    QAction* findAction = nullptr;
    for (QAction* menu : w.menuBar()->actions())
      for (QAction* a : menu->menu()->actions())
        if (a->shortcut() == QKeySequence(QKeySequence::Find)) findAction = a;
    QVERIFY(findAction);
    findAction->trigger();
    QTest::qWait(50);
    QVERIFY(!w.findPanel()->visibleRegion().isEmpty());
  }
};

QTEST_MAIN(ControlFlowTest)
#include "test_ui_control_flow.moc"
