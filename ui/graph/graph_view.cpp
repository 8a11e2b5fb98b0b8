#include "ui/graph/graph_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/graph/graph_scene.h"
#include "ui/graph/block_item.h"
#include "ui/graph/node_item.h"
#include "ui/graph/value_item.h"

namespace fb::ui {

GraphView::GraphView(GraphScene* scene, QWidget* parent) : QGraphicsView(scene, parent), graphScene_(scene) {
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setViewportUpdateMode(SmartViewportUpdate);
  setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
  setCacheMode(CacheNone);
  setFocusPolicy(Qt::StrongFocus);
  updateRenderHints();
  connect(scene, &QGraphicsScene::changed, this, [this] { overviewStale_ = true; });
  connect(scene, &QGraphicsScene::sceneRectChanged, this, [this] { overviewStale_ = true; });
}

bool GraphView::ensureOverview() {
  const double z = zoom();
  const QRectF r = scene()->sceneRect();
  const QSize size = (r.size() * z).toSize();
  // Beyond ~64 M pixels the pixmap would cost more memory than painting the items costs time.
  if (size.isEmpty() || double(size.width()) * size.height() > 64e6) {
    overview_ = QPixmap();
    return false;
  }
  if (!overviewStale_ && overviewZoom_ == z && !overview_.isNull()) return true;
  overview_ = QPixmap(size);
  overview_.fill(backgroundBrush().style() == Qt::NoBrush ? scene()->backgroundBrush().color()
                                                          : backgroundBrush().color());
  QPainter p(&overview_);
  scene()->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), r, Qt::IgnoreAspectRatio);
  p.end();
  overviewZoom_ = z;
  overviewStale_ = false;
  return true;
}

void GraphView::paintEvent(QPaintEvent* event) {
  if (!scene() || zoom() >= kOverviewZoom || !ensureOverview()) {
    overview_ = QPixmap();
    return QGraphicsView::paintEvent(event);
  }
  QPainter p(viewport());
  p.fillRect(event->rect(), scene()->backgroundBrush());
  const QRectF r = scene()->sceneRect();
  const double z = overviewZoom_;
  // The viewport's top-left in pixmap pixels; the view transform is a pure scale plus scrolling.
  const QPointF origin = (mapToScene(QPoint(0, 0)) - r.topLeft()) * z;
  const QRectF target(event->rect());
  p.drawPixmap(target, overview_, target.translated(origin));
}

void GraphView::updateRenderHints() {
  const bool fine = zoom() >= 0.3;
  setRenderHint(QPainter::Antialiasing, fine);
  setRenderHint(QPainter::TextAntialiasing, fine);
}

double GraphView::fittedZoom() const {
  if (!scene()) return 0;
  const QRectF r = scene()->sceneRect();
  if (r.isEmpty()) return 0;
  // What fitInView gives, without its margin: the viewport is the size the scroll bars leave when none show.
  const QSize room = maximumViewportSize();
  return std::min({room.width() / r.width(), room.height() / r.height(), kMaxFitZoom});
}

void GraphView::zoomBy(double factor) {
  double z = zoom() * factor;
  // Smaller than the fitted view would only shrink the whole graph into a corner of an empty canvas.
  const double floor = fittedZoom();
  if (factor < 1 && z < floor) {
    if (zoom() <= floor * 1.0001) return;
    z = floor;
    factor = z / zoom();
  }
  if (z < 0.002 || z > 8) return;
  scale(factor, factor);
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::fitAll() {
  if (!scene()) return;
  fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  // Scroll bars that the first fit made unnecessary give the viewport a new size: fit again to it.
  fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  // A small graph fitted would be blown up: beyond 100 % nothing more is readable.
  if (zoom() > kMaxFitZoom) {
    resetTransform();
    scale(kMaxFitZoom, kMaxFitZoom);
    centerOn(scene()->sceneRect().center());
  }
  updateRenderHints();
  emit zoomChanged(zoom());
}

void GraphView::showStart() {
  if (!scene()) return;
  fitAll();
  if (zoom() >= kReadableZoom) return;
  // Fitted whole, a deep graph is a thin strip without text: start readable at its inputs instead, as
  // wide as the view allows; Ctrl+0 still shows everything.
  const QRectF r = scene()->sceneRect();
  const double z = std::clamp(viewport()->width() / r.width(), kReadableZoom, 1.0);
  resetTransform();
  scale(z, z);
  // Where the data enters: the graph inputs (the topmost ones when there are many), else the top.
  QRectF inputs;
  for (QGraphicsItem* item : scene()->items()) {
    auto* v = qgraphicsitem_cast<ValueItem*>(item);
    if (v && v->role() == ValueItem::Role::Input)
      inputs = inputs.isNull() ? v->sceneBoundingRect() : inputs.united(v->sceneBoundingRect());
  }
  const double halfW = viewport()->width() / (2 * z), halfH = viewport()->height() / (2 * z);
  const double top = inputs.isNull() ? r.top() : std::max(r.top(), inputs.top() - 40);
  // Horizontally: what the first screenful holds (inputs and the nodes just below them), from its left
  // edge when it is wider than the view.
  QRectF band = inputs;
  for (QGraphicsItem* item : scene()->items(QRectF(r.left(), top, r.width(), 2 * halfH)))
    if (item->type() == NodeItem::Type)
      band = band.isNull() ? item->sceneBoundingRect() : band.united(item->sceneBoundingRect());
  double x = band.isNull() ? r.center().x() : band.center().x();
  if (!band.isNull() && band.width() > 2 * halfW) x = band.left() - 20 + halfW;
  centerOn(x, top + halfH);
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

bool GraphView::event(QEvent* event) {
  // Esc is also the window's Clear Selection: in a view it clears this view's graph (a preview has its own).
  if (event->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    return true;
  }
  return QGraphicsView::event(event);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  auto step = [this](StepDirection d) { return graphScene_->stepSelection(d); };
  bool done = false;
  switch (event->key()) {
    case Qt::Key_Escape:
      graphScene_->deselectAll();
      done = true;
      break;
    case Qt::Key_Up:
      done = step(StepDirection::Up);
      break;
    case Qt::Key_Down:
      done = step(StepDirection::Down);
      break;
    case Qt::Key_Left:
      done = step(StepDirection::Left);
      break;
    case Qt::Key_Right:
      done = step(StepDirection::Right);
      break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      done = graphScene_->activateSelection(this);
      break;
    case Qt::Key_Backspace:
      done = graphScene_->goUp();
      break;
    default:
      break;
  }
  // An arrow key with nothing selected pans, as before; with a selection and nowhere to go it does nothing.
  const bool arrow = event->key() == Qt::Key_Up || event->key() == Qt::Key_Down || event->key() == Qt::Key_Left ||
                     event->key() == Qt::Key_Right;
  if (done || (arrow && graphScene_->keyboardItem())) {
    event->accept();
    return;
  }
  QGraphicsView::keyPressEvent(event);
}

void GraphView::mousePressEvent(QMouseEvent* event) {
  pressedAt_ = event->pos();
  QGraphicsView::mousePressEvent(event);
  // The scene accepts presses on what can be picked; the rest pans (and, without a drag, deselects).
  pressedOnEmpty_ = event->button() == Qt::LeftButton && !graphScene_->pickable(mapToScene(event->pos()));
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
  QGraphicsView::mouseReleaseEvent(event);
  if (pressedOnEmpty_ && event->button() == Qt::LeftButton && (event->pos() - pressedAt_).manhattanLength() < 4)
    graphScene_->deselectAll();
  pressedOnEmpty_ = false;
}

void GraphView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  zoomBy(std::pow(1.2, steps));
  event->accept();
}

}  // namespace fb::ui
