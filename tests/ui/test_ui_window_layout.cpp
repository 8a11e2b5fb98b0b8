// The window's layout on a laptop and a desktop screen (issue 26, point 2): on a first start the graph has at
// least 60 % of the window, the status table has room for at least 5 rows, the empty Node and Tensor panels stay out
// of the way until something is selected, Passes opens large enough to read, View > Reset Layout brings back
// the first start's arrangement, and the preview keeps the widths the user gave the docks.
#include <QtTest>

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>

#include "ir/graph.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_docks.h"
#include "ui/conversion/convert_panel.h"
#include "ui/conversion/pass_stepper.h"
#include "ui/conversion/status_table.h"
#include "ui/document.h"
#include "ui/graph/graph_view.h"
#include "ui/main_window.h"
#include "ui/preview/preview_split.h"

using namespace fb;
using namespace fb::ui;

namespace {

QDockWidget* dockNamed(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QLatin1String(name)); }

// The graph view's share of the window.
double graphShare(MainWindow& w) {
  return double(w.view()->width()) * w.view()->height() / (double(w.width()) * w.height());
}

// Whole rows the table's viewport has room for (a status table at the model's own opset has none to show).
int wholeRowsFitting(const QTableView* table) {
  return table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
}

// A window at `size` on a first start (no saved layout), showing squeezenet with its dry run done.
bool openFirstStart(MainWindow& w, QSize size) {
  w.resize(size);
  w.show();
  if (!QTest::qWaitForWindowExposed(&w)) return false;
  QSignalSpy dry(w.conversion()->controller(), &ConversionController::dryRunFinished);
  if (!test::openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx"))) return false;
  if (dry.isEmpty() && !dry.wait(60000)) return false;
  QTest::qWait(50);
  return true;
}

QString sizeText(const QWidget* w) { return QStringLiteral("%1x%2").arg(w->width()).arg(w->height()); }

}  // namespace

class WindowLayoutTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // Settings live in the build folder: every test is a first start, and the user's settings are not touched.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, test::scratchDir("window_layout_settings"));
    QCoreApplication::setOrganizationName(QStringLiteral("FlowBridgeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_ui_window_layout"));
  }
  void init() { QSettings().clear(); }
  void firstStartFitsTheScreen_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("laptop 1366x768") << QSize(1366, 768);
    QTest::newRow("desktop 1920x1080") << QSize(1920, 1080);
  }
  void firstStartFitsTheScreen() {
    QFETCH(QSize, size);
    MainWindow w;
    QVERIFY(openFirstStart(w, size));
    QCOMPARE(w.size(), size);
    QVERIFY2(graphShare(w) >= 0.6, qPrintable(QStringLiteral("graph %1 of %2").arg(sizeText(w.view()), sizeText(&w))));
    // Nothing is selected: Node and Tensor would be empty.
    QVERIFY(dockNamed(w, "Node")->isHidden());
    QVERIFY(dockNamed(w, "Tensor")->isHidden());

    // The status table (Convert dock) shows at least 5 whole rows.
    QDockWidget* convert = w.conversion()->convertDock();
    convert->raise();
    QTest::qWait(50);
    QTableView* table = w.conversion()->panel()->statusTable()->view();
    QVERIFY(table->isVisible());
    QVERIFY2(wholeRowsFitting(table) >= 5, qPrintable(QStringLiteral("room for %1 rows in a %2 table, dock %3")
                                                          .arg(wholeRowsFitting(table))
                                                          .arg(sizeText(table), sizeText(convert))));

    // Selecting a node brings out the Node panel at a readable width; a tensor, the Tensor panel.
    const ir::Node* conv = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (!conv && n->opType == "Conv") conv = n.get();
    QVERIFY(conv);
    w.document()->selectNode(conv);
    QTest::qWait(50);
    QDockWidget* node = dockNamed(w, "Node");
    QTRY_VERIFY(node->isVisible());
    QTRY_VERIFY2(node->width() >= 240, qPrintable(sizeText(node)));
    w.document()->selectValue(conv->inputs().front());
    QTest::qWait(50);
    QVERIFY(dockNamed(w, "Tensor")->isVisible());
  }

  void passesOpenReadable_data() { firstStartFitsTheScreen_data(); }
  void passesOpenReadable() {
    QFETCH(QSize, size);
    MainWindow w;
    QVERIFY(openFirstStart(w, size));
    QDockWidget* log = dockNamed(w, "Log");
    const int logHeight = log->height();
    w.conversion()->passesAction()->trigger();
    QTest::qWait(100);
    QDockWidget* passes = w.conversion()->passesDock();
    QVERIFY(passes->isVisible());
    const QString sizes = QStringLiteral("Passes %1 in a %2 window").arg(sizeText(passes), sizeText(&w));
    QVERIFY2(passes->width() >= size.width() * 0.6, qPrintable(sizes));
    QVERIFY2(passes->height() >= size.height() * 0.4, qPrintable(sizes));
    // The per-pass figures show rows, not a header over a sliver.
    QTableWidget* figures = w.conversion()->passStepper()->figuresTable();
    QVERIFY2(wholeRowsFitting(figures) >= 3,
             qPrintable(QStringLiteral("pass figures %1 high").arg(figures->viewport()->height())));
    // Closed again, the Log strip gets its height back: the graph keeps its room.
    passes->close();
    QTest::qWait(100);
    QVERIFY(log->isVisible());
    QVERIFY2(qAbs(log->height() - logHeight) <= 2,
             qPrintable(QStringLiteral("%1 vs %2").arg(log->height()).arg(logHeight)));
    QVERIFY(graphShare(w) >= 0.6);
  }

  void resetLayoutRestoresTheFirstStart() {
    MainWindow w;
    QVERIFY(openFirstStart(w, QSize(1366, 768)));
    QDockWidget* find = dockNamed(w, "Find");
    QDockWidget* log = dockNamed(w, "Log");
    const int findWidth = find->width(), logHeight = log->height();
    const double share = graphShare(w);
    // The user moves and closes panels.
    find->close();
    w.addDockWidget(Qt::RightDockWidgetArea, log);
    w.resizeDocks({w.conversion()->convertDock()}, {600}, Qt::Horizontal);
    dockNamed(w, "Tensor")->show();
    QTest::qWait(50);
    QVERIFY(graphShare(w) < 0.6);
    auto* reset = w.findChild<QAction*>(QStringLiteral("resetLayout"));
    QVERIFY(reset);
    reset->trigger();
    QTest::qWait(100);
    QVERIFY(find->isVisible());
    QCOMPARE(w.dockWidgetArea(log), Qt::BottomDockWidgetArea);
    QCOMPARE(w.dockWidgetArea(find), Qt::LeftDockWidgetArea);
    QVERIFY(dockNamed(w, "Tensor")->isHidden());
    QVERIFY2(qAbs(find->width() - findWidth) <= 2,
             qPrintable(QStringLiteral("%1 vs %2").arg(find->width()).arg(findWidth)));
    QVERIFY2(qAbs(log->height() - logHeight) <= 2,
             qPrintable(QStringLiteral("%1 vs %2").arg(log->height()).arg(logHeight)));
    QVERIFY(qAbs(graphShare(w) - share) < 0.01);
  }

  void previewKeepsTheDockWidths() {
    MainWindow w;
    QVERIFY(openFirstStart(w, QSize(1920, 1080)));
    w.document()->selectNode(w.document()->model()->graph().nodes().front().get());
    QTest::qWait(50);
    QDockWidget* find = dockNamed(w, "Find");
    QDockWidget* node = dockNamed(w, "Node");
    QVERIFY(node->isVisible());
    // The user's widths, unlike any the window picks itself.
    w.resizeDocks({find, node}, {333, 311}, Qt::Horizontal);
    QTest::qWait(50);
    const int findWidth = find->width(), nodeWidth = node->width();
    QVERIFY(qAbs(findWidth - 333) <= 2);
    w.conversion()->controller()->setTargetOpset(13);
    QVERIFY(test::previewAndWait(w));
    QTest::qWait(100);
    QVERIFY(w.conversion()->previewPane()->isVisible());
    QCOMPARE(find->width(), findWidth);
    QCOMPARE(node->width(), nodeWidth);
  }
};

QTEST_MAIN(WindowLayoutTest)
#include "test_ui_window_layout.moc"
