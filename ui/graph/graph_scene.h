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

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(Document* doc, QObject* parent = nullptr);

  int nodeItemCount() const { return int(nodeItems_.size()); }
  NodeItem* itemForNode(const ir::Node* n) const { return nodeItems_.value(n, nullptr); }
  const QList<EdgeItem*>& edgeItems() const { return edges_; }

 signals:
  void rebuilt();

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  void rebuild();
  void applySelection();
  QGraphicsItem* pickable(const QPointF& pos) const;

  Document* doc_;
  std::vector<QGraphicsItem*> items_;  // by placed item index
  QHash<const ir::Node*, NodeItem*> nodeItems_;
  QHash<QGraphicsItem*, int> indexOf_;
  std::vector<std::vector<std::pair<int, EdgeItem*>>> links_;  // per item: (other item, edge)
  QList<EdgeItem*> edges_;
  std::vector<int> highlighted_;
};

}  // namespace fb::ui
