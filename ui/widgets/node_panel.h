#pragma once
// The selected node: op type, domain, since-version at the model's opset, name, attributes, and its
// inputs and outputs with types, producers and consumers (each a link).
#include "ui/widgets/property_panel.h"

namespace fb::ui {

class NodePanel : public PropertyPanel {
  Q_OBJECT
 public:
  explicit NodePanel(Document* doc, QWidget* parent = nullptr);
  // Shows the selection of another document (the converted preview when its view has focus).
  void setDocument(Document* doc);
  Document* document() const { return doc_; }

 private:
  void refresh();
};

}  // namespace fb::ui
