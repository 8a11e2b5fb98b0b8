#include "ui/edit/dialogs/insert_node_dialog.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRadioButton>
#include <QTableWidget>

#include "ir/graph.h"
#include "ir/node.h"
#include "schema/opsets.h"
#include "ui/edit/dialogs/attribute_value_editor.h"

namespace fb::ui {

namespace {

enum Column { kName, kType, kValue, kColumns };

}  // namespace

InsertNodeDialog::InsertNodeDialog(const ir::Model& model, const std::string& value,
                                   const std::vector<std::string>& readers, QWidget* parent)
    : EditDialog(model, tr("Insert Node"), parent), value_(value) {
  const ir::Value* v = model.graph().findValue(value);
  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("valueHeader"));
  header_->setTextFormat(Qt::PlainText);
  header_->setText(v ? tr("Insert a node on %1 (%2)").arg(shownName(value), shownLine(v->type.toString(), 60))
                     : tr("The graph has no value %1").arg(shownName(value)));
  body()->addWidget(header_);

  // What the node is.
  kinds_ = new QButtonGroup(this);
  auto* kindRow = new QHBoxLayout;
  for (auto [k, label] : {std::pair{Kind::Cast, tr("Cast")}, std::pair{Kind::Identity, tr("Identity")},
                          std::pair{Kind::Other, tr("Other op")}}) {
    auto* b = new QRadioButton(label, this);
    kinds_->addButton(b, int(k));
    kindRow->addWidget(b);
  }
  kindRow->addStretch(1);
  body()->addLayout(kindRow);
  auto* form = new QFormLayout;
  castTo_ = new QComboBox(this);
  castTo_->setObjectName(QStringLiteral("castTarget"));
  for (ir::DataType t :
       {ir::DataType::Float, ir::DataType::Float16, ir::DataType::BFloat16, ir::DataType::Double, ir::DataType::Int8,
        ir::DataType::UInt8, ir::DataType::Int16, ir::DataType::UInt16, ir::DataType::Int32, ir::DataType::UInt32,
        ir::DataType::Int64, ir::DataType::UInt64, ir::DataType::Bool})
    castTo_->addItem(QString::fromUtf8(ir::dataTypeName(t)), int(t));
  form->addRow(tr("Cast to:"), castTo_);
  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("opFilter"));
  filter_->setPlaceholderText(tr("search ops"));
  filter_->setClearButtonEnabled(true);
  ops_ = new QListWidget(this);
  ops_->setObjectName(QStringLiteral("opList"));
  ops_->setMaximumHeight(140);
  form->addRow(tr("Op:"), filter_);
  form->addRow(ops_);
  attributes_ = new QTableWidget(0, kColumns, this);
  attributes_->setObjectName(QStringLiteral("opAttributes"));
  attributes_->setHorizontalHeaderLabels({tr("Attribute"), tr("Type"), tr("Value (empty: default)")});
  attributes_->verticalHeader()->setVisible(false);
  attributes_->horizontalHeader()->setStretchLastSection(true);
  attributes_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  form->addRow(attributes_);
  body()->addLayout(form, 1);

  // Where it goes.
  auto* wiring = new QFormLayout;
  readers_ = new QListWidget(this);
  readers_->setObjectName(QStringLiteral("readerList"));
  readers_->setMaximumHeight(100);
  if (v)
    for (const auto& use : v->uses()) {
      if (std::find(readerNames_.begin(), readerNames_.end(), use.node->name) != readerNames_.end()) continue;
      readerNames_.push_back(use.node->name);
      auto* item = new QListWidgetItem(
          QStringLiteral("%1 [%2]").arg(shownName(use.node->name), shownName(use.node->opType, 40)), readers_);
      const bool on = readers.empty() || std::find(readers.begin(), readers.end(), use.node->name) != readers.end();
      item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
  nodeName_ = new QLineEdit(this);
  nodeName_->setObjectName(QStringLiteral("nodeName"));
  nodeName_->setPlaceholderText(tr("default: its output's name"));
  outputName_ = new QLineEdit(this);
  outputName_->setObjectName(QStringLiteral("outputName"));
  outputName_->setPlaceholderText(tr("default: VALUE_OP"));
  extraInputs_ = new QLineEdit(this);
  extraInputs_->setObjectName(QStringLiteral("extraInputs"));
  extraInputs_->setPlaceholderText(tr("further inputs after the value, comma-separated"));
  wiring->addRow(tr("Readers of the new output:"), readers_);
  wiring->addRow(tr("Further inputs:"), extraInputs_);
  wiring->addRow(tr("Node name:"), nodeName_);
  wiring->addRow(tr("Output name:"), outputName_);
  body()->addLayout(wiring);
  finishLayout();

  fillOps();
  setKind(Kind::Cast);
  connect(kinds_, &QButtonGroup::idToggled, this, [this](int, bool on) {
    if (!on) return;
    castTo_->setEnabled(kind() == Kind::Cast);
    filter_->setEnabled(kind() == Kind::Other);
    ops_->setEnabled(kind() == Kind::Other);
    attributes_->setEnabled(kind() == Kind::Other);
    scheduleRevalidate();
  });
  castTo_->setEnabled(true);
  filter_->setEnabled(false);
  ops_->setEnabled(false);
  attributes_->setEnabled(false);
  connect(castTo_, &QComboBox::currentIndexChanged, this, &EditDialog::scheduleRevalidate);
  connect(filter_, &QLineEdit::textChanged, this, &InsertNodeDialog::fillOps);
  connect(ops_, &QListWidget::currentTextChanged, this, [this](const QString& op) {
    if (!op.isEmpty()) setOtherOp(op);
  });
  connect(readers_, &QListWidget::itemChanged, this, &EditDialog::scheduleRevalidate);
  for (QLineEdit* l : {nodeName_, outputName_, extraInputs_})
    connect(l, &QLineEdit::textChanged, this, &EditDialog::scheduleRevalidate);
  resize(560, 680);
}

InsertNodeDialog::Kind InsertNodeDialog::kind() const { return Kind(std::max(0, kinds_->checkedId())); }

std::string InsertNodeDialog::opType() const {
  switch (kind()) {
    case Kind::Cast:
      return "Cast";
    case Kind::Identity:
      return "Identity";
    case Kind::Other:
      return otherOp_.toStdString();
  }
  return {};
}

void InsertNodeDialog::fillOps() {
  if (known_.isEmpty()) known_ = knownOps("", model_.opsetVersion(""));
  const QString f = filter_->text().trimmed();
  ops_->clear();
  for (const QString& op : known_)
    if (f.isEmpty() || op.contains(f, Qt::CaseInsensitive)) ops_->addItem(op);
}

void InsertNodeDialog::fillAttributes() {
  attributes_->setRowCount(0);
  otherSchema_ = opAttributes("", otherOp_.toStdString(), model_.opsetVersion(""));
  attributes_->setRowCount(int(otherSchema_.attributes.size()));
  for (int r = 0; r < otherSchema_.attributes.size(); ++r) {
    const SchemaAttribute& a = otherSchema_.attributes[r];
    auto* name = new QTableWidgetItem(QString::fromStdString(a.name) + (a.required ? QStringLiteral(" *") : ""));
    name->setToolTip(a.doc);
    attributes_->setItem(r, kName, name);
    attributes_->setItem(r, kType, new QTableWidgetItem(QString::fromUtf8(ir::attrTypeName(a.type))));
    auto* editor = new AttributeValueEditor(attributes_);
    editor->setType(a.type);
    if (!a.defaultText.isEmpty()) editor->lineEdit()->setPlaceholderText(tr("default %1").arg(a.defaultText));
    editor->setToolTip(a.doc);
    connect(editor, &AttributeValueEditor::changed, this, &EditDialog::scheduleRevalidate);
    attributes_->setCellWidget(r, kValue, editor);
  }
  attributes_->resizeColumnsToContents();
}

void InsertNodeDialog::setKind(Kind k) { kinds_->button(int(k))->setChecked(true); }

void InsertNodeDialog::setCastTarget(const QString& elementType) {
  castTo_->setCurrentText(elementType);
  setKind(Kind::Cast);
}

void InsertNodeDialog::setFilter(const QString& text) { filter_->setText(text); }

void InsertNodeDialog::setOtherOp(const QString& op) {
  setKind(Kind::Other);
  if (op == otherOp_) return;
  otherOp_ = op;
  fillAttributes();
  scheduleRevalidate();
}

AttributeValueEditor* InsertNodeDialog::attributeEditor(const std::string& name) const {
  for (int r = 0; r < otherSchema_.attributes.size(); ++r)
    if (otherSchema_.attributes[r].name == name)
      return qobject_cast<AttributeValueEditor*>(attributes_->cellWidget(r, kValue));
  return nullptr;
}

void InsertNodeDialog::setReaderChecked(int row, bool checked) {
  readers_->item(row)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}
void InsertNodeDialog::setNodeName(const QString& name) { nodeName_->setText(name); }
void InsertNodeDialog::setOutputName(const QString& name) { outputName_->setText(name); }
void InsertNodeDialog::setExtraInputs(const QString& commaSeparated) { extraInputs_->setText(commaSeparated); }

std::optional<std::string> InsertNodeDialog::formReason() const {
  if (kind() == Kind::Other) {
    if (otherOp_.isEmpty()) return tr("choose an op").toStdString();
    // core's insert-node looks ops up in libonnx up to opset 17; above it the dialog's list (own facts) does.
    const int64_t opset = model_.opsetVersion("");
    if (opset > schema::kLibonnxMaxOpset && !known_.contains(otherOp_))
      return tr("opset %1 has no op '%2'").arg(opset).arg(otherOp_).toStdString();
  }
  if (readers_->count() > 0) {
    bool any = false;
    for (int r = 0; r < readers_->count(); ++r) any = any || readers_->item(r)->checkState() == Qt::Checked;
    if (!any) return tr("check at least one reader").toStdString();
  }
  return std::nullopt;
}

std::vector<edit::Edit> InsertNodeDialog::edits() const {
  edit::Edit e;
  e.verb = "insert-node";
  e.set("value", value_).set("op", opType());
  if (!extraInputs_->text().trimmed().isEmpty()) e.set("inputs", extraInputs_->text().trimmed().toStdString());
  std::string chosen;
  bool all = true;
  for (int r = 0; r < readers_->count(); ++r) {
    if (readers_->item(r)->checkState() != Qt::Checked) {
      all = false;
      continue;
    }
    chosen += (chosen.empty() ? "" : ",") + readerNames_[size_t(r)];
  }
  if (!all) e.set("readers", chosen);
  if (!nodeName_->text().isEmpty()) e.set("name", nodeName_->text().toStdString());
  if (!outputName_->text().isEmpty()) e.set("output", outputName_->text().toStdString());
  if (kind() == Kind::Cast) e.set("attr.to", std::to_string(castTo_->currentData().toInt()));
  if (kind() == Kind::Other)
    for (int r = 0; r < otherSchema_.attributes.size(); ++r) {
      const auto* editor = qobject_cast<const AttributeValueEditor*>(attributes_->cellWidget(r, kValue));
      if (editor && !editor->text().isEmpty())
        e.set("attr." + otherSchema_.attributes[r].name, editor->valueArgument());
    }
  return {e};
}

std::optional<edit::Edit> InsertNodeDialog::ask(QWidget* parent, const ir::Model& model, const std::string& value,
                                                const std::vector<std::string>& readers) {
  InsertNodeDialog d(model, value, readers, parent);
  auto list = d.run();
  if (!list || list->empty()) return std::nullopt;
  return list->front();
}

}  // namespace fb::ui
