#include "ui/edit/dialogs/attribute_editor_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>

#include "ir/node.h"
#include "ui/edit/dialogs/attribute_value_editor.h"
#include "util/printable.h"

namespace fb::ui {

namespace {

enum Column { kName, kType, kValue, kColumns };

// A model string short and clean enough to edit as it is in a line edit; longer or control-laden values are only
// shown (escaped) in the table, and the user types a new value.
bool editableAsIs(const QString& text) {
  return text.size() <= 4096 && printable(text.toStdString()) == text.toStdString();
}

}  // namespace

AttributeEditorDialog::AttributeEditorDialog(const ir::Model& model, const ir::Node& node, const std::string& attribute,
                                             QWidget* parent)
    : EditDialog(model, tr("Edit Attribute"), parent), node_(node) {
  const int64_t opset = model.opsetVersion(node.domain.str() == "ai.onnx" ? std::string() : node.domain.str());
  schema_ = opAttributes(node.domain, node.opType, opset);

  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("nodeHeader"));
  header_->setTextFormat(Qt::PlainText);
  header_->setText(tr("Node %1 [%2%3], opset %4%5")
                       .arg(shownName(node.name), shownName(node.opType, 40),
                            node.domain.empty() ? QString() : QStringLiteral(", ") + shownName(node.domain, 40))
                       .arg(opset)
                       .arg(schema_.known ? QString() : tr(": no schema known, values are typed as written")));
  body()->addWidget(header_);

  table_ = new QTableWidget(0, kColumns, this);
  table_->setHorizontalHeaderLabels({tr("Attribute"), tr("Type"), tr("Value")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  body()->addWidget(table_, 1);

  doc_ = new QLabel(this);
  doc_->setObjectName(QStringLiteral("attributeDoc"));
  doc_->setTextFormat(Qt::PlainText);
  doc_->setWordWrap(true);
  body()->addWidget(doc_);

  auto* form = new QFormLayout;
  name_ = new QLineEdit(this);
  name_->setObjectName(QStringLiteral("attributeName"));
  type_ = new QComboBox(this);
  type_->setObjectName(QStringLiteral("attributeType"));
  type_->addItem(tr("as the attribute says"), QString());
  for (const char* t : {"int", "float", "string", "ints", "floats", "strings", "tensor"})
    type_->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
  value_ = new AttributeValueEditor(this);
  remove_ = new QCheckBox(tr("Remove the attribute from the node"), this);
  remove_->setObjectName(QStringLiteral("removeAttribute"));
  form->addRow(tr("Attribute:"), name_);
  form->addRow(tr("Type:"), type_);
  form->addRow(tr("Value:"), value_);
  form->addRow(QString(), remove_);
  body()->addLayout(form);
  finishLayout();

  fillTable();
  connect(table_, &QTableWidget::itemSelectionChanged, this, &AttributeEditorDialog::rowChosen);
  connect(name_, &QLineEdit::textEdited, this, &AttributeEditorDialog::nameEdited);
  connect(type_, &QComboBox::currentIndexChanged, this, [this] {
    const QString t = type_->currentData().toString();
    ir::AttrType chosen = knownType_;
    for (ir::AttrType k : {ir::AttrType::Int, ir::AttrType::Float, ir::AttrType::String, ir::AttrType::Ints,
                           ir::AttrType::Floats, ir::AttrType::Strings, ir::AttrType::Tensor})
      if (!t.isEmpty() && editableTypeName(k) == t) chosen = k;
    value_->setType(chosen);
    scheduleRevalidate();
  });
  connect(value_, &AttributeValueEditor::changed, this, &EditDialog::scheduleRevalidate);
  connect(remove_, &QCheckBox::toggled, this, [this](bool on) {
    value_->setEnabled(!on);
    type_->setEnabled(!on);
    scheduleRevalidate();
  });

  std::string start = attribute;
  if (start.empty() && !node.attributes.empty()) start = node.attributes.front().name;
  if (start.empty() && !schema_.attributes.isEmpty()) start = schema_.attributes.front().name;
  if (!start.empty()) chooseAttribute(start);
  resize(640, 520);
}

void AttributeEditorDialog::fillTable() {
  // The node's attributes first (as set), then the schema's others (with their defaults).
  struct Row {
    std::string name;
    QString type, value, tip;
    bool set;
  };
  QList<Row> rows;
  for (const auto& a : node_.attributes) {
    const SchemaAttribute* s = schema_.find(a.name);
    QString tip = s ? s->doc : (schema_.known ? tr("Not in the op's schema at this opset.") : QString());
    rows.append({a.name, QString::fromUtf8(ir::attrTypeName(a.type)), shownLine(a.valueToString(16), 120), tip, true});
  }
  for (const auto& s : schema_.attributes) {
    if (node_.attr(s.name)) continue;
    const QString value = s.required                ? tr("(required, not set)")
                          : s.defaultText.isEmpty() ? tr("(not set)")
                                                    : tr("(default %1)").arg(s.defaultText);
    rows.append({s.name, QString::fromUtf8(ir::attrTypeName(s.type)), value, s.doc, false});
  }
  table_->setRowCount(int(rows.size()));
  for (int r = 0; r < rows.size(); ++r) {
    auto* name = new QTableWidgetItem(shownName(rows[r].name, 60));
    name->setData(Qt::UserRole, QString::fromStdString(rows[r].name));
    name->setToolTip(rows[r].tip);
    if (rows[r].set) {
      QFont f = name->font();
      f.setBold(true);
      name->setFont(f);
    }
    table_->setItem(r, kName, name);
    table_->setItem(r, kType, new QTableWidgetItem(rows[r].type));
    auto* value = new QTableWidgetItem(rows[r].value);
    if (!rows[r].set) value->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    table_->setItem(r, kValue, value);
  }
  table_->resizeColumnsToContents();
}

void AttributeEditorDialog::chooseAttribute(const std::string& name) {
  const QString raw = QString::fromStdString(name);
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kName)->data(Qt::UserRole).toString() == raw) {
      table_->selectRow(r);  // rowChosen() fills the form
      return;
    }
  table_->clearSelection();
  name_->setText(raw);
  nameEdited();
}

void AttributeEditorDialog::rowChosen() {
  const auto selected = table_->selectionModel()->selectedRows();
  if (selected.isEmpty()) return;
  const std::string name = table_->item(selected.front().row(), kName)->data(Qt::UserRole).toString().toStdString();
  name_->setText(QString::fromStdString(name));
  nameEdited();
}

// The form follows the name typed: the attribute's type and value, or the schema's type and default.
void AttributeEditorDialog::nameEdited() {
  const std::string name = name_->text().toStdString();
  const ir::Attribute* a = node_.attr(name);
  const SchemaAttribute* s = schema_.find(name);
  const ir::AttrType type = a ? a->type : s ? s->type : ir::AttrType::Undefined;
  knownType_ = type;
  value_->setType(type);
  type_->setCurrentIndex(0);
  const QString text = a ? editableText(*a) : (s ? s->defaultValue : QString());
  value_->setText(editableAsIs(text) ? text : QString());
  remove_->setEnabled(a != nullptr);
  if (!a) remove_->setChecked(false);
  QString doc = s ? s->doc : QString();
  if (a && a->type == ir::AttrType::Tensor) doc = tr("Now: %1. ").arg(shownLine(a->valueToString(8), 120)) + doc;
  doc_->setText(doc.left(600));
  scheduleRevalidate();
}

void AttributeEditorDialog::setValueText(const QString& text) { value_->setText(text); }

void AttributeEditorDialog::setTypeName(const QString& type) {
  const int i = type_->findData(type);
  type_->setCurrentIndex(i < 0 ? 0 : i);
}

void AttributeEditorDialog::setRemove(bool remove) { remove_->setChecked(remove); }

std::optional<std::string> AttributeEditorDialog::formReason() const {
  if (name_->text().isEmpty()) return tr("choose an attribute").toStdString();
  if (!remove_->isChecked() && value_->text().isEmpty() && value_->type() != ir::AttrType::String)
    return tr("type a value").toStdString();
  return std::nullopt;
}

std::vector<edit::Edit> AttributeEditorDialog::edits() const {
  edit::Edit e;
  if (remove_->isChecked()) {
    e.verb = "remove-attr";
    e.set("node", node_.name).set("name", name_->text().toStdString());
    return {e};
  }
  e.verb = "set-attr";
  e.set("node", node_.name).set("name", name_->text().toStdString()).set("value", value_->valueArgument());
  const QString type = type_->currentData().toString();
  if (!type.isEmpty()) e.set("type", type.toStdString());
  return {e};
}

std::optional<edit::Edit> AttributeEditorDialog::ask(QWidget* parent, const ir::Model& model, const ir::Node& node,
                                                     const std::string& attribute) {
  AttributeEditorDialog d(model, node, attribute, parent);
  auto list = d.run();
  if (!list || list->empty()) return std::nullopt;
  return list->front();
}

}  // namespace fb::ui
