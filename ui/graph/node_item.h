#pragma once
// One graph node: a rounded box coloured by op category, labelled with the op type (and the node name
// when zoomed in), below them the constants and weights folded into it ("W 256×256"), and last the names of
// its bodies (If: then_branch, else_branch; Loop and Scan: body), each opened by a click on it.
#include <QGraphicsItem>
#include <QList>
#include <QPair>
#include <QStringList>

#include "ui/graph/item_highlight.h"

namespace fb::ir {
class Graph;
class Node;
}  // namespace fb::ir

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
  // The graph attributes of an If/Loop/Scan node: (attribute name, body), in the node's order.
  using Body = QPair<QString, const ir::Graph*>;
  const QList<Body>& bodies() const { return bodies_; }
  // Where body `i`'s name is drawn, and the body whose name is at a scene position (-1 when none).
  QRectF bodyRect(int i) const;
  int bodyAt(const QPointF& scenePos) const;
  void setHighlight(Highlight h);

 private:
  const ir::Node* node_;
  QRectF rect_;
  QColor fill_;
  QString op_, name_;
  QStringList details_;
  QList<Body> bodies_;
  Highlight highlight_ = Highlight::None;
};

}  // namespace fb::ui
