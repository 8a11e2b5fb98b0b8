#include "ui/graph/graph_view.h"

#include <QWheelEvent>
#include <algorithm>
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
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::showStart() {
  if (!scene()) return;
  fitAll();
  if (zoom() >= kReadableZoom) return;
  // Fitted whole, a deep graph is a thin strip without text: start readable at its top instead, as
  // wide as the view allows; Ctrl+0 still shows everything.
  const QRectF r = scene()->sceneRect();
  const double z = std::clamp(viewport()->width() / r.width(), kReadableZoom, 1.0);
  resetTransform();
  scale(z, z);
  centerOn(r.center().x(), r.top() + viewport()->height() / (2 * z));
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
