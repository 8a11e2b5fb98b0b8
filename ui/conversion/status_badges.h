#pragma once
// Counts by conversion status where nodes are out of sight: a badge on each collapsed block (the nodes inside it,
// their subgraphs included) and on each node with a body (If/Loop/Scan: the nodes of its subgraphs). Like the
// halos of StatusOverlay, badges are child items of the scene's items, re-made whenever the scene is rebuilt or
// the statuses change, so the graph items know nothing of conversions; the scene places its edge labels off them.
#include <QMap>
#include <QObject>
#include <QPointer>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "convert/node_status.h"

class QGraphicsItem;

namespace fb::ui {

class Document;
class GraphScene;
}  // namespace fb::ui

namespace fb::layout {
struct BlockTree;
}

namespace fb::ui {

class StatusBadges : public QObject {
  Q_OBJECT
 public:
  using StatusOf = std::function<std::optional<convert::NodeStatus>(uint64_t nodeId)>;
  using Counts = QMap<convert::NodeStatus, int>;
  StatusBadges(Document* doc, GraphScene* scene, StatusOf statusOf, QObject* parent = nullptr);

  // Re-made badges for the items the scene has now (the counts per block are kept: expanding one block on a
  // 100k-node graph must not recount every node).
  void refresh();
  // The statuses changed (a new dry run): counts again.
  void statusesChanged();
  int badgeCount() const { return badges_; }
  // The counts the badge on `item` (a block or node item) shows; empty when it has none.
  static Counts countsOn(const QGraphicsItem* item);

 private:
  QPointer<Document> doc_;
  QPointer<GraphScene> scene_;
  StatusOf statusOf_;
  int badges_ = 0;
  // Per block of `countedTree_`, what it holds at any depth; recounted when the statuses or the tree change.
  void countBlocks(const layout::BlockTree& tree);
  std::vector<Counts> blockCounts_;
  const layout::BlockTree* countedTree_ = nullptr;
  const void* countedFirstNode_ = nullptr;
  size_t countedNodes_ = 0;
};

}  // namespace fb::ui
