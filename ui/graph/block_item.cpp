#include "ui/graph/block_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ui/theme/canvas_theme.h"
#include "ui/theme/colors.h"

namespace fb::ui {

BlockItem::BlockItem(int block, const QString& label, const QString& path, size_t nodeCount, bool expanded,
                     const QRectF& rect)
    : block_(block), label_(label), nodeCount_(nodeCount), expanded_(expanded), rect_(rect) {
  setToolTip(QObject::tr("%1\n%2 nodes; double-click to %3")
                 .arg(path)
                 .arg(nodeCount)
                 .arg(expanded ? QObject::tr("collapse") : QObject::tr("expand")));
  setZValue(expanded ? 0 : 2);
  labelFont_ = fittingLabelFont();  // measured once: painting is frequent
}

QRectF BlockItem::labelRect() const {
  return expanded_ ? QRectF(rect_.left() + 8, rect_.top() + 3, rect_.width() - 16, 16)
                   : rect_.adjusted(6, 4, -6, -rect_.height() / 2);
}

QFont BlockItem::fittingLabelFont() const {
  QFont f;
  f.setBold(!expanded_);
  // Collapsed names are set one size up; step down until the name fits.
  const double width = labelRect().width();
  for (double size = expanded_ ? 8 : 9; size >= kMinTextPointSize; size -= 0.5) {
    f.setPointSizeF(size);
    if (QFontMetricsF(f).horizontalAdvance(label_) <= width) break;
  }
  return f;
}

void BlockItem::setHighlight(Highlight h) {
  if (h == highlight_) return;
  highlight_ = h;
  update();
}

void BlockItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(highlight_ == Highlight::None ? itemColors().blockOutline : itemColors().neighbour);
  pen.setCosmetic(true);
  pen.setWidthF(highlight_ == Highlight::None ? 1.0 : 2.5);
  if (expanded_) {
    pen.setStyle(Qt::DashLine);
    p->setPen(pen);
    p->setBrush(canvasTheme().blockFrameFill);
    p->drawRoundedRect(rect_, 8, 8);
    if (lod >= kTextLevelOfDetail) {
      p->setFont(labelFont());
      p->setPen(canvasTheme().blockLabel);
      const QRectF r = labelRect();
      p->drawText(r, Qt::AlignLeft | Qt::AlignTop,
                  QFontMetricsF(p->font()).elidedText(label_, Qt::ElideMiddle, r.width()));
    }
    return;
  }
  p->setPen(pen);
  p->setBrush(itemColors().blockFill);
  if (lod < kTextLevelOfDetail) {
    p->drawRect(rect_);
    return;
  }
  p->drawRoundedRect(rect_, 6, 6);
  // A second outline hints that there is more inside.
  p->drawLine(rect_.bottomLeft() + QPointF(6, 3), rect_.bottomRight() + QPointF(-6, 3));
  QFont f = labelFont();
  p->setFont(f);
  p->setPen(Qt::black);
  const QRectF r = labelRect();
  p->drawText(r, Qt::AlignCenter, QFontMetricsF(f).elidedText(label_, Qt::ElideMiddle, r.width()));
  f.setBold(false);
  f.setPointSizeF(8);
  p->setFont(f);
  p->drawText(rect_.adjusted(6, rect_.height() / 2, -6, -4), Qt::AlignCenter, QObject::tr("%1 nodes").arg(nodeCount_));
}

}  // namespace fb::ui
