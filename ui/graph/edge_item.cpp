#include "ui/graph/edge_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

#include "ui/theme/canvas_theme.h"
#include "ui/theme/colors.h"

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

EdgeItem::EdgeItem(const QRectF& from, const QRectF& to, const QString& label, const std::vector<QPointF>& route)
    : label_(label) {
  QPointF b, towardsEnd;
  if (route.size() >= 4 && (route.size() - 1) % 3 == 0) {
    routed_ = true;
    path_.moveTo(route.front());
    for (size_t i = 1; i + 2 < route.size(); i += 3) path_.cubicTo(route[i], route[i + 1], route[i + 2]);
    b = route.back();
    // The direction of arrival: the last control point that differs from the end.
    towardsEnd = route.front();
    for (size_t i = route.size() - 1; i-- > 0;)
      if (QLineF(route[i], b).length() > 0.5) {
        towardsEnd = route[i];
        break;
      }
    line_ = QLineF(route.front(), b);
  } else {
    constexpr double kLongEdge = 90;  // about two ranks
    const QPointF a0 = exitPoint(from, to.center());
    const QPointF b0 = exitPoint(to, from.center());
    QPointF a = a0;
    b = b0;
    towardsEnd = a0;
    if (QLineF(a0, b0).length() > kLongEdge) {
      // Bow to the right of the direction of travel, by a share of the length.
      const QLineF straight(from.center(), to.center());
      const QPointF normal(-straight.dy() / straight.length(), straight.dx() / straight.length());
      const QPointF control = straight.center() + normal * std::min(0.18 * straight.length(), 160.0) * -1.0;
      a = exitPoint(from, control);
      b = exitPoint(to, control);
      path_.moveTo(a);
      path_.quadTo(control, b);
      towardsEnd = control;
    } else {
      path_.moveTo(a);
      path_.lineTo(b);
    }
    line_ = QLineF(a, b);
  }
  const double angle = std::atan2(towardsEnd.y() - b.y(), towardsEnd.x() - b.x());
  const double size = 7;
  arrow_ << b << b + QPointF(std::cos(angle + 0.4) * size, std::sin(angle + 0.4) * size)
         << b + QPointF(std::cos(angle - 0.4) * size, std::sin(angle - 0.4) * size);
  updateBounds();
  setZValue(1);
}

void EdgeItem::updateBounds() {
  prepareGeometryChange();
  bounds_ = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-4, -4, 4, 4);
  if (!labelRect_.isEmpty()) bounds_ = bounds_.united(labelRect_);
}

void EdgeItem::setLabelRect(const QRectF& r) {
  labelRect_ = r;
  updateBounds();
}

void EdgeItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  setZValue(on ? 1.5 : 1);
  update();
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  // Emphasis is a thicker line in the selection's hue, which no conversion status or diff kind uses.
  const QColor color = highlighted_ ? itemColors().selectedEdge : canvasTheme().edge;
  QPen pen(color, highlighted_ ? 2.5 : 1.0);
  pen.setCosmetic(true);
  p->setPen(pen);
  p->setBrush(Qt::NoBrush);
  p->drawPath(path_);
  if (lod < kTextLevelOfDetail) return;
  p->setBrush(color);
  p->drawPolygon(arrow_);
  if (lod >= kDetailLevelOfDetail && !label_.isEmpty() && !labelRect_.isEmpty()) {
    QFont f = p->font();
    f.setPointSizeF(kMinTextPointSize);
    p->setFont(f);
    p->setPen(canvasTheme().edgeLabel);
    p->drawText(labelRect_, Qt::AlignLeft | Qt::AlignVCenter, label_);
  }
}

}  // namespace fb::ui
