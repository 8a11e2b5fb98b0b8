#pragma once
// Change or remove one attribute of a node: the node's attributes and those its op's schema allows at the model's
// opset (with defaults and documentation) in a table; the chosen one edited with a typed editor (set-attr) or
// removed (remove-attr).
#include <QString>
#include <optional>

#include "ui/edit/dialogs/edit_dialog.h"
#include "ui/edit/dialogs/op_catalog.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace fb::ui {

class AttributeValueEditor;

class AttributeEditorDialog : public EditDialog {
  Q_OBJECT

 public:
  // `attribute`: the one to start on (the node's first, else the schema's first, when empty).
  AttributeEditorDialog(const ir::Model& model, const ir::Node& node, const std::string& attribute = {},
                        QWidget* parent = nullptr);
  static std::optional<edit::Edit> ask(QWidget* parent, const ir::Model& model, const ir::Node& node,
                                       const std::string& attribute = {});

  std::vector<edit::Edit> edits() const override;

  // The form, for tests and for a caller that starts on a given value.
  void chooseAttribute(const std::string& name);
  void setValueText(const QString& text);
  void setTypeName(const QString& type);  // "int", ..., "tensor"; empty: as the attribute or schema says
  void setRemove(bool remove);
  QTableWidget* table() const { return table_; }
  QLabel* header() const { return header_; }
  QLabel* docLabel() const { return doc_; }
  AttributeValueEditor* valueEditor() const { return value_; }

 protected:
  std::optional<std::string> formReason() const override;

 private:
  void fillTable();
  void rowChosen();
  void nameEdited();

  const ir::Node& node_;
  OpAttributes schema_;
  ir::AttrType knownType_ = ir::AttrType::Undefined;  // of the attribute named in the form
  QLabel* header_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* doc_ = nullptr;
  QLineEdit* name_ = nullptr;
  QComboBox* type_ = nullptr;
  AttributeValueEditor* value_ = nullptr;
  QCheckBox* remove_ = nullptr;
};

}  // namespace fb::ui
