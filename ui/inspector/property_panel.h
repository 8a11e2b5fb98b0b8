#pragma once
// Base of the Model, Node and Tensor panels: a property tree whose links jump through the Document.
#include <QWidget>

class QTreeView;

namespace fb::ui {

class Document;
class PropertyTreeModel;

class PropertyPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PropertyPanel(Document* doc, QWidget* parent = nullptr);
  PropertyTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }

 protected:
  void finish();  // expands the sections after a refill
  Document* doc_;
  PropertyTreeModel* model_;
  QTreeView* view_;
};

}  // namespace fb::ui
