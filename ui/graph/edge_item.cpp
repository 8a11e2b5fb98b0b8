#include "ui/graph/edge_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

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
  const QPointF a = exitPoint(from, to.center());
  const QPointF b = exitPoint(to, from.center());
  line_ = QLineF(a, b);
  const double angle = std::atan2(a.y() - b.y(), a.x() - b.x());
  const double size = 7;
  arrow_ << b << b + QPointF(std::cos(angle + 0.4) * size, std::sin(angle + 0.4) * size)
         << b + QPointF(std::cos(angle - 0.4) * size, std::sin(angle - 0.4) * size);
  bounds_ = QRectF(a, b).normalized().united(arrow_.boundingRect()).adjusted(-4, -4, 4, 4);
  if (!label_.isEmpty()) {
    const QPointF mid = line_.center();
    bounds_ = bounds_.united(QRectF(mid.x() + 3, mid.y() - 7, label_.size() * 5.0 + 6, 14));
  }
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
  const QColor color = highlighted_ ? QColor("#d62728") : QColor("#666666");
  QPen pen(color, highlighted_ ? 2.5 : 1.0);
  pen.setCosmetic(true);
  p->setPen(pen);
  p->drawLine(line_);
  if (lod < kTextLevelOfDetail) return;
  p->setBrush(color);
  p->drawPolygon(arrow_);
  if (lod >= kDetailLevelOfDetail && !label_.isEmpty()) {
    QFont f = p->font();
    f.setPointSizeF(6);
    p->setFont(f);
    p->setPen(QColor("#505050"));
    p->drawText(line_.center() + QPointF(4, 3), label_);
  }
}

}  // namespace fb::ui
