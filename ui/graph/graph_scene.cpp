#include "ui/graph/graph_scene.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QMenu>
#include <QScrollBar>
#include <QTimer>

#include "ir/graph.h"
#include "layout/type_label.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/edge_item.h"
#include "ui/graph/edge_label_placer.h"
#include "ui/graph/node_item.h"
#include "ui/graph/value_item.h"
#include "ui/theme/canvas_theme.h"

namespace fb::ui {

namespace {

QRectF boxOf(const layout::PlacedItem& it) {
  return {it.center.x - it.size.width / 2, it.center.y - it.size.height / 2, it.size.width, it.size.height};
}

void setItemHighlight(QGraphicsItem* item, Highlight h) {
  if (auto* n = qgraphicsitem_cast<NodeItem*>(item))
    n->setHighlight(h);
  else if (auto* b = qgraphicsitem_cast<BlockItem*>(item))
    b->setHighlight(h);
  else if (auto* v = qgraphicsitem_cast<ValueItem*>(item))
    v->setHighlight(h);
}

}  // namespace

GraphScene::GraphScene(Document* doc, QObject* parent) : QGraphicsScene(parent), doc_(doc) {
  setBackgroundBrush(canvasTheme().background);
  connect(&canvasThemeNotifier(), &CanvasThemeNotifier::changed, this, [this] {
    setBackgroundBrush(canvasTheme().background);
    update();
  });
  connect(doc_, &Document::modelChanged, this, [this] { newModel_ = true; });  // the layoutChanged that follows
  connect(doc_, &Document::layoutChanged, this, &GraphScene::rebuild);
  connect(doc_, &Document::typesChanged, this, &GraphScene::rebuild);  // edge labels and input/output types
  connect(doc_, &Document::selectionChanged, this, &GraphScene::applySelection);
}

void GraphScene::rebuild() {
  ++buildGeneration_;  // a chunked build still under way stops
  building_ = false;
  clear();
  items_.clear();
  nodeItems_.clear();
  blockItems_.clear();
  placedLabels_ = 0;
  indexOf_.clear();
  links_.clear();
  edges_.clear();
  highlighted_.clear();
  const bool inChunks = buildNewModelsInChunks_ && newModel_;
  newModel_ = false;
  if (!doc_->hasGraph()) return;
  const auto& placed = doc_->currentLevel().placed;
  // The index would be rebuilt on every insertion otherwise.
  setItemIndexMethod(NoIndex);
  items_.reserve(placed.items.size());
  links_.assign(placed.items.size(), {});
  if (!inChunks || placed.items.size() + placed.edges.size() <= kItemsPerChunk) {
    addItems(0, placed.items.size() + placed.edges.size());
    finishBuild();
    return;
  }
  // A new model's scene is built a chunk per event-loop turn: at 10k nodes and more its 2,000-odd boxes and their
  // edges held the UI thread for 0.1-0.2 s in one go. Paints in between show what is there so far.
  building_ = true;
  buildStep(buildGeneration_, 0);
}

void GraphScene::buildStep(quint64 generation, size_t done) {
  if (generation != buildGeneration_ || !doc_->hasGraph()) return;
  const auto& placed = doc_->currentLevel().placed;
  const size_t total = placed.items.size() + placed.edges.size();
  const size_t until = std::min(total, done + kItemsPerChunk);
  addItems(done, until);
  if (until < total) {
    QTimer::singleShot(0, this, [this, generation, until] { buildStep(generation, until); });
    return;
  }
  building_ = false;
  finishBuild();
}

void GraphScene::addItems(size_t from, size_t to) {
  // Positions [0, items) are the placed items, [items, items + edges) the edges (which need both ends).
  const GraphLevel& level = doc_->currentLevel();
  const auto& placed = level.placed;
  const auto& tree = level.layout->tree();
  for (size_t k = from; k < to && k < placed.items.size(); ++k) {
    const auto& it = placed.items[k];
    QGraphicsItem* item = nullptr;
    const QRectF r = boxOf(it);
    switch (it.kind) {
      case layout::PlacedItem::Kind::Node: {
        QStringList details;
        if (const auto* folded = level.layout->foldedInputs(it.node))
          for (const auto& f : *folded) details << QString::fromStdString(f.text);
        auto* n = new NodeItem(it.node, r, details);
        nodeItems_.insert(it.node, n);
        item = n;
        break;
      }
      case layout::PlacedItem::Kind::Block: {
        const auto& b = tree.blocks[it.block];
        auto* bi = new BlockItem(it.block, QString::fromStdString(b.label), QString::fromStdString(tree.path(it.block)),
                                 b.totalNodes, it.expanded, r);
        blockItems_.insert(it.block, bi);
        item = bi;
        break;
      }
      case layout::PlacedItem::Kind::Input:
      case layout::PlacedItem::Kind::Output:
      case layout::PlacedItem::Kind::Initializer: {
        const auto role = it.kind == layout::PlacedItem::Kind::Input    ? ValueItem::Role::Input
                          : it.kind == layout::PlacedItem::Kind::Output ? ValueItem::Role::Output
                                                                        : ValueItem::Role::Initializer;
        const ir::TypeInfo* t = doc_->typeOf(it.value);
        item = new ValueItem(it.value, role, t ? QString::fromStdString(t->toString()) : QString(), r);
        break;
      }
    }
    addItem(item);
    indexOf_.insert(item, int(items_.size()));
    items_.push_back(item);
  }
  std::vector<QPointF> route;
  for (size_t k = std::max(from, placed.items.size()); k < to; ++k) {
    const auto& e = placed.edges[k - placed.items.size()];
    QString label, full;
    if (const ir::TypeInfo* t = doc_->typeOf(e.value); t && t->isTensor()) {
      label = QString::fromStdString(layout::shortTypeLabel(*t));
      full = QString::fromStdString(t->toString());
    }
    route.clear();
    for (const auto& p : e.path) route.emplace_back(p.x, p.y);
    auto* edge = new EdgeItem(boxOf(placed.items[e.from]), boxOf(placed.items[e.to]), label, route);
    edge->setToolTip(e.value ? QString::fromStdString(e.value->name()) + (full.isEmpty() ? QString() : "\n" + full)
                             : QString());
    addItem(edge);
    edges_.append(edge);
    links_[e.from].push_back({e.to, edge});
    links_[e.to].push_back({e.from, edge});
  }
}

void GraphScene::finishBuild() {
  const GraphLevel& level = doc_->currentLevel();
  const auto& placed = level.placed;
  const auto& tree = level.layout->tree();
  QFont labelFont;
  labelFont.setPointSizeF(kMinTextPointSize);
  const QFontMetricsF labelMetrics(labelFont);
  // Labels keep off the boxes and off the titles of open frames (drawn as BlockItem draws them).
  std::vector<QRectF>&boxes = labelObstacles_, &frames = frames_;
  boxes.clear();
  frames.clear();
  marks_.clear();
  for (const auto& it : placed.items) {
    const QRectF r = boxOf(it);
    if (it.kind != layout::PlacedItem::Kind::Block || !it.expanded) {
      boxes.push_back(r);
      continue;
    }
    frames.push_back(r);
    const QString title = QString::fromStdString(tree.blocks[it.block].label);
    const double width = std::min(labelMetrics.horizontalAdvance(title) + 2, r.width() - 16);
    if (width > 0) boxes.push_back(QRectF(r.left() + 8, r.top() + 3, width, labelMetrics.height()));
  }
  placeLabels();
  setItemIndexMethod(BspTreeIndex);
  setSceneRect(QRectF(-40, -40, placed.width + 80, placed.height + 80));
  if (BlockItem* b = blockItems_.value(keyBlock_, nullptr); !b || b->isExpanded()) keyBlock_ = -1;
  applySelection();
  emit rebuilt();
}

void GraphScene::placeLabels() {
  QFont labelFont;
  labelFont.setPointSizeF(kMinTextPointSize);
  std::vector<QRectF> obstacles = labelObstacles_;
  obstacles.insert(obstacles.end(), marks_.begin(), marks_.end());
  placedLabels_ = placeEdgeLabels(edges_, obstacles, QFontMetricsF(labelFont), frames_);
}

void GraphScene::keepLabelsOff(const std::vector<QRectF>& marks) {
  if (marks.empty() && marks_.empty()) return;
  marks_ = marks;
  placeLabels();
}

void GraphScene::applySelection() {
  if (building_) return;  // finishBuild applies it
  for (int i : highlighted_) {
    setItemHighlight(items_[i], Highlight::None);
    for (auto& [other, edge] : links_[i]) {
      setItemHighlight(items_[other], Highlight::None);
      edge->setHighlighted(false);
    }
  }
  highlighted_.clear();
  const auto& sel = doc_->selectedNodes();
  // Many selected nodes (an op type of thousands): mark them, skip the neighbourhoods.
  const bool withNeighbours = sel.size() <= 64;
  for (const ir::Node* n : sel) {
    NodeItem* item = itemForNode(n);
    if (!item) continue;
    const int i = indexOf_.value(item, -1);
    if (i < 0) continue;
    highlighted_.push_back(i);
    if (withNeighbours) {
      for (auto& [other, edge] : links_[i]) {
        setItemHighlight(items_[other], Highlight::Neighbour);
        edge->setHighlighted(true);
      }
    }
  }
  // A block the arrow keys moved to stands for the selection until the document selects something again.
  if (!sel.isEmpty() || doc_->selectedValue()) keyBlock_ = -1;
  if (BlockItem* block = blockItems_.value(keyBlock_, nullptr)) {
    const int i = indexOf_.value(block, -1);
    if (i >= 0) {
      highlighted_.push_back(i);
      for (auto& [other, edge] : links_[i]) {
        setItemHighlight(items_[other], Highlight::Neighbour);
        edge->setHighlighted(true);
      }
    }
  }
  for (int i : highlighted_) setItemHighlight(items_[i], Highlight::Selected);
}

NodeItem* GraphScene::itemForNode(const ir::Node* n) const {
  if (NodeItem* own = nodeItems_.value(n, nullptr)) return own;
  if (!n || !doc_->hasGraph()) return nullptr;
  return nodeItems_.value(doc_->currentLevel().layout->folding().shownAs(n), nullptr);
}

void GraphScene::deselectAll() {
  if (keyBlock_ >= 0) {
    keyBlock_ = -1;
    applySelection();
  }
  if (!doc_->selectedNodes().isEmpty() || doc_->selectedValue()) doc_->clearSelection();
}

void GraphScene::toggleBlockKeepingPlace(int block, QGraphicsView* view) {
  BlockItem* before = blockItems_.value(block, nullptr);
  if (!before || !view) return doc_->toggleBlock(block);
  const QPoint was = view->mapFromScene(before->box().topLeft());
  doc_->toggleBlock(block);  // rebuilds the scene
  if (BlockItem* after = blockItems_.value(block, nullptr)) {
    // Show the scene so that the block's corner is where it was on screen; near the edge of the graph
    // that needs room beyond it, so the scene grows to allow it.
    const QPointF shift = after->box().topLeft() - view->mapToScene(was);
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect().translated(shift);
    if (!sceneRect().contains(visible)) setSceneRect(sceneRect().united(visible));
    view->centerOn(visible.center());
  }
}

QGraphicsItem* GraphScene::pickable(const QPointF& pos) const {
  const QTransform t = views().isEmpty() ? QTransform() : views().first()->transform();
  for (QGraphicsItem* item : items(pos, Qt::IntersectsItemBoundingRect, Qt::DescendingOrder, t)) {
    if (item->type() == NodeItem::Type || item->type() == ValueItem::Type) return item;
    if (auto* b = qgraphicsitem_cast<BlockItem*>(item); b && !b->isExpanded()) return item;
  }
  return nullptr;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
  if (event->button() == Qt::RightButton) {
    // The context menu acts on the selection: a right click on a node outside it selects that node first.
    if (auto* n = qgraphicsitem_cast<NodeItem*>(pickable(event->scenePos()));
        n && !doc_->selectedNodes().contains(n->node()))
      doc_->selectNodes({n->node()}, /*bringIntoView=*/false);
    return QGraphicsScene::mousePressEvent(event);
  }
  if (event->button() != Qt::LeftButton) return QGraphicsScene::mousePressEvent(event);
  enteredBodyByClick_ = false;
  QGraphicsItem* item = pickable(event->scenePos());
  if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
    if (const int body = n->bodyAt(event->scenePos()); body >= 0) {
      // A body's name on an If/Loop/Scan box: opens it (the scene is rebuilt, `n` with it).
      const ir::Graph* g = n->bodies()[body].second;
      enteredBodyByClick_ = true;
      doc_->enterBody(g);
      event->accept();
      return;
    }
    if (event->modifiers().testFlag(Qt::ControlModifier)) {  // Ctrl+click adds a node to the selection or drops it
      QList<const ir::Node*> nodes = doc_->selectedNodes();
      if (!nodes.removeOne(n->node())) nodes.append(n->node());
      doc_->selectNodes(nodes, /*bringIntoView=*/false);
    } else {
      doc_->selectNodes({n->node()}, /*bringIntoView=*/false);  // it is under the pointer already
    }
    event->accept();
  } else if (auto* v = qgraphicsitem_cast<ValueItem*>(item)) {
    doc_->selectValue(v->value());
    event->accept();
  } else if (item) {
    event->accept();
  } else {
    event->ignore();  // the view pans
  }
}

void GraphScene::openBodies(const ir::Node* node, const QPoint& screenPos, QWidget* menuParent, bool selectFirst) {
  // Each graph attribute is a body: If has two (then/else), Loop and Scan one. With more than one, a menu offers
  // them; the breadcrumb names the one entered ("/If: else_branch").
  QList<QPair<QString, const ir::Graph*>> bodies;
  for (const auto& a : node->attributes)
    for (const auto& g : a.graphs)
      if (g) bodies.append({QString::fromStdString(a.name), g.get()});
  auto enter = [this, selectFirst](const ir::Graph* body) {
    doc_->enterBody(body);
    if (selectFirst) selectFirstNodeIn(sceneRect());
  };
  if (bodies.size() == 1) {
    enter(bodies.front().second);
  } else if (bodies.size() > 1) {
    auto* menu = new QMenu(menuParent);
    menu->setObjectName(QStringLiteral("bodyMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (const auto& [name, body] : bodies) menu->addAction(name, this, [enter, body = body] { enter(body); });
    menu->popup(screenPos);
  } else if (const ir::Graph* body = doc_->functionBody(node)) {
    doc_->enterSubgraph(body, QString::fromStdString(node->name.empty() ? node->opType : node->name));
    if (selectFirst) selectFirstNodeIn(sceneRect());
  }
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
  if (enteredBodyByClick_) {
    // The first click of this double-click opened a body: what is now under the pointer was not aimed at.
    enteredBodyByClick_ = false;
    event->accept();
    return;
  }
  const QTransform t = views().isEmpty() ? QTransform() : views().first()->transform();
  for (QGraphicsItem* item : items(event->scenePos(), Qt::IntersectsItemBoundingRect, Qt::DescendingOrder, t)) {
    if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
      openBodies(n->node(), event->screenPos(), event->widget());
      event->accept();
      return;
    }
    if (auto* b = qgraphicsitem_cast<BlockItem*>(item)) {
      auto* view = event->widget() ? qobject_cast<QGraphicsView*>(event->widget()->parentWidget()) : nullptr;
      toggleBlockKeepingPlace(b->block(), view ? view : views().value(0));
      event->accept();
      return;
    }
  }
  event->ignore();
}

}  // namespace fb::ui
