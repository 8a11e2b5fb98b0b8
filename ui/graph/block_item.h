#pragma once
// A block of nodes from one name scope (or a structural group): a box with its name and node count when
// collapsed, a dashed frame behind its content when expanded. Double-click toggles.
#include <QGraphicsItem>

#include "ui/graph/item_highlight.h"

namespace fb::ui {

class BlockItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };
  BlockItem(int block, const QString& label, const QString& path, size_t nodeCount, bool expanded, const QRectF& rect);
  int type() const override { return Type; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  int block() const { return block_; }
  bool isExpanded() const { return expanded_; }
  QRectF box() const { return rect_; }
  void setHighlight(Highlight h);

 private:
  int block_;
  QString label_;
  size_t nodeCount_;
  bool expanded_;
  QRectF rect_;
  Highlight highlight_ = Highlight::None;
};

}  // namespace fb::ui
