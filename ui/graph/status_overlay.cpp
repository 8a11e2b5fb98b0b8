#include "ui/graph/status_overlay.h"

#include <QGraphicsRectItem>
#include <QPen>

#include "ir/node.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"

namespace fb::ui {
StatusOverlay::StatusOverlay(GraphScene* scene, ColorOf colorOf, Style style, QObject* parent)
    : QObject(parent), scene_(scene), colorOf_(std::move(colorOf)), style_(style) {
  connect(scene, &GraphScene::rebuilt, this, &StatusOverlay::refresh);
  refresh();
}

void StatusOverlay::refresh() {
  marked_ = 0;
  if (!scene_) return;
  // Collect the node items first: items() also lists our halos, which the loop below may delete.
  QList<NodeItem*> nodes;
  for (QGraphicsItem* item : scene_->items())
    if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) nodes.push_back(node);
  for (NodeItem* node : nodes) {
    QGraphicsRectItem* halo = nullptr;
    for (QGraphicsItem* child : node->childItems())
      if (child->data(style_.dataKey).toBool()) halo = static_cast<QGraphicsRectItem*>(child);
    const QColor c = colorOf_(node->node()->id());
    if (!c.isValid()) {
      delete halo;
      continue;
    }
    if (!halo) {
      const qreal m = style_.margin;
      halo = new QGraphicsRectItem(node->box().adjusted(-m, -m, m, m), node);
      halo->setData(style_.dataKey, true);
      halo->setFlag(QGraphicsItem::ItemStacksBehindParent);
      halo->setAcceptedMouseButtons(Qt::NoButton);
    }
    QColor fill = c;
    fill.setAlpha(150);
    halo->setBrush(style_.filled ? QBrush(fill) : QBrush(Qt::NoBrush));
    QPen pen(c);
    pen.setWidthF(style_.filled ? 2.5 : 3.5);
    halo->setPen(pen);
    ++marked_;
  }
}

}  // namespace fb::ui
