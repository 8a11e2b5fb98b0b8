#include "ui/graph/node_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include "ir/node.h"
#include "ir/graph.h"
#include "layout/hierarchical_layout.h"
#include "layout/op_category.h"
#include "ui/theme/colors.h"

namespace fb::ui {

NodeItem::NodeItem(const ir::Node* node, const QRectF& rect, const QStringList& details)
    : node_(node), rect_(rect), details_(details) {
  const auto category = layout::opCategory(node->opType, node->domain);
  fill_ = QColor(
      QString::fromUtf8(layout::opCategoryColor(category).data(), int(layout::opCategoryColor(category).size())));
  op_ = QString::fromStdString(node->opType);
  name_ = QString::fromStdString(node->name);
  for (const auto& a : node->attributes)
    for (const auto& g : a.graphs)
      if (g) bodies_.append({QString::fromStdString(a.name), g.get()});
  setToolTip(QStringLiteral("%1\n%2").arg(name_.isEmpty() ? QStringLiteral("(unnamed)") : name_, op_) +
             (details_.isEmpty() ? QString() : QStringLiteral("\n") + details_.join(QLatin1Char('\n'))));
  setZValue(2);
}

QRectF NodeItem::bodyRect(int i) const {
  // Below the header and the folded inputs' lines, as nodeBoxSize counts them.
  const int detailLines = int(std::min<size_t>(size_t(details_.size()), layout::kMaxDetailLines));
  const double top = rect_.top() + layout::kNodeHeaderHeight + (detailLines + i) * layout::kDetailLineHeight - 2;
  return {rect_.left() + 6, top, rect_.width() - 12, layout::kDetailLineHeight};
}

int NodeItem::bodyAt(const QPointF& scenePos) const {
  for (int i = 0; i < bodies_.size(); ++i)
    if (bodyRect(i).contains(scenePos)) return i;
  return -1;
}

void NodeItem::setHighlight(Highlight h) {
  if (h == highlight_) return;
  highlight_ = h;
  update();
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  QPen pen(highlight_ == Highlight::Selected    ? itemColors().selected
           : highlight_ == Highlight::Neighbour ? itemColors().neighbour
                                                : itemColors().nodeOutline);
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
  // The header holds the op type (and the name); folded inputs are listed below it, one per line.
  const QRectF header(rect_.left(), rect_.top(), rect_.width(), std::min(rect_.height(), layout::kNodeHeaderHeight));
  if (lod >= kDetailLevelOfDetail && !name_.isEmpty()) {
    p->setFont(f);
    p->drawText(header.adjusted(4, 2, -4, -header.height() / 2), Qt::AlignCenter, op_);
    f.setPointSizeF(kMinTextPointSize);
    f.setBold(false);
    p->setFont(f);
    const QRectF nameRect = header.adjusted(4, header.height() / 2, -4, -2);
    p->drawText(nameRect, Qt::AlignCenter, p->fontMetrics().elidedText(name_, Qt::ElideLeft, int(nameRect.width())));
  } else {
    p->setFont(f);
    p->drawText(header, Qt::AlignCenter, op_);
  }
  if ((details_.isEmpty() && bodies_.isEmpty()) || lod < kDetailLevelOfDetail) return;
  f.setPointSizeF(kMinTextPointSize);
  f.setBold(false);
  if (!bodies_.isEmpty()) {
    // Body names read as links: they open the body.
    QFont link = f;
    link.setUnderline(true);
    p->setFont(link);
    p->setPen(itemColors().nodeText);
    for (int i = 0; i < bodies_.size(); ++i)
      p->drawText(bodyRect(i), Qt::AlignLeft | Qt::AlignVCenter, bodies_[i].first + QStringLiteral(" \u203a"));
  }
  p->setFont(f);
  p->setPen(itemColors().nodeText);
  const int shown = int(std::min<size_t>(size_t(details_.size()), layout::kMaxDetailLines));
  for (int i = 0; i < shown; ++i) {
    const QRectF line(rect_.left() + 6, header.bottom() + i * layout::kDetailLineHeight - 2, rect_.width() - 12,
                      layout::kDetailLineHeight);
    const QString text = i == shown - 1 && details_.size() > shown
                             ? QObject::tr("+%1 more").arg(details_.size() - shown + 1)
                             : details_[i];
    p->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                p->fontMetrics().elidedText(text, Qt::ElideRight, int(line.width())));
  }
}

}  // namespace fb::ui
