// GraphScene's keyboard: what the arrow keys, Enter and the selection they move have to do with the drawn graph.
#include <QGraphicsView>
#include <algorithm>

#include "ir/graph.h"
#include "ui/document.h"
#include "ui/graph/block_item.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"

namespace fb::ui {

namespace {

// Nodes and collapsed blocks take the keys; values (inputs, outputs, weights) and open frames do not.
bool steppable(const QGraphicsItem* item) {
  if (item->type() == NodeItem::Type) return true;
  const auto* b = qgraphicsitem_cast<const BlockItem*>(item);
  return b && !b->isExpanded();
}

}  // namespace

QGraphicsItem* GraphScene::keyboardItem() const {
  if (BlockItem* b = blockItems_.value(keyBlock_, nullptr)) return b;
  const ir::Node* n = doc_->focusNode();
  if (!n || !doc_->hasGraph()) return nullptr;
  if (NodeItem* item = itemForNode(n)) return item;
  const auto& layout = *doc_->currentLevel().layout;
  return blockItems_.value(layout.hidingBlock(layout.folding().shownAs(n)), nullptr);
}

bool GraphScene::stepSelection(StepDirection direction) {
  QGraphicsItem* from = keyboardItem();
  const int at = from ? indexOf_.value(from, -1) : -1;
  if (at < 0) return false;
  std::vector<int> ids;
  std::vector<QRectF> boxes;
  auto consider = [&](int k) {
    if (k == at || !steppable(items_[k]) || std::find(ids.begin(), ids.end(), k) != ids.end()) return;
    ids.push_back(k);
    boxes.push_back(items_[k]->sceneBoundingRect());
  };
  for (const auto& link : links_[at]) consider(link.first);
  const bool sideways = direction == StepDirection::Left || direction == StepDirection::Right;
  // Along an edge that way first; Up/Down then also to an edge's far end well off to the side.
  int pick = pickNeighbour(from->sceneBoundingRect(), boxes, direction, /*inCone=*/true);
  if (pick < 0 && !sideways) pick = pickNeighbour(from->sceneBoundingRect(), boxes, direction, false);
  if (pick < 0 && sideways) {
    // No edge leads sideways in a top-down layout: the other branches beside this one, which share a neighbour.
    ids.clear();
    boxes.clear();
    for (const auto& link : links_[at])
      for (const auto& siblingLink : links_[link.first]) consider(siblingLink.first);
    pick = pickNeighbour(from->sceneBoundingRect(), boxes, direction, false);
  }
  if (pick < 0) return false;
  QGraphicsItem* to = items_[ids[pick]];
  if (auto* n = qgraphicsitem_cast<NodeItem*>(to)) {
    doc_->selectNodes({n->node()});
    return true;
  }
  auto* b = qgraphicsitem_cast<BlockItem*>(to);
  if (!doc_->selectedNodes().isEmpty() || doc_->selectedValue()) doc_->clearSelection();
  keyBlock_ = b->block();
  applySelection();
  for (QGraphicsView* v : views()) v->ensureVisible(b, 40, 40);
  return true;
}

bool GraphScene::activateSelection(QGraphicsView* view) {
  QGraphicsItem* item = keyboardItem();
  if (auto* b = qgraphicsitem_cast<BlockItem*>(item)) {
    const int block = b->block();
    const bool keepSelection = doc_->focusNode() != nullptr;  // a selected node the block hid stays selected
    toggleBlockKeepingPlace(block, view);                     // rebuilds the scene
    if (BlockItem* frame = blockItems_.value(block, nullptr); frame && !keepSelection) selectFirstNodeIn(frame->box());
    return true;
  }
  auto* n = qgraphicsitem_cast<NodeItem*>(item);
  if (!n || (n->bodies().isEmpty() && !doc_->functionBody(n->node()))) return false;
  const QPoint at = view ? view->viewport()->mapToGlobal(view->mapFromScene(n->box().center())) : QPoint();
  openBodies(n->node(), at, view, /*selectFirst=*/true);
  return true;
}

bool GraphScene::goUp() { return doc_->goUp(); }

void GraphScene::selectFirstNodeIn(const QRectF& area) {
  // The first box in reading order along the flow: the top one (the left one in the horizontal layout).
  const bool leftToRight = doc_->horizontal();
  QGraphicsItem* first = nullptr;
  auto before = [leftToRight](const QPointF& a, const QPointF& b) {
    return leftToRight ? std::pair(a.x(), a.y()) < std::pair(b.x(), b.y())
                       : std::pair(a.y(), a.x()) < std::pair(b.y(), b.x());
  };
  for (QGraphicsItem* item : items_)
    if (steppable(item) && area.contains(item->sceneBoundingRect().center()) &&
        (!first || before(item->sceneBoundingRect().center(), first->sceneBoundingRect().center())))
      first = item;
  if (auto* n = qgraphicsitem_cast<NodeItem*>(first)) {
    doc_->selectNodes({n->node()});
  } else if (auto* b = qgraphicsitem_cast<BlockItem*>(first)) {
    keyBlock_ = b->block();
    applySelection();
  }
}

}  // namespace fb::ui
