#pragma once
// The selected node: op type, domain, since-version at the model's opset, name, attributes, and its
// inputs and outputs with types, producers and consumers (each a link).
#include <QList>
#include <QPair>
#include <functional>

#include "ui/inspector/property_panel.h"

namespace fb::ir {
class Node;
}

namespace fb::ui {

class NodePanel : public PropertyPanel {
  Q_OBJECT
 public:
  explicit NodePanel(Document* doc, QWidget* parent = nullptr);
  // Shows the selection of another document (the converted preview when its view has focus).
  void setDocument(Document* doc);
  Document* document() const { return doc_; }

  // Rows about the node from elsewhere (the conversion's verdict on it, its counterpart in a compared model), in a
  // section of their own after the node's general facts; no section when it returns none. One per section title:
  // setting a title again replaces its rows.
  using Annotation = std::function<QList<QPair<QString, QString>>(const ir::Node*)>;
  void setAnnotation(const QString& section, Annotation rows);
  void refresh();

 private:
  QList<QPair<QString, Annotation>> annotations_;
};

}  // namespace fb::ui
