#pragma once
// The scene for the current graph of a Document: one item per placed node, block, input, output and
// (when shown) initializer, plus the edges. Rebuilt when the layout changes; highlighting follows the
// document's selection.
#include <QGraphicsScene>
#include <QHash>
#include <vector>

#include "ui/graph/neighbour_pick.h"

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

  // --- keyboard (GraphView's keys)
  // What the keys act on: the selected node's box, or the collapsed block that hides it, or a block the keys
  // moved to (nullptr when nothing is selected).
  QGraphicsItem* keyboardItem() const;
  // Arrow keys: the selection moves along an edge to the neighbour that lies that way (a node, or a collapsed
  // block); Left/Right, where no edge leads, to a node beside it that shares a neighbour. False when nothing moved.
  bool stepSelection(StepDirection direction);
  // Enter: expands the collapsed block under the keys, or opens the selected node's body (a menu offers several),
  // and selects the first node inside. False when there is nothing to open.
  bool activateSelection(QGraphicsView* view);
  // Backspace: one level up the breadcrumb, the node whose body was left selected. False on the main graph.
  bool goUp();
  // Opens a body of `node` (a menu at `screenPos` offers them when there are several, or a function's body);
  // `selectFirst`: the body's first node is selected, as a start for the keys.
  void openBodies(const ir::Node* node, const QPoint& screenPos, QWidget* menuParent, bool selectFirst = false);
  // A new model's scene is built a chunk of items per event-loop turn (the preview's: it appears while the window
  // is in use); other rebuilds (expanding a block, options) stay in one go, as their callers read the items next.
  void setBuildNewModelsInChunks(bool on) { buildNewModelsInChunks_ = on; }
  // True while a chunked build is under way (rebuilt() follows).
  bool isBuilding() const { return building_; }

 signals:
  void rebuilt();

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  void rebuild();
  void buildStep(quint64 generation, size_t done);
  // Creates placed items and edges [from, to): items first, then edges.
  void addItems(size_t from, size_t to);
  // Edge labels, the index, the scene rect and the selection, once every item is there.
  void finishBuild();
  void applySelection();
  void placeLabels();
  void selectFirstNodeIn(const QRectF& area);

  static constexpr size_t kItemsPerChunk = 400;

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
  int keyBlock_ = -1;                // a collapsed block the arrow keys moved to (the document selects nodes only)
  bool enteredBodyByClick_ = false;  // the press of a double-click opened a body: its double-click is spent
  bool buildNewModelsInChunks_ = false;
  bool newModel_ = false;
  bool building_ = false;
  quint64 buildGeneration_ = 0;
};

}  // namespace fb::ui
