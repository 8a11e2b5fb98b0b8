#pragma once
// Change a weight (initializer): replace it from a .npy file, cast it to another element type, fill it with one
// number (type and shape kept), or make it a scalar of its element type. One set-initializer edit.
#include <optional>

#include "ui/edit/dialogs/edit_dialog.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QLineEdit;

namespace fb::ui {

class AttributeValueEditor;

class InitializerEditorDialog : public EditDialog {
  Q_OBJECT

 public:
  enum class Change { FromNpy, Cast, Fill, Scalar };

  InitializerEditorDialog(const ir::Model& model, const std::string& initializer, QWidget* parent = nullptr);
  static std::optional<edit::Edit> ask(QWidget* parent, const ir::Model& model, const std::string& initializer);

  std::vector<edit::Edit> edits() const override;

  void setChange(Change c);
  void setNpyPath(const QString& path);
  void setCastType(const QString& elementType);  // "float16", "int64", ...
  void setNumber(const QString& number);         // for Fill and Scalar
  QLabel* header() const { return header_; }

 protected:
  std::optional<std::string> formReason() const override;

 private:
  Change change() const;

  std::string name_;
  QLabel* header_ = nullptr;
  QButtonGroup* changes_ = nullptr;
  AttributeValueEditor* npy_ = nullptr;
  QComboBox* cast_ = nullptr;
  QLineEdit* fill_ = nullptr;
  QLineEdit* scalar_ = nullptr;
};

}  // namespace fb::ui
