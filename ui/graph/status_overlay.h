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
  // How the halos look and which QGraphicsItem::data key tags them: overlays with different keys mark the same
  // nodes side by side (the conversion's filled halo, the Problems' outline around it).
  struct Style {
    int dataKey = kConversionHaloKey;
    qreal margin = 5;
    bool filled = true;
  };
  static constexpr int kConversionHaloKey = 0x5a7;
  static constexpr int kProblemHaloKey = 0x5a9;
  StatusOverlay(GraphScene* scene, ColorOf colorOf, QObject* parent = nullptr)
      : StatusOverlay(scene, colorOf, {}, parent) {}
  StatusOverlay(GraphScene* scene, ColorOf colorOf, Style style, QObject* parent = nullptr);

  // Re-reads every node's colour (call when statuses change).
  void refresh();
  int markedCount() const { return marked_; }

 private:
  QPointer<GraphScene> scene_;
  ColorOf colorOf_;
  Style style_;
  int marked_ = 0;
};

}  // namespace fb::ui
