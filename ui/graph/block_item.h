#pragma once
// A block of nodes from one name scope (or a structural group): a box with its name and node count when
// collapsed, a dashed frame behind its content when expanded, its name in the frame's top margin. Double-click
// toggles. The layout makes boxes and frames wide enough for their names; a name that is still too wide is set in a
// smaller font (down to kMinTextPointSize) before it is elided.
#include <QFont>
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
  const QString& label() const { return label_; }
  // Where the name is written and in which font.
  QRectF labelRect() const;
  QFont labelFont() const { return labelFont_; }

 private:
  int block_;
  QString label_;
  size_t nodeCount_;
  bool expanded_;
  QRectF rect_;
  Highlight highlight_ = Highlight::None;
  QFont labelFont_;
  QFont fittingLabelFont() const;
};

}  // namespace fb::ui
