#pragma once
// Insert a node on an edge (insert-node): it reads a value, and the value's readers (all, or those left checked)
// read its output instead. The node is a Cast (to a chosen element type), an Identity, or any op from a searchable
// list with its schema's attributes, each with a typed editor.
#include <optional>

#include "ui/edit/dialogs/edit_dialog.h"
#include "ui/edit/dialogs/op_catalog.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTableWidget;

namespace fb::ui {

class AttributeValueEditor;

class InsertNodeDialog : public EditDialog {
  Q_OBJECT

 public:
  enum class Kind { Cast, Identity, Other };

  // `readers`: the readers to start with checked (an edge's one reader); every reader when empty.
  InsertNodeDialog(const ir::Model& model, const std::string& value, const std::vector<std::string>& readers = {},
                   QWidget* parent = nullptr);
  static std::optional<edit::Edit> ask(QWidget* parent, const ir::Model& model, const std::string& value,
                                       const std::vector<std::string>& readers = {});

  std::vector<edit::Edit> edits() const override;

  void setKind(Kind k);
  void setCastTarget(const QString& elementType);  // "float16", "int64", ...
  void setFilter(const QString& text);
  void setOtherOp(const QString& op);  // fills the attribute table from its schema
  // The editor of one of the chosen op's attributes; nullptr when its schema has no such attribute.
  AttributeValueEditor* attributeEditor(const std::string& name) const;
  void setReaderChecked(int row, bool checked);
  void setNodeName(const QString& name);
  void setOutputName(const QString& name);
  void setExtraInputs(const QString& commaSeparated);
  QLabel* header() const { return header_; }
  QListWidget* readerList() const { return readers_; }
  QListWidget* opList() const { return ops_; }
  QTableWidget* attributeTable() const { return attributes_; }

 protected:
  std::optional<std::string> formReason() const override;

 private:
  Kind kind() const;
  std::string opType() const;
  void fillOps();
  void fillAttributes();

  std::string value_;
  QLabel* header_ = nullptr;
  QButtonGroup* kinds_ = nullptr;
  QComboBox* castTo_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QListWidget* ops_ = nullptr;
  QTableWidget* attributes_ = nullptr;
  QListWidget* readers_ = nullptr;
  QLineEdit* nodeName_ = nullptr;
  QLineEdit* outputName_ = nullptr;
  QLineEdit* extraInputs_ = nullptr;
  QString otherOp_;
  OpAttributes otherSchema_;
  QStringList known_;
  std::vector<std::string> readerNames_;  // as the list shows them, raw
};

}  // namespace fb::ui
