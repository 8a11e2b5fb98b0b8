#pragma once
// A tensor flowing between two items: a line clipped to both boxes, an arrowhead at the consumer, and the
// tensor's shape as a label when zoomed in. Long edges (skip connections) bow sideways so that they do not
// run hidden along the chain of nodes they jump over.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include "ui/graph/item_highlight.h"

namespace fb::ui {

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 4 };
  EdgeItem(const QRectF& from, const QRectF& to, const QString& label);
  int type() const override { return Type; }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  void setHighlighted(bool on);
  QLineF line() const { return line_; }
  QString label() const { return label_; }

 private:
  QLineF line_;
  QPainterPath curve_;  // empty for short edges, which are drawn as straight lines
  QPointF labelAt_;
  QPolygonF arrow_;
  QString label_;
  QRectF bounds_;
  bool highlighted_ = false;
};

}  // namespace fb::ui
