#pragma once
// One attribute value typed in as set-attr's value= takes it, with an editor that fits the attribute's type: a
// number, a text, a comma-separated list, or a .npy file (with a file picker) for a tensor. The text is checked by
// fb::edit (through checkEdit), not here, so the dialog shows core's reason for a wrong value.
#include <QWidget>

#include "ir/attribute.h"

class QLineEdit;
class QPushButton;

namespace fb::ui {

class AttributeValueEditor : public QWidget {
  Q_OBJECT

 public:
  explicit AttributeValueEditor(QWidget* parent = nullptr);
  // Sets the kind (placeholder, file picker for a tensor); clears nothing.
  void setType(ir::AttrType type);
  ir::AttrType type() const { return type_; }
  // The value as the user wrote it; for a tensor the .npy path.
  void setText(const QString& text);
  QString text() const;
  // What set-attr's value= gets: the text, "@path" for a tensor.
  std::string valueArgument() const;
  QLineEdit* lineEdit() const { return line_; }

 signals:
  void changed();

 private:
  void pickFile();

  ir::AttrType type_ = ir::AttrType::Undefined;
  QLineEdit* line_ = nullptr;
  QPushButton* browse_ = nullptr;
};

// An attribute's value as editable text ("1", "0.5", "1,2,3", the string itself); empty for a tensor or a kind
// edits do not set.
QString editableText(const ir::Attribute& a);

}  // namespace fb::ui
