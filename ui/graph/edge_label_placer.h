#pragma once
// Places the shape labels of edges so that none covers a box or another label and no edge runs through
// one: each label tries spots along its edge (middle first, then alternately towards the ends; beside the
// line, or above and below where it runs sideways) and takes the first that is free of boxes, labels and
// the lines of every edge, or failing that the first crossed by a frame's outline only (never by its own
// edge). Short edges choose first: long ones have room further along. A label with no such spot is left out
// (the edge's tooltip still names the tensor). Boxes, labels and edge segments are kept in uniform grids, so a scene of
// a few thousand edges is placed in tens of milliseconds.
#include <QFontMetricsF>
#include <QList>
#include <QRectF>
#include <vector>

namespace fb::ui {

class EdgeItem;

// `obstacles`: the boxes drawn (nodes, collapsed blocks, inputs, outputs) and the titles of frames; `frames`: the
// outlines of open blocks, which labels do not straddle either. Returns how many labels found a place.
int placeEdgeLabels(const QList<EdgeItem*>& edges, const std::vector<QRectF>& obstacles, const QFontMetricsF& metrics,
                    const std::vector<QRectF>& frames = {});

}  // namespace fb::ui
