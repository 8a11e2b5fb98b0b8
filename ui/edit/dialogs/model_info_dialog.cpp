#include "ui/edit/dialogs/model_info_dialog.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>

#include "util/printable.h"

namespace fb::ui {

namespace {

// The raw model string a cell holds (the item's text may be escaped for showing; UserRole keeps the original
// until the user edits the cell).
std::string cellText(const QTableWidget* t, int row, int col) {
  const QTableWidgetItem* item = t->item(row, col);
  if (!item) return {};
  const QVariant raw = item->data(Qt::UserRole);
  const QVariant shown = item->data(Qt::UserRole + 1);
  if (raw.isValid() && item->text() == shown.toString()) return raw.toString().toStdString();
  return item->text().toStdString();
}

// A cell showing a model string: escaped when it holds control characters (its raw text kept for edits()).
QTableWidgetItem* stringCell(const std::string& s, const QString& shownWhenEmpty = {}) {
  const QString shown = s.empty() ? shownWhenEmpty : QString::fromStdString(printable(s));
  auto* item = new QTableWidgetItem(shown);
  item->setData(Qt::UserRole, QString::fromStdString(s));
  item->setData(Qt::UserRole + 1, shown);
  return item;
}

QTableWidget* keyValueTable(const QStringList& headers, QWidget* parent) {
  auto* t = new QTableWidget(0, 2, parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setWordWrap(false);
  return t;
}

}  // namespace

ModelInfoDialog::ModelInfoDialog(const ir::Model& model, QWidget* parent)
    : EditDialog(model, tr("Model Properties"), parent) {
  auto* form = new QFormLayout;
  opsets_ = keyValueTable({tr("Domain"), tr("Opset version")}, this);
  opsets_->setObjectName(QStringLiteral("opsetTable"));
  for (const auto& o : model.opsets) {
    const int r = opsets_->rowCount();
    opsets_->insertRow(r);
    auto* domain = stringCell(o.domain, QStringLiteral("ai.onnx"));
    domain->setFlags(domain->flags() & ~Qt::ItemIsEditable);  // set-opset adds domains; it does not rename them
    opsets_->setItem(r, 0, domain);
    opsets_->setItem(r, 1, new QTableWidgetItem(QString::number(o.version)));
  }
  opsets_->setMaximumHeight(120);
  auto* addDomain = new QPushButton(tr("Add domain"), this);
  connect(addDomain, &QPushButton::clicked, this, [this] {
    const int r = opsets_->rowCount();
    opsets_->insertRow(r);
    opsets_->setItem(r, 0, new QTableWidgetItem);
    opsets_->setItem(r, 1, new QTableWidgetItem(QStringLiteral("1")));
    opsets_->editItem(opsets_->item(r, 0));
  });
  form->addRow(tr("Opset imports:"), opsets_);
  form->addRow(QString(), addDomain);

  irVersion_ = new QSpinBox(this);
  irVersion_->setObjectName(QStringLiteral("irVersion"));
  irVersion_->setRange(1, 99);  // set-ir-version says which ones it takes
  irVersion_->setValue(int(std::clamp<int64_t>(model.irVersion, 1, 99)));
  form->addRow(tr("IR version:"), irVersion_);
  producerName_ = new QLineEdit(QString::fromStdString(model.producerName), this);
  producerName_->setObjectName(QStringLiteral("producerName"));
  producerVersion_ = new QLineEdit(QString::fromStdString(model.producerVersion), this);
  producerVersion_->setObjectName(QStringLiteral("producerVersion"));
  form->addRow(tr("Producer:"), producerName_);
  form->addRow(tr("Producer version:"), producerVersion_);

  metadata_ = keyValueTable({tr("Key"), tr("Value")}, this);
  metadata_->setObjectName(QStringLiteral("metadataTable"));
  for (const auto& [k, v] : model.metadata) {
    const int r = metadata_->rowCount();
    metadata_->insertRow(r);
    metadata_->setItem(r, 0, stringCell(k));
    metadata_->setItem(r, 1, stringCell(v));
  }
  auto* rowButtons = new QHBoxLayout;
  auto* add = new QPushButton(tr("Add entry"), this);
  auto* remove = new QPushButton(tr("Remove entry"), this);
  rowButtons->addWidget(add);
  rowButtons->addWidget(remove);
  rowButtons->addStretch(1);
  connect(add, &QPushButton::clicked, this, [this] {
    const int r = metadata_->rowCount();
    metadata_->insertRow(r);
    metadata_->setItem(r, 0, new QTableWidgetItem);
    metadata_->setItem(r, 1, new QTableWidgetItem);
    metadata_->editItem(metadata_->item(r, 0));
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    if (metadata_->currentRow() >= 0) metadata_->removeRow(metadata_->currentRow());
    scheduleRevalidate();
  });
  form->addRow(tr("Metadata:"), metadata_);
  form->addRow(QString(), rowButtons);
  body()->addLayout(form, 1);
  finishLayout();

  connect(opsets_, &QTableWidget::itemChanged, this, &EditDialog::scheduleRevalidate);
  connect(metadata_, &QTableWidget::itemChanged, this, &EditDialog::scheduleRevalidate);
  connect(irVersion_, &QSpinBox::valueChanged, this, &EditDialog::scheduleRevalidate);
  connect(producerName_, &QLineEdit::textChanged, this, &EditDialog::scheduleRevalidate);
  connect(producerVersion_, &QLineEdit::textChanged, this, &EditDialog::scheduleRevalidate);
  resize(560, 560);
}

int ModelInfoDialog::rowOfKey(const QTableWidget* table, const QString& key) const {
  for (int r = 0; r < table->rowCount(); ++r)
    if (cellText(table, r, 0) == key.toStdString()) return r;
  return -1;
}

void ModelInfoDialog::setOpset(const QString& domainIn, int version) {
  const QString domain = domainIn == QLatin1String("ai.onnx") ? QString() : domainIn;
  int r = rowOfKey(opsets_, domain);
  if (r < 0) {
    r = opsets_->rowCount();
    opsets_->insertRow(r);
    opsets_->setItem(r, 0, new QTableWidgetItem(domain));
    opsets_->setItem(r, 1, new QTableWidgetItem);
  }
  opsets_->item(r, 1)->setText(QString::number(version));
}

void ModelInfoDialog::setIrVersion(int version) { irVersion_->setValue(version); }

void ModelInfoDialog::setProducer(const QString& name, const QString& version) {
  producerName_->setText(name);
  producerVersion_->setText(version);
}

void ModelInfoDialog::setMetadata(const QString& key, const QString& value) {
  int r = rowOfKey(metadata_, key);
  if (r < 0) {
    r = metadata_->rowCount();
    metadata_->insertRow(r);
    metadata_->setItem(r, 0, new QTableWidgetItem(key));
    metadata_->setItem(r, 1, new QTableWidgetItem);
  }
  metadata_->item(r, 1)->setText(value);
  metadata_->item(r, 1)->setData(Qt::UserRole, QVariant());
}

void ModelInfoDialog::removeMetadata(const QString& key) {
  if (int r = rowOfKey(metadata_, key); r >= 0) metadata_->removeRow(r);
}

std::optional<std::string> ModelInfoDialog::formReason() const {
  QSet<QString> domains, keys;
  for (int r = 0; r < opsets_->rowCount(); ++r) {
    const QString d = QString::fromStdString(cellText(opsets_, r, 0));
    const QString normal = d == QLatin1String("ai.onnx") ? QString() : d;
    if (domains.contains(normal)) return tr("domain '%1' is imported twice").arg(d).toStdString();
    domains.insert(normal);
  }
  for (int r = 0; r < metadata_->rowCount(); ++r) {
    const QString k = QString::fromStdString(cellText(metadata_, r, 0));
    if (k.isEmpty()) return tr("metadata row %1 has no key").arg(r + 1).toStdString();
    if (keys.contains(k)) return tr("metadata key '%1' is there twice").arg(k).toStdString();
    keys.insert(k);
  }
  return std::nullopt;
}

std::vector<edit::Edit> ModelInfoDialog::edits() const {
  std::vector<edit::Edit> out;
  for (int r = 0; r < opsets_->rowCount(); ++r) {
    const std::string domain = cellText(opsets_, r, 0);
    const std::string version = cellText(opsets_, r, 1);
    bool same = false;
    for (const auto& o : model_.opsets) same = same || (o.domain == domain && std::to_string(o.version) == version);
    if (same) continue;
    edit::Edit e{"set-opset", {}};
    e.set("version", version);
    if (!domain.empty()) e.set("domain", domain);
    out.push_back(e);
  }
  if (irVersion_->value() != model_.irVersion)
    out.push_back(edit::Edit{"set-ir-version", {}}.set("version", std::to_string(irVersion_->value())));
  const std::string name = producerName_->text().toStdString(), version = producerVersion_->text().toStdString();
  if (name != model_.producerName || version != model_.producerVersion) {
    edit::Edit e{"set-producer", {}};
    if (name != model_.producerName) e.set("name", name);
    if (version != model_.producerVersion) e.set("version", version);
    out.push_back(e);
  }
  // Metadata: entries gone from the table are removed, new or changed ones set.
  std::vector<std::pair<std::string, std::string>> rows;
  for (int r = 0; r < metadata_->rowCount(); ++r)
    rows.emplace_back(cellText(metadata_, r, 0), cellText(metadata_, r, 1));
  for (const auto& [k, v] : model_.metadata)
    if (std::none_of(rows.begin(), rows.end(), [&](const auto& kv) { return kv.first == k; }))
      out.push_back(edit::Edit{"remove-metadata", {}}.set("key", k));
  for (const auto& [k, v] : rows) {
    const bool unchanged = std::any_of(model_.metadata.begin(), model_.metadata.end(),
                                       [&](const auto& kv) { return kv == std::pair(k, v); });
    if (!unchanged) out.push_back(edit::Edit{"set-metadata", {}}.set("key", k).set("value", v));
  }
  return out;
}

std::optional<std::vector<edit::Edit>> ModelInfoDialog::ask(QWidget* parent, const ir::Model& model) {
  ModelInfoDialog d(model, parent);
  auto list = d.run();
  if (!list || list->empty()) return std::nullopt;
  return list;
}

}  // namespace fb::ui
