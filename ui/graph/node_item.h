#pragma once
// One graph node: a rounded box coloured by op category, labelled with the op type (and the node name
// when zoomed in), and below them the constants and weights folded into it ("W 256×256"). Double-clicking
// a node with a body (If/Loop/Scan) opens it.
#include <QGraphicsItem>
#include <QStringList>

#include "ui/graph/item_highlight.h"

namespace fb::ir {
class Node;
}

namespace fb::ui {

class NodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };
  NodeItem(const ir::Node* node, const QRectF& rect, const QStringList& details = {});
  int type() const override { return Type; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  const ir::Node* node() const { return node_; }
  QRectF box() const { return rect_; }
  const QStringList& details() const { return details_; }
  void setHighlight(Highlight h);

 private:
  const ir::Node* node_;
  QRectF rect_;
  QColor fill_;
  QString op_, name_;
  QStringList details_;
  Highlight highlight_ = Highlight::None;
};

}  // namespace fb::ui
