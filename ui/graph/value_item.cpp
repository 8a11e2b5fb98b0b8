#include "ui/graph/value_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ir/value.h"
#include "ui/theme/colors.h"

namespace fb::ui {

ValueItem::ValueItem(const ir::Value* value, Role role, const QString& typeText, const QRectF& rect)
    : value_(value), role_(role), rect_(rect), name_(QString::fromStdString(value->name())) {
  const QString what = role == Role::Input    ? QObject::tr("graph input")
                       : role == Role::Output ? QObject::tr("graph output")
                                              : QObject::tr("initializer");
  setToolTip(QStringLiteral("%1 (%2)\n%3").arg(name_, what, typeText));
  setZValue(2);
}

void ValueItem::setHighlight(Highlight h) {
  if (h == highlight_) return;
  highlight_ = h;
  update();
}

void ValueItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(highlight_ == Highlight::None ? itemColors().valueOutline : itemColors().neighbour);
  pen.setCosmetic(true);
  pen.setWidthF(highlight_ == Highlight::None ? 1.0 : 2.5);
  p->setPen(pen);
  p->setBrush(role_ == Role::Initializer ? itemColors().initializerFill : itemColors().valueFill);
  if (role_ == Role::Initializer)
    p->drawRect(rect_);
  else
    p->drawRoundedRect(rect_, rect_.height() / 2, rect_.height() / 2);
  if (lod < kTextLevelOfDetail) return;
  QFont f = p->font();
  f.setPointSizeF(role_ == Role::Initializer ? 8 : 8.5);
  p->setFont(f);
  p->setPen(Qt::black);
  p->drawText(rect_.adjusted(6, 0, -6, 0), Qt::AlignCenter,
              p->fontMetrics().elidedText(name_, Qt::ElideMiddle, int(rect_.width() - 12)));
}

}  // namespace fb::ui
