#include "ui/graph/node_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ir/node.h"
#include "layout/op_category.h"

namespace fb::ui {

NodeItem::NodeItem(const ir::Node* node, const QRectF& rect) : node_(node), rect_(rect) {
  const auto category = layout::opCategory(node->opType, node->domain);
  fill_ = QColor(QString::fromUtf8(layout::opCategoryColor(category).data(), int(layout::opCategoryColor(category).size())));
  op_ = QString::fromStdString(node->opType);
  name_ = QString::fromStdString(node->name);
  setToolTip(QStringLiteral("%1\n%2").arg(name_.isEmpty() ? QStringLiteral("(unnamed)") : name_, op_));
  setZValue(2);
}

void NodeItem::setHighlight(Highlight h) {
  if (h == highlight_) return;
  highlight_ = h;
  update();
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(highlight_ == Highlight::Selected ? QColor("#d62728") : highlight_ == Highlight::Neighbour ? QColor("#ff7f0e") : QColor("#444444"));
  pen.setWidthF(highlight_ == Highlight::None ? 1.0 : 3.0);
  pen.setCosmetic(highlight_ == Highlight::None);
  if (lod < kTextLevelOfDetail) {
    // Zoomed out: a filled rectangle is all that can be seen; skip rounding and text.
    p->fillRect(rect_, fill_);
    if (highlight_ != Highlight::None) {
      p->setPen(pen);
      p->drawRect(rect_);
    }
    return;
  }
  p->setPen(pen);
  p->setBrush(fill_);
  p->drawRoundedRect(rect_, 5, 5);
  p->setPen(Qt::black);
  QFont f = p->font();
  f.setPointSizeF(9);
  f.setBold(true);
  if (lod >= kDetailLevelOfDetail && !name_.isEmpty()) {
    p->setFont(f);
    p->drawText(rect_.adjusted(4, 2, -4, -rect_.height() / 2), Qt::AlignCenter, op_);
    f.setPointSizeF(5.5);
    f.setBold(false);
    p->setFont(f);
    const QRectF nameRect = rect_.adjusted(4, rect_.height() / 2, -4, -2);
    p->drawText(nameRect, Qt::AlignCenter, p->fontMetrics().elidedText(name_, Qt::ElideLeft, int(nameRect.width())));
  } else {
    p->setFont(f);
    p->drawText(rect_, Qt::AlignCenter, op_);
  }
}

}  // namespace fb::ui
