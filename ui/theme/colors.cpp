#include "ui/theme/colors.h"

namespace fb::ui {

QColor statusColor(convert::NodeStatus s) {
  switch (s) {
    case convert::NodeStatus::Unchanged:
      return QColor();
    case convert::NodeStatus::Converted:
      return QColor("#1f77b4");
    case convert::NodeStatus::Unsupported:
      return QColor("#d62728");
    case convert::NodeStatus::Failed:
      return QColor("#9467bd");
    case convert::NodeStatus::Kept:
      return QColor("#7f7f7f");
  }
  return QColor();
}

QColor addedColor() { return QColor("#2ca02c"); }
QColor modifiedColor() { return QColor("#ff7f0e"); }
QColor removedColor() { return QColor("#d62728"); }

// The selection is magenta and its neighbours teal: far (CIE76 distance > 40) from every status and diff colour
// above, so a selected node never looks converted, modified, unsupported or removed.
const ItemColors& itemColors() {
  static const ItemColors colors{
      .selected = QColor("#e6007e"),
      .neighbour = QColor("#00c2b0"),
      .selectedEdge = QColor("#b0006a"),
      .nodeOutline = QColor("#444444"),
      .nodeText = QColor("#202020"),
      .valueOutline = QColor("#333333"),
      .valueFill = QColor("#ffffff"),
      .initializerFill = QColor("#f4f4f4"),
      .blockOutline = QColor("#7a86a8"),
      .blockFill = QColor("#dde3f0"),
  };
  return colors;
}

QColor linkColor() { return QColor("#1f5fbf"); }
QColor conflictColor() { return QColor("#d62728"); }
QColor codeHighlightColor() { return QColor(255, 236, 140); }

}  // namespace fb::ui
