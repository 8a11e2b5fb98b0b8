#pragma once
// The selected tensor: its type, and for an initializer the statistics and the first values.
#include "ui/inspector/property_panel.h"

namespace fb::ui {

class TensorPanel : public PropertyPanel {
  Q_OBJECT
 public:
  explicit TensorPanel(Document* doc, QWidget* parent = nullptr);

 private:
  void refresh();
};

}  // namespace fb::ui
