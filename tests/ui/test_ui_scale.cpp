// What lets the inspector open 100k-node graphs (issue 14): the first frame draws collapsed blocks laid out one
// block at a time, never waits for whole-model shape inference on a large graph, keeps Qt's global thread pool
// free for the raster engine, and expanding a block adds that block's items only. Structural checks on a
// generated transformer-like graph of ~25k nodes; the timings live in bench_scale / bench_ui_open.
#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>
#include <set>

#include "formats/onnx/onnx_writer.h"
#include "ir/graph.h"
#include "resources/synthetic_graph.h"
#include "support/helpers.h"
#include "support/wait_for_ui.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"
#include "ui/graph/value_item.h"
#include "ui/main_window.h"

using namespace fb;

namespace {

constexpr size_t kNodes = 25000;  // above LoadSettings::inferShapesBeforeFrameMaxNodes (20k)

QString bigModel() {
  static const QString path = [] {
    const QString p = test::scratchDir("ui_scale") + "/transformer_25k.onnx";
    onnxfmt::writeOnnxFile(*synthetic::makeTransformerLike(kNodes, true), p.toStdString());
    return p;
  }();
  return path;
}

std::set<const ir::Node*> drawnNodes(ui::GraphScene* scene) {
  std::set<const ir::Node*> out;
  for (auto* item : scene->items())
    if (auto* n = qgraphicsitem_cast<ui::NodeItem*>(item)) out.insert(n->node());
  return out;
}

std::set<int> blockItems(ui::GraphScene* scene, bool expanded) {
  std::set<int> out;
  for (auto* item : scene->items())
    if (auto* b = qgraphicsitem_cast<ui::BlockItem*>(item); b && b->isExpanded() == expanded) out.insert(b->block());
  return out;
}

// What the scene holds when the model arrives (modelChanged), before the event loop runs again.
struct AtFirstFrame {
  bool seen = false;
  bool typesPending = false;
  bool hadShapes = false;
  int globalPoolActive = -1;
};

}  // namespace

class TestUiScale : public QObject {
  Q_OBJECT

 private slots:
  void firstFrameIsCollapsedBlocksWithoutInference() {
    ui::MainWindow w;
    w.show();
    AtFirstFrame at;
    // After the scene is built for the new model (layoutChanged follows modelChanged), as the first frame sees it.
    auto conn = connect(w.document(), &ui::Document::layoutChanged, this, [&] {
      if (at.seen || !w.document()->model()) return;
      at.seen = true;
      at.typesPending = w.document()->typesPending();
      at.hadShapes = bool(w.document()->loaded().shapes);
      at.globalPoolActive = QThreadPool::globalInstance()->activeThreadCount();
    });
    QVERIFY(test::openAndWait(w, bigModel()));
    disconnect(conn);
    QVERIFY(at.seen);
    const ir::Model* model = w.document()->model();
    QVERIFY(model->graph().nodeCount() > 20000);
    // No whole-model shape inference before the first frame of a large graph: it follows on a worker.
    QVERIFY(at.typesPending);
    QVERIFY(!at.hadShapes);
    // The long work runs on the background pool (the types now; the conversion dry run after them, not beside
    // them); the global pool stays free for Qt's raster engine, which splits paints across it and waits (a busy
    // global pool stalled the first paint of 100k nodes for seconds).
    QCOMPARE(at.globalPoolActive, 0);
    QVERIFY(w.document()->typesPending());
    QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
    QCOMPARE(ui::backgroundPool()->activeThreadCount(), 1);
    const auto& level = w.document()->currentLevel();
    const auto& tree = level.layout->tree();
    const auto& placed = level.placed;
    // Blocks start collapsed: every drawn node is either a box of its own or inside exactly one collapsed block
    // on screen, and the boxes on screen stay within the loader's budget however large the graph.
    const auto nodes = drawnNodes(w.scene());
    const auto collapsed = blockItems(w.scene(), false);
    const auto expanded = blockItems(w.scene(), true);
    QVERIFY(!collapsed.empty());
    size_t hidden = 0;
    for (int b : collapsed) hidden += tree.blocks[size_t(b)].totalNodes;
    QCOMPARE(nodes.size() + hidden, tree.nodes.size());
    const size_t boxes = nodes.size() + collapsed.size();
    QVERIFY2(boxes <= ui::LoadSettings{}.maxVisibleBoxes, qPrintable(QString::number(boxes)));
    QVERIFY(nodes.size() < tree.nodes.size() / 10);
    int valueItems = 0, edgeItems = 0;
    for (auto* item : w.scene()->items()) {
      valueItems += item->type() == ui::ValueItem::Type;
      edgeItems += item->type() == ui::EdgeItem::Type;
    }
    QCOMPARE(size_t(edgeItems), placed.edges.size());
    QVERIFY(valueItems <= 4);
    // Layout per block: one layout call for each expanded block (the root included), none for collapsed ones.
    QVERIFY(placed.stats.dotCalls + placed.stats.layeredCalls <= int(expanded.size()) + 1);
    QVERIFY(tree.blocks.size() > 10 * (expanded.size() + 1));

    // The types arrive after the frame, and the scene shows them then.
    int globalAtTypes = -1, backgroundAtTypes = -1;
    connect(w.document(), &ui::Document::typesChanged, this, [&] {
      globalAtTypes = QThreadPool::globalInstance()->activeThreadCount();
      backgroundAtTypes = ui::backgroundPool()->activeThreadCount();
    });
    QSignalSpy types(w.document(), &ui::Document::typesChanged);
    if (w.document()->typesPending()) QVERIFY(types.wait(120000));
    // The dry run started with the types (the controller listens first), on the background pool.
    QCOMPARE(globalAtTypes, 0);
    QVERIFY(backgroundAtTypes >= 1);
    QVERIFY(!w.document()->typesPending());
    QVERIFY(w.document()->loaded().shapes && !w.document()->loaded().shapes->empty());
    int labelled = 0;
    for (auto* edge : w.scene()->edgeItems()) labelled += !edge->label().isEmpty();
    QVERIFY2(labelled > int(w.scene()->edgeItems().size()) / 2, qPrintable(QString::number(labelled)));
    QCOMPARE(drawnNodes(w.scene()), nodes);  // the same picture, with types
  }

  void expandingABlockAddsOnlyItsItems() {
    ui::MainWindow w;
    w.show();
    QVERIFY(test::openAndWait(w, bigModel()));
    const auto& tree = w.document()->currentLevel().layout->tree();
    const auto before = drawnNodes(w.scene());
    const auto collapsedBefore = blockItems(w.scene(), false);
    // A collapsed block with nodes of its own.
    int pick = -1;
    for (int b : collapsedBefore)
      if (!tree.blocks[size_t(b)].nodes.empty()) {
        pick = b;
        break;
      }
    QVERIFY(pick > 0);
    const auto& block = tree.blocks[size_t(pick)];
    w.document()->toggleBlock(pick);
    const auto& placed = w.document()->currentLevel().placed;
    // Re-laid out: the block and its ancestors at most; every other block comes from the cache.
    QVERIFY2(placed.stats.dotCalls + placed.stats.layeredCalls <= block.depth + 1,
             qPrintable(QString::number(placed.stats.dotCalls + placed.stats.layeredCalls)));
    const auto after = drawnNodes(w.scene());
    std::set<const ir::Node*> added;
    for (const ir::Node* n : after)
      if (!before.count(n)) added.insert(n);
    std::set<const ir::Node*> own;
    for (int i : block.nodes) own.insert(tree.nodes[size_t(i)]);
    QCOMPARE(added, own);
    for (const ir::Node* n : before) QVERIFY(after.count(n));
    // Its child blocks appear collapsed; the other collapsed blocks stay as they were.
    auto collapsedAfter = blockItems(w.scene(), false);
    for (int c : block.childBlocks) QVERIFY(collapsedAfter.erase(c));
    auto expected = collapsedBefore;
    expected.erase(pick);
    QCOMPARE(collapsedAfter, expected);
    QVERIFY(w.scene()->itemForBlock(pick) && w.scene()->itemForBlock(pick)->isExpanded());
    // Collapsing it again gives the first picture back.
    w.document()->toggleBlock(pick);
    QCOMPARE(drawnNodes(w.scene()), before);
  }

  void smallGraphsStillHaveTypesAtTheFirstFrame() {
    ui::MainWindow w;
    w.show();
    bool shapesAtFrame = false, pending = true;
    connect(w.document(), &ui::Document::modelChanged, this, [&] {
      shapesAtFrame = bool(w.document()->loaded().shapes);
      pending = w.document()->typesPending();
    });
    QVERIFY(test::openAndWait(w, test::corpusModel("super_resolution_op11.onnx")));
    QVERIFY(shapesAtFrame);
    QVERIFY(!pending);
    int labelled = 0;
    for (auto* edge : w.scene()->edgeItems()) labelled += !edge->label().isEmpty();
    QVERIFY(labelled > 0);
  }

  void closingWhileTypesArePendingDropsThem() {
    ui::Document doc;
    QSignalSpy changed(&doc, &ui::Document::modelChanged);
    QSignalSpy types(&doc, &ui::Document::typesChanged);
    doc.open(bigModel());
    QVERIFY(changed.wait(120000));
    QVERIFY(doc.typesPending());
    doc.close();
    QVERIFY(!doc.typesPending());
    // The inference still running finishes on its worker; its result belongs to no model now.
    QVERIFY(ui::backgroundPool()->waitForDone(120000));
    QTest::qWait(50);
    QCOMPARE(types.size(), 0);
    QVERIFY(!doc.loaded().shapes);
  }
};

QTEST_MAIN(TestUiScale)
#include "test_ui_scale.moc"
