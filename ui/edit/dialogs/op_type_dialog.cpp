#include "ui/edit/dialogs/op_type_dialog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>

#include "ir/node.h"
#include "schema/opsets.h"
#include "ui/edit/dialogs/op_catalog.h"

namespace fb::ui {

namespace {

std::string normalDomain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

}  // namespace

OpTypeDialog::OpTypeDialog(const ir::Model& model, const ir::Node& node, QWidget* parent)
    : EditDialog(model, tr("Change Op Type"), parent), node_(node) {
  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("nodeHeader"));
  header_->setTextFormat(Qt::PlainText);
  header_->setText(
      tr("Node %1 is %2 (inputs, outputs and attributes stay)").arg(shownName(node.name), shownName(node.opType, 40)));
  body()->addWidget(header_);

  auto* form = new QFormLayout;
  domain_ = new QComboBox(this);
  domain_->setObjectName(QStringLiteral("opDomain"));
  domain_->setEditable(true);
  // The domains the model imports (the only ones set-op accepts), the node's own first.
  domain_->addItem(QString::fromStdString(normalDomain(node.domain)));
  for (const auto& o : model.opsets)
    if (domain_->findText(QString::fromStdString(normalDomain(o.domain))) < 0)
      domain_->addItem(QString::fromStdString(normalDomain(o.domain)));
  domain_->lineEdit()->setPlaceholderText(tr("ai.onnx"));
  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("opFilter"));
  filter_->setPlaceholderText(tr("search ops"));
  filter_->setClearButtonEnabled(true);
  ops_ = new QListWidget(this);
  ops_->setObjectName(QStringLiteral("opList"));
  op_ = new QLineEdit(QString::fromStdString(node.opType), this);
  op_->setObjectName(QStringLiteral("opType"));
  form->addRow(tr("Domain:"), domain_);
  form->addRow(tr("Search:"), filter_);
  form->addRow(ops_);
  form->addRow(tr("Op type:"), op_);
  body()->addLayout(form, 1);
  finishLayout();

  fillOps();
  connect(domain_, &QComboBox::currentTextChanged, this, [this] {
    fillOps();
    scheduleRevalidate();
  });
  connect(filter_, &QLineEdit::textChanged, this, &OpTypeDialog::fillOps);
  connect(ops_, &QListWidget::currentTextChanged, this, [this](const QString& op) {
    if (!op.isEmpty()) op_->setText(op);
  });
  connect(op_, &QLineEdit::textChanged, this, &EditDialog::scheduleRevalidate);
  resize(420, 520);
}

std::string OpTypeDialog::domain() const { return normalDomain(domain_->currentText().trimmed().toStdString()); }

void OpTypeDialog::fillOps() {
  if (knownDomain_ != domain()) {
    knownDomain_ = domain();
    known_ = knownOps(*knownDomain_, model_.opsetVersion(*knownDomain_));
  }
  const QString f = filter_->text().trimmed();
  ops_->clear();
  for (const QString& op : known_)
    if (f.isEmpty() || op.contains(f, Qt::CaseInsensitive)) ops_->addItem(op);
}

void OpTypeDialog::setDomain(const QString& domain) { domain_->setCurrentText(domain); }
void OpTypeDialog::setFilter(const QString& text) { filter_->setText(text); }
void OpTypeDialog::setOpType(const QString& op) { op_->setText(op); }

std::optional<std::string> OpTypeDialog::formReason() const {
  const QString op = op_->text().trimmed();
  if (op.isEmpty()) return tr("choose an op").toStdString();
  if (op.toStdString() == node_.opType && domain() == normalDomain(node_.domain))
    return tr("the node is %1 already").arg(op).toStdString();
  // core's set-op looks ops up in libonnx up to opset 17; above it the dialog's list (own facts included) does.
  const int64_t opset = model_.opsetVersion(domain());
  if (domain().empty() && opset > schema::kLibonnxMaxOpset && !known_.contains(op))
    return tr("opset %1 has no op '%2'").arg(opset).arg(op).toStdString();
  return std::nullopt;
}

std::vector<edit::Edit> OpTypeDialog::edits() const {
  edit::Edit e;
  e.verb = "set-op";
  e.set("node", node_.name).set("op", op_->text().trimmed().toStdString());
  if (domain() != normalDomain(node_.domain)) e.set("domain", domain());
  return {e};
}

std::optional<edit::Edit> OpTypeDialog::ask(QWidget* parent, const ir::Model& model, const ir::Node& node) {
  OpTypeDialog d(model, node, parent);
  auto list = d.run();
  if (!list || list->empty()) return std::nullopt;
  return list->front();
}

}  // namespace fb::ui
