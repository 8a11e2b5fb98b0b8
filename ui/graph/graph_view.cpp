#include "ui/graph/graph_view.h"

#include <QWheelEvent>
#include <cmath>

#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"

namespace fb::ui {

GraphView::GraphView(GraphScene* scene, QWidget* parent) : QGraphicsView(scene, parent), graphScene_(scene) {
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setViewportUpdateMode(SmartViewportUpdate);
  setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
  setCacheMode(CacheNone);
  setFocusPolicy(Qt::StrongFocus);
  updateRenderHints();
}

void GraphView::updateRenderHints() {
  const bool fine = zoom() >= 0.3;
  setRenderHint(QPainter::Antialiasing, fine);
  setRenderHint(QPainter::TextAntialiasing, fine);
}

void GraphView::zoomBy(double factor) {
  const double z = zoom() * factor;
  if (z < 0.002 || z > 8) return;
  scale(factor, factor);
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::fitAll() {
  if (!scene()) return;
  fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  // A tall graph fitted whole would be a thin unreadable strip: never zoom out below a useful minimum
  // for small graphs, but always show the top.
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::centerOnNode(const ir::Node* n) {
  if (NodeItem* item = graphScene_->itemForNode(n)) {
    if (zoom() < 0.6) {
      const double f = 0.8 / zoom();
      scale(f, f);
      updateRenderHints();
      emit zoomChanged(zoom());
    }
    centerOn(item);
  }
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  zoomBy(std::pow(1.2, steps));
  event->accept();
}

}  // namespace fb::ui
