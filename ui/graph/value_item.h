#pragma once
// A graph input, graph output or initializer drawn as its own item (a tensor, not an operation).
#include <QGraphicsItem>

#include "ui/graph/item_highlight.h"

namespace fb::ir {
class Value;
}

namespace fb::ui {

class ValueItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };
  enum class Role { Input, Output, Initializer };
  ValueItem(const ir::Value* value, Role role, const QString& typeText, const QRectF& rect);
  int type() const override { return Type; }
  QRectF boundingRect() const override { return rect_.adjusted(-3, -3, 3, 3); }
  void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  const ir::Value* value() const { return value_; }
  Role role() const { return role_; }
  QRectF box() const { return rect_; }
  void setHighlight(Highlight h);

 private:
  const ir::Value* value_;
  Role role_;
  QRectF rect_;
  QString name_;
  Highlight highlight_ = Highlight::None;
};

}  // namespace fb::ui
