#pragma once
// Marks nodes of a GraphScene with a coloured halo: by conversion status on the source graph, or by diff
// kind on the preview. It adds child items to the scene's node items, so the scene itself knows nothing
// of conversions; marks are re-applied whenever the scene is rebuilt.
#include <QColor>
#include <QObject>
#include <QPointer>
#include <cstdint>
#include <functional>

namespace fb::ui {

class GraphScene;

class StatusOverlay : public QObject {
  Q_OBJECT
 public:
  // `colorOf` returns an invalid colour for nodes that get no mark.
  using ColorOf = std::function<QColor(uint64_t nodeId)>;
  StatusOverlay(GraphScene* scene, ColorOf colorOf, QObject* parent = nullptr);

  // Re-reads every node's colour (call when statuses change).
  void refresh();
  int markedCount() const { return marked_; }

 private:
  QPointer<GraphScene> scene_;
  ColorOf colorOf_;
  int marked_ = 0;
};

}  // namespace fb::ui
