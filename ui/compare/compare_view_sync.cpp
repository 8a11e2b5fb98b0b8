#include "ui/compare/compare_view_sync.h"

#include <QScrollBar>

#include "ir/node.h"
#include "ui/compare/compare_controller.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"
#include "ui/graph/node_item.h"

namespace fb::ui {

CompareViewSync::CompareViewSync(CompareController* controller, GraphView* a, GraphView* b, QObject* parent)
    : QObject(parent), controller_(controller), a_(a), b_(b) {
  for (QTimer* t : {&timerA_, &timerB_}) {
    t->setSingleShot(true);
    t->setInterval(40);
  }
  connect(&timerA_, &QTimer::timeout, this, [this] { follow(a_, b_); });
  connect(&timerB_, &QTimer::timeout, this, [this] { follow(b_, a_); });
  watch(a_, &timerA_, &suppressA_, &timerB_);
  watch(b_, &timerB_, &suppressB_, &timerA_);
}

void CompareViewSync::watch(GraphView* view, QTimer* timer, bool* suppressed, QTimer* other) {
  auto moved = [this, view, timer, suppressed, other] {
    if (*suppressed || !enabled_ || !controller_->result() || !view->isVisible()) return;
    other->stop();  // the view moved last leads
    timer->start();
  };
  connect(view->horizontalScrollBar(), &QScrollBar::valueChanged, this, moved);
  connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, moved);
  connect(view, &GraphView::zoomChanged, this, moved);
}

void CompareViewSync::follow(GraphView* from, GraphView* to) {
  if (!enabled_ || !controller_->result() || !to->isVisible()) return;
  auto* fromScene = qobject_cast<GraphScene*>(from->scene());
  auto* toScene = qobject_cast<GraphScene*>(to->scene());
  if (!fromScene || !toScene) return;
  // The paired node nearest the centre of `from`, searched in growing squares.
  const QPointF centre = from->mapToScene(from->viewport()->rect().center());
  QGraphicsItem* target = nullptr;
  for (double r : {40.0, 160.0, 640.0, 2560.0}) {
    const double side = r / std::max(from->zoom(), 0.01);
    double best = 0;
    for (QGraphicsItem* item : fromScene->items(QRectF(centre.x() - side, centre.y() - side, 2 * side, 2 * side))) {
      auto* node = qgraphicsitem_cast<NodeItem*>(item);
      if (!node) continue;
      const auto others = controller_->counterparts(node->node());
      if (others.isEmpty()) continue;
      QGraphicsItem* there = toScene->itemForNode(others.first());
      if (!there) continue;
      const double d = QLineF(node->sceneBoundingRect().center(), centre).length();
      if (!target || d < best) {
        target = there;
        best = d;
      }
    }
    if (target) break;
  }
  bool& suppressed = to == a_ ? suppressA_ : suppressB_;
  suppressed = true;
  if (std::abs(to->zoom() / from->zoom() - 1) > 0.01) to->zoomBy(from->zoom() / to->zoom());
  if (target) to->centerOn(target);
  // The scroll and zoom signals of this move (some come with the next events, when the view updates its scroll
  // ranges for the new zoom) are not the user's: they are not followed back.
  QTimer::singleShot(250, this, [&suppressed] { suppressed = false; });
}

}  // namespace fb::ui
