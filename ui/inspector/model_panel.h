#pragma once
// Facts about the whole model: format, producer, IR version, opsets, metadata, inputs and outputs, parameters.
#include "ui/inspector/property_panel.h"

namespace fb::ui {

class ModelPanel : public PropertyPanel {
  Q_OBJECT
 public:
  explicit ModelPanel(Document* doc, QWidget* parent = nullptr);

 private:
  void refresh();
};

}  // namespace fb::ui
