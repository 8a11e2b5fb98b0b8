#pragma once
// Places the shape labels of edges so that none covers a box or another label: each label tries spots
// along its edge (middle first, then towards the ends, right of the line then left) and takes the first
// free one; a label with no free spot is left out (the edge's tooltip still names the tensor).
#include <QFontMetricsF>
#include <QList>
#include <QRectF>
#include <vector>

namespace fb::ui {

class EdgeItem;

// `obstacles`: the boxes drawn (nodes, collapsed blocks, inputs, outputs). Returns how many labels found a place.
int placeEdgeLabels(const QList<EdgeItem*>& edges, const std::vector<QRectF>& obstacles, const QFontMetricsF& metrics);

}  // namespace fb::ui
