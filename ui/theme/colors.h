#pragma once
// The app's fixed colours, named by what they mean. Colours that follow the system palette (canvas background,
// edges, block frames) are in canvas_theme.h; op categories' fills come from layout::opCategoryColor.
// One place says what "converted", "modified" or "selected" looks like, on every canvas and in every table.
#include <QColor>

#include "convert/node_status.h"

namespace fb::ui {

// A conversion's verdict on a node (the dry run's halos and badges on the source graph, report rows, legends);
// invalid for Unchanged, which gets no mark.
QColor statusColor(convert::NodeStatus s);

// What a conversion or a pass did to a node (the preview, pass steps, their legends).
QColor addedColor();
QColor modifiedColor();
QColor removedColor();

// Canvas items: outlines of the selection (magenta) and its neighbours (teal), in hues no status or diff colour has
// (not "converted" blue, "modified" orange, "unsupported" red), and the fixed fills and outlines of nodes, values and
// collapsed blocks.
struct ItemColors {
  QColor selected;      // outline of a selected node
  QColor neighbour;     // outline of what is next to the selection (nodes, values, blocks)
  QColor selectedEdge;  // an edge of the selection
  QColor nodeOutline;
  QColor nodeText;
  QColor valueOutline;
  QColor valueFill;
  QColor initializerFill;
  QColor blockOutline;  // a collapsed block
  QColor blockFill;
};
const ItemColors& itemColors();

// Text that can be followed (tensor and graph names in property trees).
QColor linkColor();
// A keyboard shortcut bound to more than one command.
QColor conflictColor();
// Background of the code lines written for the selected node.
QColor codeHighlightColor();

}  // namespace fb::ui
