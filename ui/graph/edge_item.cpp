#include "ui/graph/edge_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

#include "ui/theme/canvas_theme.h"

namespace fb::ui {

namespace {

// Where the segment from the centre of `r` towards `outside` leaves `r`.
QPointF exitPoint(const QRectF& r, const QPointF& outside) {
  const QPointF c = r.center();
  const double dx = outside.x() - c.x(), dy = outside.y() - c.y();
  if (dx == 0 && dy == 0) return c;
  const double sx = dx != 0 ? (r.width() / 2) / std::abs(dx) : 1e9;
  const double sy = dy != 0 ? (r.height() / 2) / std::abs(dy) : 1e9;
  const double s = std::min({sx, sy, 1.0});
  return {c.x() + dx * s, c.y() + dy * s};
}

}  // namespace

EdgeItem::EdgeItem(const QRectF& from, const QRectF& to, const QString& label) : label_(label) {
  constexpr double kLongEdge = 90;  // about two ranks
  const QPointF a0 = exitPoint(from, to.center());
  const QPointF b0 = exitPoint(to, from.center());
  const double length = QLineF(a0, b0).length();
  QPointF a = a0, b = b0, towardsEnd = a0;
  if (length > kLongEdge) {
    // Bow to the right of the direction of travel, by a share of the length.
    const QLineF straight(from.center(), to.center());
    const QPointF normal(-straight.dy() / straight.length(), straight.dx() / straight.length());
    const QPointF control = straight.center() + normal * std::min(0.18 * straight.length(), 160.0) * -1.0;
    a = exitPoint(from, control);
    b = exitPoint(to, control);
    curve_.moveTo(a);
    curve_.quadTo(control, b);
    towardsEnd = control;
    labelAt_ = curve_.pointAtPercent(0.5);
  } else {
    labelAt_ = QLineF(a, b).center();
  }
  line_ = QLineF(a, b);
  const double angle = std::atan2(towardsEnd.y() - b.y(), towardsEnd.x() - b.x());
  const double size = 7;
  arrow_ << b << b + QPointF(std::cos(angle + 0.4) * size, std::sin(angle + 0.4) * size)
         << b + QPointF(std::cos(angle - 0.4) * size, std::sin(angle - 0.4) * size);
  bounds_ = (curve_.isEmpty() ? QRectF(a, b).normalized() : curve_.boundingRect()).united(arrow_.boundingRect()).adjusted(-4, -4, 4, 4);
  if (!label_.isEmpty()) bounds_ = bounds_.united(QRectF(labelAt_.x() + 3, labelAt_.y() - 7, label_.size() * 5.0 + 6, 14));
  setZValue(1);
}

void EdgeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  setZValue(on ? 1.5 : 1);
  update();
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  const QColor color = highlighted_ ? QColor("#d62728") : canvasTheme().edge;
  QPen pen(color, highlighted_ ? 2.5 : 1.0);
  pen.setCosmetic(true);
  p->setPen(pen);
  if (curve_.isEmpty()) {
    p->drawLine(line_);
  } else {
    p->setBrush(Qt::NoBrush);
    p->drawPath(curve_);
  }
  if (lod < kTextLevelOfDetail) return;
  p->setBrush(color);
  p->drawPolygon(arrow_);
  if (lod >= kDetailLevelOfDetail && !label_.isEmpty()) {
    QFont f = p->font();
    f.setPointSizeF(6);
    p->setFont(f);
    p->setPen(canvasTheme().edgeLabel);
    p->drawText(labelAt_ + QPointF(4, 3), label_);
  }
}

}  // namespace fb::ui
