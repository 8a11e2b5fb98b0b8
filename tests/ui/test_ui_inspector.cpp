// The desktop inspector on the offscreen platform: every corpus model opens with one scene item per node,
// the panels show what the model holds, Find, subgraphs, bad files and --screenshot.
#include <QtTest>

#include <QDockWidget>
#include <QMessageBox>
#include <QApplication>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QTableView>
#include <QTreeView>

#include "support/wait_for_ui.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "resources/synthetic_graph.h"
#include "ir/graph.h"
#include "support/helpers.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"
#include "ui/graph/value_item.h"
#include "ui/main_window.h"
#include "ui/inspector/find_results_model.h"
#include "ui/inspector/operator_histogram_model.h"
#include "ui/inspector/property_tree_model.h"
#include "ui/inspector/find_panel.h"
#include "ui/inspector/node_panel.h"
#include "ui/inspector/operators_panel.h"
#include "ui/inspector/tensor_panel.h"
#include "ui/inspector/model_panel.h"
#include "ui/widgets/log_panel.h"

using namespace fb;

namespace {

using fb::test::openAndWait;

const ir::Node* findNode(const ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes())
    if (n->name == name) return n.get();
  return nullptr;
}

int countItems(QGraphicsScene* s, int type) {
  int n = 0;
  for (auto* item : s->items())
    if (item->type() == type) ++n;
  return n;
}

// Nodes on screen, counting the constants folded into their consumers' boxes (issue 12, point 11).
int foldedNodes(ui::MainWindow& w) { return int(w.document()->currentLevel().layout->folding().folded.size()); }
int shownNodes(ui::MainWindow& w) { return w.scene()->nodeItemCount() + foldedNodes(w); }

QString flowbridgeApp() { return QFileInfo(QStringLiteral(FB_CLI_PATH)).dir().filePath(QStringLiteral("flowbridge")); }

}  // namespace

class InspectorTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName("FlowBridgeTests");  // keep Open Recent away from the user's
    QCoreApplication::setApplicationName("test_ui_inspector");
  }

  void oneItemPerNode_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void oneItemPerNode() {
    QFETCH(QString, file);
    ui::MainWindow w;
    w.show();
    QVERIFY2(openAndWait(w, test::corpusModel(file)), qPrintable(w.lastError()));
    const auto facts = test::manifest().value(file).toObject();
    const int nodes = facts.value("nodes").toInt();
    QCOMPARE(shownNodes(w), nodes);
    QCOMPARE(countItems(w.scene(), ui::NodeItem::Type) + foldedNodes(w), nodes);
    // Inputs and outputs are items too, and every item sits inside the scene rectangle.
    QCOMPARE(countItems(w.scene(), ui::ValueItem::Type),
             facts.value("outputs").toArray().size() + facts.value("inputs").toArray().size());
    for (auto* item : w.scene()->items()) QVERIFY(w.scene()->sceneRect().contains(item->sceneBoundingRect().center()));
    QVERIFY(!w.scene()->edgeItems().isEmpty());
    // The operators histogram adds up to the node count (bodies of If/Loop/Scan included) and matches the
    // manifest (which counts the top-level graph only).
    auto* ops = w.operatorsPanel()->model();
    const int inBodies = facts.value("subgraph_nodes").toInt();
    int total = 0;
    for (int r = 0; r < ops->rowCount(); ++r) {
      total += ops->data(ops->index(r, 1), Qt::DisplayRole).toInt();
      if (inBodies == 0)
        QCOMPARE(ops->data(ops->index(r, 1), Qt::DisplayRole).toInt(),
                 facts.value("ops").toObject().value(ops->opAt(r)).toInt());
    }
    QCOMPARE(total, nodes + inBodies);
    // The Model panel agrees with the manifest (counted by python's onnx).
    auto* info = w.modelPanel()->model();
    QCOMPARE(info->valueOf("IR version").toInt(), facts.value("ir_version").toInt());
    QCOMPARE(info->valueOf("initializers").toInt(), facts.value("initializers").toInt());
    QCOMPARE(QLocale().toULongLong(info->valueOf("parameters")), qulonglong(facts.value("parameters").toDouble()));
    QVERIFY(info->valueOf("opsets").contains(
        QStringLiteral("ai.onnx %1").arg(facts.value("opsets").toObject().value("").toInt())));
    QVERIFY(info->valueOf("producer").startsWith(facts.value("producer").toObject().value("name").toString()));
  }

  // Closing the document leaves every panel and the scene with no model: nothing may still reach for it.
  void closingTheDocumentClearsTheWindow() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QVERIFY(w.windowTitle().contains("squeezenet1_0_op11.onnx"));
    w.document()->close();
    QCoreApplication::processEvents();
    QVERIFY(!w.document()->model());
    QCOMPARE(w.windowTitle(), QString("FlowBridge"));
    QCOMPARE(w.scene()->nodeItemCount(), 0);
  }

  void shapesOnEdges() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    // The first Conv's output is float[1,96,109,109] (7x7, stride 2 on 224): shape inference labels the edge.
    QStringList labels;
    for (auto* e : w.scene()->edgeItems()) labels << e->label();
    QVERIFY2(labels.contains("float[1,96,109,109]"), qPrintable(labels.mid(0, 10).join(" | ")));
    // Display-only: the model's own value_info is what the file holds, not what inference found.
    const auto fresh = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    QCOMPARE(w.document()->model()->graph().valueInfos().size(), fresh->graph().valueInfos().size());
  }

  void selectingNodeFillsNodePanel() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    const auto* conv = findNode(w.document()->model()->graph(), "/features/features.0/Conv");
    QVERIFY(conv);
    // Click on the node's item in the view, as a user would.
    auto* item = w.scene()->itemForNode(conv);
    QVERIFY(item);
    w.view()->centerOnNode(conv);
    const QPoint at = w.view()->mapFromScene(item->box().center());
    QTest::mouseClick(w.view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(w.document()->focusNode(), conv);
    auto* panel = w.nodePanel()->model();
    QCOMPARE(panel->valueOf("op type"), QStringLiteral("Conv"));
    QCOMPARE(panel->valueOf("name"), QStringLiteral("/features/features.0/Conv"));
    QCOMPARE(panel->valueOf("kernel_shape"), QStringLiteral("[7, 7]"));
    QCOMPARE(panel->valueOf("strides"), QStringLiteral("[2, 2]"));
    QVERIFY2(panel->valueOf("since version").startsWith("11 "), qPrintable(panel->valueOf("since version")));
    // The input rows show types and link to tensors; activating the weight shows it in the Tensor panel.
    const auto hits = panel->match(panel->index(0, 1), Qt::DisplayRole, "features.0.weight", 1,
                                   Qt::MatchStartsWith | Qt::MatchRecursive);
    QVERIFY(!hits.isEmpty());
    QVERIFY(hits.first().data().toString().contains("float[96,3,7,7]"));
    emit w.nodePanel()->view()->activated(hits.first());
    QCOMPARE(QString::fromStdString(w.document()->selectedValue()->name()), QStringLiteral("features.0.weight"));
    auto* tensor = w.tensorPanel()->model();
    QCOMPARE(tensor->valueOf("shape"), QStringLiteral("[96, 3, 7, 7]"));
    QCOMPARE(tensor->valueOf("elements"), QStringLiteral("14112"));
    QVERIFY(!tensor->valueOf("std").isEmpty());
    QVERIFY(tensor->valueOf("min").toDouble() < tensor->valueOf("max").toDouble());
    // Neighbours are highlighted: the Relu that consumes the Conv output.
    const auto* relu = conv->output(0)->uses().front().node;
    emit w.document()->selectionChanged();
    QVERIFY(w.scene()->itemForNode(relu));
  }

  void findLocatesTensor() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    w.findPanel()->setQuery("features.3.expand1x1.weight");
    QVERIFY(w.findPanel()->results()->totalMatches() >= 1);
    QVERIFY(w.findPanel()->goToNext());
    const ir::Value* v = w.document()->selectedValue();
    QVERIFY(v);
    QCOMPARE(QString::fromStdString(v->name()), QStringLiteral("features.3.expand1x1.weight"));
    // Its consumer is selected and drawn.
    QVERIFY(w.document()->focusNode());
    QCOMPARE(w.document()->focusNode()->opType, std::string("Conv"));
    QVERIFY(w.scene()->itemForNode(w.document()->focusNode()));
    // Op types match too; Enter cycles through the matches.
    w.findPanel()->setQuery("MaxPool");
    auto* results = w.findPanel()->results();
    int nodeMatches = 0;
    for (int r = 0; r < results->rowCount(); ++r) nodeMatches += results->matchAt(r).node ? 1 : 0;
    QCOMPARE(nodeMatches, 3);
    QVERIFY(results->matchAt(0).node);  // nodes are listed before tensors
    QVERIFY(w.findPanel()->goToNext());
    QVERIFY(w.findPanel()->goToNext());
    QCOMPARE(w.findPanel()->currentMatch(), 1);
    QCOMPARE(w.document()->focusNode()->opType, std::string("MaxPool"));
  }

  void operatorClickSelectsAll() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("mobilenet_v2_op11.onnx")));
    auto* ops = w.operatorsPanel()->model();
    int convRow = -1;
    for (int r = 0; r < ops->rowCount(); ++r)
      if (ops->opAt(r) == "Conv") convRow = r;
    QVERIFY(convRow >= 0);
    emit w.operatorsPanel()->view()->clicked(ops->index(convRow, 0));
    QCOMPARE(w.document()->selectedNodes().size(),
             test::manifest().value("mobilenet_v2_op11.onnx").toObject().value("ops").toObject().value("Conv").toInt());
    for (const auto* n : w.document()->selectedNodes()) QCOMPARE(n->opType, std::string("Conv"));
  }

  void subgraphsWithBreadcrumb() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("control_flow_op13.onnx")));
    const auto* ifNode = findNode(w.document()->model()->graph(), "/If");
    QVERIFY(ifNode);
    // Double-clicking the If node offers its bodies; the first is then_branch.
    w.view()->centerOnNode(ifNode);
    const QPoint at = w.view()->mapFromScene(w.scene()->itemForNode(ifNode)->box().center());
    QTest::mouseDClick(w.view()->viewport(), Qt::LeftButton, {}, at);
    QMenu* bodies = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* m = qobject_cast<QMenu*>(top); m && m->objectName() == QStringLiteral("bodyMenu") && m->isVisible())
        bodies = m;
    QVERIFY(bodies);
    bodies->actions().first()->trigger();
    bodies->close();
    QCOMPARE(w.document()->levelCount(), 2);
    const ir::Graph* body = ifNode->subgraphs().front();
    QCOMPARE(shownNodes(w), int(body->nodeCount()));
    // The Node panel of a Loop links its body graph; following it opens the body.
    w.document()->goToLevel(0);
    QCOMPARE(w.document()->levelCount(), 1);
    QCOMPARE(shownNodes(w), 8);
    const auto* loop = findNode(w.document()->model()->graph(), "/Loop");
    w.document()->selectNode(loop);
    auto* panel = w.nodePanel()->model();
    const auto hits =
        panel->match(panel->index(0, 0), Qt::DisplayRole, "body", 1, Qt::MatchExactly | Qt::MatchRecursive);
    QVERIFY(!hits.isEmpty());
    emit w.nodePanel()->view()->activated(hits.first().siblingAtColumn(1));
    QCOMPARE(w.document()->levelCount(), 2);
    QCOMPARE(shownNodes(w), int(loop->subgraphs().front()->nodeCount()));
  }

  void corruptFileKeepsPreviousModel() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    const ir::Model* before = w.document()->model();
    const QString dir = test::scratchDir("ui_corrupt");
    QFile bad(dir + "/broken.onnx");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    QFile good(test::corpusModel("squeezenet1_0_op11.onnx"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    bad.write(good.read(20000));  // a truncated real model
    bad.close();
    QVERIFY(!openAndWait(w, bad.fileName()));
    QVERIFY(w.lastError().size() > 0);
    QCOMPARE(w.document()->model(), before);
    QCOMPARE(shownNodes(w), 8);
    // The message box and the log both name the file.
    auto* box = w.findChild<QMessageBox*>("errorMessage");
    QVERIFY(box);
    QVERIFY(box->text().contains("broken.onnx"));
    QVERIFY(w.logPanel()->toPlainText().contains("broken.onnx"));
    box->close();
    // Still usable: another model opens.
    QVERIFY(openAndWait(w, test::corpusModel("squeezenet1_0_op11.onnx")));
    QCOMPARE(shownNodes(w), 82);
  }

  void collapsedBlocksExpandOnDoubleClick() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("mobilenet_v2_op13_raw.onnx")));
    w.document()->collapseAll();
    QVERIFY(w.scene()->nodeItemCount() < 404);
    ui::BlockItem* block = nullptr;
    for (auto* item : w.scene()->items())
      if (auto* b = qgraphicsitem_cast<ui::BlockItem*>(item); b && !b->isExpanded()) block = b;
    QVERIFY(block);
    const int before = w.scene()->nodeItemCount() + countItems(w.scene(), ui::BlockItem::Type);
    w.view()->fitAll();
    w.view()->centerOn(block->box().center());
    QTest::mouseDClick(w.view()->viewport(), Qt::LeftButton, {}, w.view()->mapFromScene(block->box().center()));
    QVERIFY(w.scene()->nodeItemCount() + countItems(w.scene(), ui::BlockItem::Type) > before);
    // Selecting a node hidden in a block reveals it.
    w.document()->collapseAll();
    const ir::Node* last = nullptr;
    for (const auto& n : w.document()->model()->graph().nodes())
      if (!w.scene()->itemForNode(n.get())) last = n.get();
    QVERIFY(last);
    w.document()->selectNode(last);
    QVERIFY(w.scene()->itemForNode(last));
  }

  void initializerToggleAndExport() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    const int without = countItems(w.scene(), ui::ValueItem::Type);
    w.document()->setShowInitializers(true);
    QCOMPARE(countItems(w.scene(), ui::ValueItem::Type), without + 8);
    const QString dir = test::scratchDir("ui_export");
    QVERIFY(w.exportImage(dir + "/sr.svg"));
    QVERIFY(w.exportImage(dir + "/sr.png"));
    QFile svg(dir + "/sr.svg");
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QImage png(dir + "/sr.png");
    QVERIFY(!png.isNull());
    QVERIFY(png.width() > 100 && png.height() > 100);
    QVERIFY(!w.exportImage(dir + "/sr.bmp"));
    QVERIFY(!QFile::exists(dir + "/sr.bmp"));
  }

  void cancelKeepsPreviousModel() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    const ir::Model* before = w.document()->model();
    const QString big = test::scratchDir("ui_cancel") + "/big.onnx";
    onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(10000, true), big.toStdString());
    QSignalSpy cancelled(w.document(), &ui::Document::loadCancelled);
    QSignalSpy changed(w.document(), &ui::Document::modelChanged);
    w.openFile(big);
    QVERIFY(w.document()->isLoading());
    w.document()->cancelLoad();  // what the status bar's Cancel button does
    QVERIFY(cancelled.wait(60000));
    QCOMPARE(changed.size(), 0);
    QVERIFY(!w.document()->isLoading());
    QCOMPARE(w.document()->model(), before);
    QCOMPARE(shownNodes(w), 8);
    // The same file opens fine when not cancelled, with blocks keeping the scene bounded.
    QVERIFY(openAndWait(w, big));
    QCOMPARE(w.document()->model()->graph().nodeCount(), size_t(9990));
    QVERIFY(w.scene()->items().size() < 9990);
    // Zoomed out, frames come from the overview pixmap, which shows the graph (not a blank view).
    w.view()->fitAll();
    QVERIFY(w.view()->zoom() < ui::GraphView::kOverviewZoom);
    const QImage shot = w.view()->viewport()->grab().toImage();
    QVERIFY(w.view()->overviewActive());
    int drawn = 0;
    const QRgb background = w.scene()->backgroundBrush().color().rgb();
    for (int y = 0; y < shot.height(); y += 2)
      for (int x = 0; x < shot.width(); x += 2) drawn += (shot.pixel(x, y) & 0xffffff) != (background & 0xffffff);
    QVERIFY2(drawn > 50, qPrintable(QString::number(drawn)));
  }

  void horizontalLayout() {
    ui::MainWindow w;
    w.show();
    QVERIFY(openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    auto position = [&](ui::ValueItem::Role role) {
      for (auto* item : w.scene()->items())
        if (auto* v = qgraphicsitem_cast<ui::ValueItem*>(item); v && v->role() == role) return v->box().center();
      return QPointF(-1, -1);
    };
    QVERIFY(position(ui::ValueItem::Role::Input).y() < position(ui::ValueItem::Role::Output).y());
    w.document()->setHorizontal(true);
    QVERIFY(position(ui::ValueItem::Role::Input).x() < position(ui::ValueItem::Role::Output).x());
    QCOMPARE(shownNodes(w), 8);
  }

  void recentReloadDropAndShortcuts() {
    ui::MainWindow w;
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));  // menu shortcuts need the active window
    const QString sr = test::corpusModel("super_resolution_op11.onnx");
    QVERIFY(openAndWait(w, sr));
    QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), QFileInfo(sr).absoluteFilePath());
    // F5 reads the file again.
    QSignalSpy changed(w.document(), &ui::Document::modelChanged);
    QTest::keyClick(&w, Qt::Key_F5);
    QVERIFY(changed.wait(30000));
    QCOMPARE(shownNodes(w), 8);
    // Dropping a file opens it (the drop handler; synthetic drop events need a drag in progress).
    QVERIFY(w.acceptDrops());
    const QString sq = test::corpusModel("squeezenet1_0_op11.onnx");
    QMimeData mime;
    QVERIFY(!w.openFromMime(&mime));
    mime.setUrls({QUrl::fromLocalFile(sq)});
    QVERIFY(w.openFromMime(&mime));
    QVERIFY(changed.wait(30000));
    QCOMPARE(shownNodes(w), 82);
    QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), QFileInfo(sq).absoluteFilePath());
    QCOMPARE(QSettings().value("recentFiles").toStringList().value(1), QFileInfo(sr).absoluteFilePath());
    // Zoom and fit shortcuts.
    w.view()->setFocus();
    QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
    const double fitted = w.view()->zoom();
    QTest::keyClick(&w, Qt::Key_Equal, Qt::ControlModifier);
    QVERIFY(w.view()->zoom() > fitted * 1.1);
    QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
    QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
    // Back out, but no further than the fitted view (the floor is the fit without fitInView's margin).
    QVERIFY(w.view()->zoom() < fitted * 1.1);
    QVERIFY(w.view()->zoom() >= w.view()->fittedZoom() * 0.999);
    QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(w.view()->zoom(), fitted);
  }

  void screenshotWritesPng() {
    const QString out = test::scratchDir("ui_screenshot") + "/shot.png";
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    p.setProcessEnvironment(env);
    p.start(flowbridgeApp(), {"--screenshot", out, "--size", "1200x800", test::corpusModel("squeezenet1_0_op11.onnx")});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QImage img(out);
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), QSize(1200, 800));
    // Not a blank window: the node colours are in the picture.
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 4)
      for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
    QVERIFY(colours.size() > 20);

    // A corrupt model: exit code 2, one line naming the file, no PNG.
    const QString bad = test::scratchDir("ui_screenshot_bad") + "/bad.onnx";
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("garbage");
    f.close();
    const QString out2 = QFileInfo(bad).dir().filePath("shot.png");
    p.start(flowbridgeApp(), {"--screenshot", out2, bad});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(p.readAllStandardError().contains("bad.onnx"));
    QVERIFY(!QFile::exists(out2));
  }
};

QTEST_MAIN(InspectorTest)
#include "test_ui_inspector.moc"
