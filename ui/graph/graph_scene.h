#pragma once
// The scene for the current graph of a Document: one item per placed node, block, input, output and
// (when shown) initializer, plus the edges. Rebuilt when the layout changes; highlighting follows the
// document's selection.
#include <QGraphicsScene>
#include <QHash>
#include <vector>

namespace fb::ir {
class Node;
}

namespace fb::ui {

class Document;
class NodeItem;
class EdgeItem;
class BlockItem;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(Document* doc, QObject* parent = nullptr);

  int nodeItemCount() const { return int(nodeItems_.size()); }
  // The item that shows a node: its own, or that of the consumer a folded constant is drawn in.
  NodeItem* itemForNode(const ir::Node* n) const;
  BlockItem* itemForBlock(int block) const { return blockItems_.value(block, nullptr); }
  // Edge labels that found a free place (the others are left out).
  int placedLabelCount() const { return placedLabels_; }
  // Clicking empty canvas or pressing Esc: nothing selected.
  void deselectAll();
  // The node, value or collapsed block under a scene position (nullptr over empty canvas, edges, frames).
  QGraphicsItem* pickable(const QPointF& pos) const;
  // Expands or collapses a block and scrolls `view` so that the block stays where it was on screen.
  void toggleBlockKeepingPlace(int block, QGraphicsView* view);
  const QList<EdgeItem*>& edgeItems() const { return edges_; }
  // Marks drawn over the scene by others (status badges): edge labels are placed again, off them too. Until the
  // next rebuild, which drops them (their owners add them again on rebuilt()).
  void keepLabelsOff(const std::vector<QRectF>& marks);

 signals:
  void rebuilt();

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  void rebuild();
  void applySelection();
  void placeLabels();

  Document* doc_;
  std::vector<QGraphicsItem*> items_;  // by placed item index
  QHash<const ir::Node*, NodeItem*> nodeItems_;
  QHash<int, BlockItem*> blockItems_;
  int placedLabels_ = 0;
  QHash<QGraphicsItem*, int> indexOf_;
  std::vector<std::vector<std::pair<int, EdgeItem*>>> links_;  // per item: (other item, edge)
  QList<EdgeItem*> edges_;
  std::vector<QRectF> labelObstacles_, frames_;  // boxes and frame titles; open frames' outlines
  std::vector<QRectF> marks_;                    // keepLabelsOff()
  std::vector<int> highlighted_;
};

}  // namespace fb::ui
