#include "ui/edit/dialogs/initializer_editor_dialog.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>

#include "ir/graph.h"
#include "ir/tensor.h"
#include "ui/edit/dialogs/attribute_value_editor.h"

namespace fb::ui {

namespace {

QString shapeText(const std::vector<int64_t>& dims) {
  QStringList parts;
  for (int64_t d : dims) parts << QString::number(d);
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

}  // namespace

InitializerEditorDialog::InitializerEditorDialog(const ir::Model& model, const std::string& initializer,
                                                 QWidget* parent)
    : EditDialog(model, tr("Edit Initializer"), parent), name_(initializer) {
  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("initializerHeader"));
  header_->setTextFormat(Qt::PlainText);
  const ir::Value* v = model.graph().findValue(initializer);
  const ir::Tensor* t = v ? v->initializer() : nullptr;
  header_->setText(t ? tr("Initializer %1: %2 %3")
                           .arg(shownName(initializer))
                           .arg(QString::fromUtf8(ir::dataTypeName(t->dtype)))
                           .arg(shapeText(t->dims))
                     : tr("The graph has no initializer %1").arg(shownName(initializer)));
  body()->addWidget(header_);

  auto* grid = new QGridLayout;
  changes_ = new QButtonGroup(this);
  auto addChange = [&](Change c, const QString& label, QWidget* editor) {
    auto* b = new QRadioButton(label, this);
    changes_->addButton(b, int(c));
    const int row = grid->rowCount();
    grid->addWidget(b, row, 0);
    grid->addWidget(editor, row, 1);
  };
  npy_ = new AttributeValueEditor(this);
  npy_->setType(ir::AttrType::Tensor);
  cast_ = new QComboBox(this);
  cast_->setObjectName(QStringLiteral("castType"));
  for (const char* name : {"float", "float16", "bfloat16", "double", "int8", "uint8", "int16", "uint16", "int32",
                           "uint32", "int64", "uint64", "bool"})
    cast_->addItem(QString::fromLatin1(name));
  fill_ = new QLineEdit(this);
  fill_->setObjectName(QStringLiteral("fillNumber"));
  fill_->setPlaceholderText(tr("every element this number, e.g. 0"));
  scalar_ = new QLineEdit(this);
  scalar_->setObjectName(QStringLiteral("scalarNumber"));
  scalar_->setPlaceholderText(tr("a 0-d tensor holding this number"));
  addChange(Change::FromNpy, tr("Replace from .npy:"), npy_);
  addChange(Change::Cast, tr("Cast to:"), cast_);
  addChange(Change::Fill, tr("Fill with:"), fill_);
  addChange(Change::Scalar, tr("Make a scalar:"), scalar_);
  changes_->button(int(Change::FromNpy))->setChecked(true);
  body()->addLayout(grid);
  body()->addStretch(1);
  finishLayout();

  connect(changes_, &QButtonGroup::idToggled, this, &EditDialog::scheduleRevalidate);
  connect(npy_, &AttributeValueEditor::changed, this, [this] {
    setChange(Change::FromNpy);
    scheduleRevalidate();
  });
  connect(cast_, &QComboBox::currentIndexChanged, this, [this] {
    setChange(Change::Cast);
    scheduleRevalidate();
  });
  connect(fill_, &QLineEdit::textEdited, this, [this] {
    setChange(Change::Fill);
    scheduleRevalidate();
  });
  connect(scalar_, &QLineEdit::textEdited, this, [this] {
    setChange(Change::Scalar);
    scheduleRevalidate();
  });
  resize(520, 260);
}

InitializerEditorDialog::Change InitializerEditorDialog::change() const {
  return Change(std::max(0, changes_->checkedId()));
}

void InitializerEditorDialog::setChange(Change c) { changes_->button(int(c))->setChecked(true); }
void InitializerEditorDialog::setNpyPath(const QString& path) { npy_->setText(path); }
void InitializerEditorDialog::setCastType(const QString& elementType) {
  cast_->setCurrentText(elementType);
  setChange(Change::Cast);
}
void InitializerEditorDialog::setNumber(const QString& number) {
  fill_->setText(number);
  scalar_->setText(number);
}

std::optional<std::string> InitializerEditorDialog::formReason() const {
  if (change() == Change::FromNpy && npy_->text().isEmpty()) return tr("choose a .npy file").toStdString();
  if (change() == Change::Fill && fill_->text().isEmpty()) return tr("type a number").toStdString();
  if (change() == Change::Scalar && scalar_->text().isEmpty()) return tr("type a number").toStdString();
  return std::nullopt;
}

std::vector<edit::Edit> InitializerEditorDialog::edits() const {
  edit::Edit e;
  e.verb = "set-initializer";
  e.set("name", name_);
  switch (change()) {
    case Change::FromNpy: {
      QString path = npy_->text();
      if (path.startsWith('@')) path.remove(0, 1);
      e.set("npy", path.toStdString());
      break;
    }
    case Change::Cast:
      e.set("cast", cast_->currentText().toStdString());
      break;
    case Change::Fill:
      e.set("fill", fill_->text().toStdString());
      break;
    case Change::Scalar:
      e.set("scalar", scalar_->text().toStdString());
      break;
  }
  return {e};
}

std::optional<edit::Edit> InitializerEditorDialog::ask(QWidget* parent, const ir::Model& model,
                                                       const std::string& initializer) {
  InitializerEditorDialog d(model, initializer, parent);
  auto list = d.run();
  if (!list || list->empty()) return std::nullopt;
  return list->front();
}

}  // namespace fb::ui
