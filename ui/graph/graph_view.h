#pragma once
// The view on a GraphScene: drag or arrow keys to pan, wheel and Ctrl+= / Ctrl+- to zoom, Ctrl+0 to fit.
// Antialiasing is turned off when zoomed far out, where it costs most and shows least.
#include <QGraphicsView>

namespace fb::ir {
class Node;
}

namespace fb::ui {

class GraphScene;

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);
  void zoomBy(double factor);
  void fitAll();
  void centerOnNode(const ir::Node* n);
  double zoom() const { return transform().m11(); }

 signals:
  void zoomChanged(double zoom);

 protected:
  void wheelEvent(QWheelEvent* event) override;

 private:
  void updateRenderHints();
  GraphScene* graphScene_;
};

}  // namespace fb::ui
