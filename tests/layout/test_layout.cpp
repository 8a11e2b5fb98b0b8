// core/layout: name-scope blocks, the bounded dot calls, the layered fallback and the block-by-block
// layout, on the corpus and on generated graphs. Overlapping boxes or lost nodes are real layout bugs.
#include <QtTest>

#include <set>

#include "formats/model_io.h"
#include "ir/graph.h"
#include "layout/block_tree.h"
#include "layout/dot_layout.h"
#include "layout/hierarchical_layout.h"
#include "layout/constant_folding_view.h"
#include "layout/layered_layout.h"
#include "resources/synthetic_graph.h"
#include "support/helpers.h"

using namespace fb;
using layout::PlacedItem;

namespace {

// Boxes of the same block level must not overlap; frames of expanded blocks contain their content, so
// they are left out, and so are pairs where one box is a frame.
QString firstOverlap(const layout::PlacedGraph& pg) {
  std::vector<const PlacedItem*> boxes;
  for (const auto& it : pg.items)
    if (!(it.kind == PlacedItem::Kind::Block && it.expanded)) boxes.push_back(&it);
  std::sort(boxes.begin(), boxes.end(),
            [](auto* a, auto* b) { return a->center.x - a->size.width / 2 < b->center.x - b->size.width / 2; });
  for (size_t i = 0; i < boxes.size(); ++i) {
    const auto* a = boxes[i];
    const double aRight = a->center.x + a->size.width / 2;
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const auto* b = boxes[j];
      if (b->center.x - b->size.width / 2 >= aRight - 0.5) break;
      const double overlapY = std::min(a->center.y + a->size.height / 2, b->center.y + b->size.height / 2) -
                              std::max(a->center.y - a->size.height / 2, b->center.y - b->size.height / 2);
      if (overlapY > 0.5)
        return QStringLiteral("boxes at (%1,%2) and (%3,%4) overlap")
            .arg(a->center.x)
            .arg(a->center.y)
            .arg(b->center.x)
            .arg(b->center.y);
    }
  }
  return {};
}

size_t countKind(const layout::PlacedGraph& pg, PlacedItem::Kind k) {
  return size_t(std::count_if(pg.items.begin(), pg.items.end(), [k](const PlacedItem& it) { return it.kind == k; }));
}

}  // namespace

class LayoutTest : public QObject {
  Q_OBJECT
 private slots:
  void nameScopes() {
    QCOMPARE(layout::nameScopes("/encoder/layer.3/attn/MatMul"),
             (std::vector<std::string>{"encoder", "layer.3", "attn"}));
    QCOMPARE(layout::nameScopes("/Conv"), std::vector<std::string>{});
    QCOMPARE(layout::nameScopes("Identity_0"), std::vector<std::string>{});
    QCOMPARE(layout::nameScopes("a//b/Op"), (std::vector<std::string>{"a", "b"}));
  }

  void dotPlacesBoxesApart() {
    layout::LayoutRequest req;
    req.boxes = {{60, 30}, {60, 30}, {60, 30}, {80, 30}};
    req.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    auto r = layout::layoutWithDot(req);
    QVERIFY(r.has_value());
    QVERIFY(r->byDot);
    QCOMPARE(r->centers.size(), size_t(4));
    // Top to bottom: the source above its consumers, the sink below them.
    QVERIFY(r->centers[0].y < r->centers[1].y);
    QVERIFY(r->centers[1].y < r->centers[3].y);
    QVERIFY(std::abs(r->centers[1].x - r->centers[2].x) >= 60);
    req.leftToRight = true;
    auto h = layout::layoutWithDot(req);
    QVERIFY(h && h->centers[0].x < h->centers[1].x && h->centers[1].x < h->centers[3].x);
  }

  void layeredFallbackRanksAndSeparates() {
    layout::LayoutRequest req;
    req.boxes = {{60, 30}, {60, 30}, {60, 30}, {80, 30}};
    req.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 0}};  // a back edge must not hang or crash it
    auto r = layout::layoutLayered(req);
    QVERIFY(!r.byDot);
    QVERIFY(r.centers[0].y < r.centers[1].y && r.centers[1].y < r.centers[3].y);
    QCOMPARE(r.centers[1].y, r.centers[2].y);
    QVERIFY(std::abs(r.centers[1].x - r.centers[2].x) >= 60);
  }

  void blockTreeOnCorpus_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::corpusModels()) QTest::newRow(qPrintable(f)) << f;
  }
  void blockTreeOnCorpus() {
    QFETCH(QString, file);
    auto m = loadModel(test::corpusModel(file).toStdString());
    const size_t maxChildren = 40;
    auto t = layout::buildBlockTree(m->graph(), maxChildren);
    QCOMPARE(t.nodes.size(), m->graph().nodeCount());
    QCOMPARE(t.blocks[0].totalNodes, m->graph().nodeCount());
    std::vector<int> seen(t.nodes.size(), 0);
    for (size_t b = 0; b < t.blocks.size(); ++b) {
      const auto& blk = t.blocks[b];
      QVERIFY2(blk.nodes.size() + blk.childBlocks.size() <= maxChildren,
               qPrintable(QString::fromStdString(t.path(int(b)))));
      for (int n : blk.nodes) {
        ++seen[n];
        QCOMPARE(t.blockOfNode[n], int(b));
      }
      for (int c : blk.childBlocks) QCOMPARE(t.blocks[c].parent, int(b));
    }
    for (size_t n = 0; n < seen.size(); ++n) QCOMPARE(seen[n], 1);
  }

  void scopesBecomeBlocks() {
    auto m = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    auto t = layout::buildBlockTree(m->graph());
    // squeezenet's Fire modules are exported as /features/features.3/squeeze/Conv ...: a block per module.
    std::set<std::string> paths;
    for (size_t b = 1; b < t.blocks.size(); ++b) paths.insert(t.path(int(b)));
    QVERIFY(paths.count("features"));
    QVERIFY(paths.count("features/features.3"));
    int n = -1;
    for (size_t i = 0; i < t.nodes.size(); ++i)
      if (t.nodes[i]->name == "/features/features.3/squeeze/Conv") n = int(i);
    QVERIFY(n >= 0);
    QCOMPARE(QString::fromStdString(t.path(t.blockOfNode[n])).startsWith("features/features.3"), true);
  }

  void expandedLayoutOnCorpus_data() { blockTreeOnCorpus_data(); }
  void expandedLayoutOnCorpus() {
    QFETCH(QString, file);
    auto m = loadModel(test::corpusModel(file).toStdString());
    layout::HierarchicalLayout lay(m->graph());
    lay.expandAll();
    auto pg = lay.compute();
    QVERIFY(!pg.cancelled);
    QCOMPARE(countKind(pg, PlacedItem::Kind::Node) + lay.folding().folded.size(), m->graph().nodeCount());
    QCOMPARE(countKind(pg, PlacedItem::Kind::Output), m->graph().outputs().size());
    QVERIFY(countKind(pg, PlacedItem::Kind::Initializer) == 0);
    const QString overlap = firstOverlap(pg);
    QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    // Every node input produced by another node of this graph is an edge between their items (folded
    // constants are drawn inside their consumers: no edge).
    size_t expected = 0;
    const auto& folded = lay.folding().folded;
    for (const auto& n : m->graph().nodes()) {
      if (folded.count(n.get())) continue;
      std::set<const ir::Node*> producers;
      for (const ir::Value* v : n->inputs())
        if (v && v->producer() && v->producer()->graph() == &m->graph() && v->producer() != n.get() &&
            !folded.count(v->producer()))
          producers.insert(v->producer());
      expected += producers.size();
    }
    size_t nodeToNode = 0;
    for (const auto& e : pg.edges)
      if (pg.items[e.from].kind == PlacedItem::Kind::Node && pg.items[e.to].kind == PlacedItem::Kind::Node)
        ++nodeToNode;
    QVERIFY2(nodeToNode >= expected, qPrintable(QStringLiteral("%1 < %2").arg(nodeToNode).arg(expected)));
    for (const auto& it : pg.items) {
      QVERIFY(it.center.x >= 0 && it.center.x <= pg.width + 1);
      QVERIFY(it.center.y >= 0 && it.center.y <= pg.height + 1);
    }
  }

  void initializersToggle() {
    auto m = loadModel(test::corpusModel("super_resolution_op11.onnx").toStdString());
    layout::LayoutOptions o;
    o.showInitializers = true;
    layout::HierarchicalLayout lay(m->graph(), o);
    lay.expandAll();
    auto pg = lay.compute();
    QCOMPARE(countKind(pg, PlacedItem::Kind::Initializer), m->graph().initializers().size());
    QVERIFY(firstOverlap(pg).isEmpty());
  }

  void collapsedBlocksHideNodesAndCache() {
    auto m = synthetic::makeTransformerLike(3000, true);
    layout::HierarchicalLayout lay(m->graph());
    lay.expandWithin(200);
    auto pg = lay.compute();
    const size_t visibleNodes = countKind(pg, PlacedItem::Kind::Node);
    QVERIFY(pg.items.size() <= 200 + lay.tree().blocks.size());
    QVERIFY(visibleNodes < m->graph().nodeCount());
    // Each node is either drawn or hidden in a collapsed block that is drawn.
    std::set<int> drawnBlocks;
    for (const auto& it : pg.items)
      if (it.kind == PlacedItem::Kind::Block && !it.expanded) drawnBlocks.insert(it.block);
    for (const auto& n : m->graph().nodes()) {
      const int hider = lay.hidingBlock(n.get());
      if (hider >= 0) QVERIFY(drawnBlocks.count(hider));
    }
    // Expanding one block re-lays out only it and its ancestors: the rest comes from the cache.
    const int block = *drawnBlocks.begin();
    lay.setExpanded(block, true);
    auto pg2 = lay.compute();
    QVERIFY(pg2.stats.cacheHits > 0);
    QVERIFY(countKind(pg2, PlacedItem::Kind::Node) > visibleNodes || pg2.items.size() > pg.items.size());
    QVERIFY(firstOverlap(pg2).isEmpty());
  }

  void unscopedNamesGetStructuralBlocks() {
    auto m = synthetic::makeTransformerLike(2000, false);
    auto t = layout::buildBlockTree(m->graph(), 40);
    QVERIFY(t.blocks.size() > 1);
    for (const auto& b : t.blocks) QVERIFY(b.nodes.size() + b.childBlocks.size() <= 40);
    layout::HierarchicalLayout lay(m->graph());
    lay.expandAll();
    auto pg = lay.compute();
    QCOMPARE(countKind(pg, PlacedItem::Kind::Node) + lay.folding().folded.size(), m->graph().nodeCount());
    QVERIFY(firstOverlap(pg).isEmpty());
  }

  void budgetFallsBackToLayered() {
    auto m = loadModel(test::corpusModel("mobilenet_v2_op13_raw.onnx").toStdString());
    layout::LayoutOptions o;
    o.dotBudgetMs = 0;  // dot is never called once the budget is spent
    layout::HierarchicalLayout lay(m->graph(), o);
    lay.expandAll();
    auto pg = lay.compute();
    QCOMPARE(pg.stats.dotCalls, 0);
    QVERIFY(pg.stats.layeredCalls > 0);
    QCOMPARE(countKind(pg, PlacedItem::Kind::Node) + lay.folding().folded.size(), m->graph().nodeCount());
    QVERIFY(firstOverlap(pg).isEmpty());
  }

  // Issue 12 point 11: Constant nodes and Identity aliases of initializers are folded into their
  // consumers; each folded node has a drawn consumer that lists it, and no edge leads to a folded node.
  void constantsFoldedOnCorpus_data() { blockTreeOnCorpus_data(); }
  void constantsFoldedOnCorpus() {
    QFETCH(QString, file);
    auto m = loadModel(test::corpusModel(file).toStdString());
    const auto folding = layout::foldConstantsForView(m->graph());
    size_t constants = 0, aliases = 0;
    for (const auto& n : m->graph().nodes()) {
      if (n->opType == "Constant" && !n->output(0)->isGraphOutput() && !n->output(0)->uses().empty()) {
        ++constants;
        QVERIFY2(folding.folded.count(n.get()), n->name.c_str());
      }
      if (n->opType == "Identity" && n->input(0) && n->input(0)->initializer() && !n->input(0)->isGraphInput() &&
          !n->output(0)->isGraphOutput() && !n->output(0)->uses().empty())
        ++aliases;
    }
    QVERIFY(folding.folded.size() >= constants + aliases);
    for (const ir::Node* f : folding.folded) {
      const ir::Node* c = folding.shownAs(f);
      QVERIFY(c && c != f && !folding.folded.count(c));
      QVERIFY(folding.inputsOf.count(c));
    }
    layout::HierarchicalLayout lay(m->graph());
    lay.expandAll();
    auto pg = lay.compute();
    for (const auto& it : pg.items) QVERIFY(it.kind != PlacedItem::Kind::Node || !folding.folded.count(it.node));
    QVERIFY(firstOverlap(pg).isEmpty());
    layout::LayoutOptions raw;
    raw.foldConstants = false;
    layout::HierarchicalLayout rawLay(m->graph(), raw);
    rawLay.expandAll();
    const auto rawPg = rawLay.compute();
    QCOMPARE(countKind(rawPg, PlacedItem::Kind::Node), m->graph().nodeCount());
    if (file == "transformer_encoder_op17.onnx") {
      qInfo("transformer_encoder_op17 expanded: %zu boxes raw, %zu folded; %zu x %zu pt raw, %.0f x %.0f pt folded",
            rawPg.items.size(), pg.items.size(), size_t(rawPg.width), size_t(rawPg.height), pg.width, pg.height);
      QCOMPARE(folding.folded.size(), size_t(78 + 63));
    }
  }

  // Issue 12 point 12: edges placed by dot carry dot's route, from the tail box to the head box.
  void edgesCarryDotRoutes() {
    auto m = loadModel(test::corpusModel("squeezenet1_0_op11.onnx").toStdString());
    layout::HierarchicalLayout lay(m->graph());
    lay.expandAll();
    auto pg = lay.compute();
    QVERIFY(pg.stats.dotCalls > 0);
    size_t routed = 0;
    for (const auto& e : pg.edges) {
      if (e.path.empty()) continue;
      ++routed;
      QCOMPARE((e.path.size() - 1) % 3, size_t(0));
      auto near = [](const PlacedItem& it, layout::Point p) {
        return std::abs(p.x - it.center.x) <= it.size.width / 2 + 2 &&
               std::abs(p.y - it.center.y) <= it.size.height / 2 + 2;
      };
      QVERIFY(near(pg.items[e.from], e.path.front()));
      QVERIFY(near(pg.items[e.to], e.path.back()));
    }
    QCOMPARE(routed, pg.edges.size());
  }

  void cancelStopsEarly() {
    auto m = synthetic::makeTransformerLike(1000, true);
    layout::HierarchicalLayout lay(m->graph());
    lay.expandAll();
    std::atomic<bool> cancel{true};
    auto pg = lay.compute(&cancel);
    QVERIFY(pg.cancelled);
    QVERIFY(pg.items.empty());
  }
};

QTEST_APPLESS_MAIN(LayoutTest)
#include "test_layout.moc"
