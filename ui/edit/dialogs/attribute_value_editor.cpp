#include "ui/edit/dialogs/attribute_value_editor.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace fb::ui {

AttributeValueEditor::AttributeValueEditor(QWidget* parent) : QWidget(parent) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  line_ = new QLineEdit(this);
  line_->setObjectName(QStringLiteral("attributeValue"));
  browse_ = new QPushButton(tr("Browse..."), this);
  browse_->setObjectName(QStringLiteral("attributeBrowse"));
  browse_->setVisible(false);
  row->addWidget(line_, 1);
  row->addWidget(browse_);
  connect(line_, &QLineEdit::textChanged, this, &AttributeValueEditor::changed);
  connect(browse_, &QPushButton::clicked, this, &AttributeValueEditor::pickFile);
  setType(ir::AttrType::Undefined);
}

void AttributeValueEditor::setType(ir::AttrType type) {
  type_ = type;
  browse_->setVisible(type == ir::AttrType::Tensor);
  line_->setEnabled(true);
  switch (type) {
    case ir::AttrType::Int:
      line_->setPlaceholderText(tr("an integer, e.g. 1"));
      break;
    case ir::AttrType::Float:
      line_->setPlaceholderText(tr("a number, e.g. 0.5"));
      break;
    case ir::AttrType::String:
      line_->setPlaceholderText(tr("text"));
      break;
    case ir::AttrType::Ints:
      line_->setPlaceholderText(tr("integers, e.g. 1,2,3"));
      break;
    case ir::AttrType::Floats:
      line_->setPlaceholderText(tr("numbers, e.g. 0.5,1"));
      break;
    case ir::AttrType::Strings:
      line_->setPlaceholderText(tr("texts, comma-separated"));
      break;
    case ir::AttrType::Tensor:
      line_->setPlaceholderText(tr("a .npy file"));
      break;
    case ir::AttrType::Undefined:
      line_->setPlaceholderText(tr("1 | 0.5 | text | 1,2,3 | 0.5,1"));
      break;
    default:
      line_->setPlaceholderText(tr("edits do not set %1 attributes").arg(QString::fromUtf8(ir::attrTypeName(type))));
      line_->setEnabled(false);
      break;
  }
}

void AttributeValueEditor::setText(const QString& text) { line_->setText(text); }

QString AttributeValueEditor::text() const { return line_->text(); }

std::string AttributeValueEditor::valueArgument() const {
  const QString t = line_->text();
  if (type_ == ir::AttrType::Tensor && !t.isEmpty() && !t.startsWith('@')) return "@" + t.toStdString();
  return t.toStdString();
}

void AttributeValueEditor::pickFile() {
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Tensor from a NumPy file"), QString(), tr("NumPy arrays (*.npy)"));
  if (!file.isEmpty()) line_->setText(file);
}

QString editableText(const ir::Attribute& a) {
  auto join = [](const auto& list, auto toText) {
    QStringList parts;
    for (const auto& x : list) parts << toText(x);
    return parts.join(',');
  };
  switch (a.type) {
    case ir::AttrType::Int:
      return QString::number(a.i);
    case ir::AttrType::Float:
      return QString::number(double(a.f), 'g', 9);
    case ir::AttrType::String:
      return QString::fromStdString(a.s.str());
    case ir::AttrType::Ints:
      return join(a.ints, [](int64_t v) { return QString::number(v); });
    case ir::AttrType::Floats:
      return join(a.floats.vec(), [](float v) { return QString::number(double(v), 'g', 9); });
    case ir::AttrType::Strings:
      return join(a.strings.vec(), [](const std::string& v) { return QString::fromStdString(v); });
    default:
      return {};
  }
}

}  // namespace fb::ui
