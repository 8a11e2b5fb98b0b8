#pragma once
// A tensor flowing between two items: a straight line clipped to both boxes, an arrowhead at the consumer,
// and the tensor's shape as a label when zoomed in.
#include <QGraphicsItem>
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
  QPolygonF arrow_;
  QString label_;
  QRectF bounds_;
  bool highlighted_ = false;
};

}  // namespace fb::ui
