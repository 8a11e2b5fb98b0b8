#include "ui/graph/status_overlay.h"

#include <QGraphicsRectItem>
#include <QPen>

#include "ir/node.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/node_item.h"

namespace fb::ui {
namespace {
constexpr int kHaloKey = 0x5a7;  // QGraphicsItem::data key that tags our halo items
}

StatusOverlay::StatusOverlay(GraphScene* scene, ColorOf colorOf, QObject* parent)
    : QObject(parent), scene_(scene), colorOf_(std::move(colorOf)) {
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
      if (child->data(kHaloKey).toBool()) halo = static_cast<QGraphicsRectItem*>(child);
    const QColor c = colorOf_(node->node()->id());
    if (!c.isValid()) {
      delete halo;
      continue;
    }
    if (!halo) {
      halo = new QGraphicsRectItem(node->box().adjusted(-5, -5, 5, 5), node);
      halo->setData(kHaloKey, true);
      halo->setFlag(QGraphicsItem::ItemStacksBehindParent);
      halo->setAcceptedMouseButtons(Qt::NoButton);
    }
    QColor fill = c;
    fill.setAlpha(150);
    halo->setBrush(fill);
    QPen pen(c);
    pen.setWidthF(2.5);
    halo->setPen(pen);
    ++marked_;
  }
}

}  // namespace fb::ui
