#pragma once
// A tensor flowing between two items, drawn along the route Graphviz gave it (a chain of cubic Béziers
// that goes around boxes), with an arrowhead at the consumer. Where a block was placed without routing,
// the edge is a line clipped to both boxes, bowed sideways when long so that it does not run hidden along
// the chain of nodes it jumps over. The tensor's shape is a label placed by the scene where it overlaps
// no box and no other label (see edge_label_placer.h), shown when zoomed in.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <vector>

#include "ui/graph/item_highlight.h"

namespace fb::ui {

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 4 };
  // `route`: Bézier control points (p0 c1 c2 p1 ...); empty for a straight edge between the boxes.
  EdgeItem(const QRectF& from, const QRectF& to, const QString& label, const std::vector<QPointF>& route = {});
  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  void setHighlighted(bool on);
  QLineF line() const { return line_; }
  QString label() const { return label_; }
  // The drawn path (routed or not), in scene coordinates.
  const QPainterPath& path() const { return path_; }
  bool isRouted() const { return routed_; }
  // Where the label goes; an empty rect hides it (no free place was found).
  void setLabelRect(const QRectF& r);
  QRectF labelRect() const { return labelRect_; }

 private:
  void updateBounds();

  QLineF line_;  // first point to last point
  QPainterPath path_;
  QPolygonF arrow_;
  QString label_;
  QRectF labelRect_;
  QRectF bounds_;
  bool routed_ = false;
  bool highlighted_ = false;
};

}  // namespace fb::ui
