#include "ui/widgets/convert_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <functional>

#include "ir/model.h"
#include "passes/pass_registry.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/document.h"
#include "ui/models/conversion_report_model.h"

namespace fb::ui {
namespace {
const ir::Node* findNode(const ir::Graph& g, uint64_t id) {
  for (const auto& n : g.nodes()) {
    if (n->id() == id) return n.get();
    for (const ir::Graph* sg : n->subgraphs())
      if (const ir::Node* found = findNode(*sg, id)) return found;
  }
  return nullptr;
}
}  // namespace

ConvertPanel::ConvertPanel(Document* doc, ConversionController* controller, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      controller_(controller),
      opset_(new QSpinBox(this)),
      passMode_(new QComboBox(this)),
      passList_(new QListWidget(this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)),
      model_(new ConversionReportModel(this)),
      convert_(new QPushButton(tr("Preview conversion"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      save_(new QPushButton(tr("Save converted..."), this)) {
  opset_->setRange(int(convert::kMinOpset), int(convert::kMaxOpset));
  opset_->setValue(controller_->targetOpset());
  opset_->setToolTip(tr("Target ONNX opset; the graph is recoloured by what converting to it would do"));
  passMode_->addItems({tr("Default pipeline"), tr("No passes"), tr("Chosen passes")});
  passes::registerBuiltinPasses();
  for (const auto& p : passes::PassRegistry::instance().all()) {
    auto* item = new QListWidgetItem(QString::fromStdString(p.name), passList_);
    item->setToolTip(QString::fromStdString(p.description));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(p.inDefaultPipeline ? Qt::Checked : Qt::Unchecked);
  }
  passList_->setEnabled(false);
  passList_->setMaximumHeight(140);
  summary_->setWordWrap(true);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  cancel_->setEnabled(false);
  save_->setEnabled(false);

  auto* form = new QFormLayout;
  form->addRow(tr("Target opset"), opset_);
  form->addRow(tr("Passes"), passMode_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(convert_);
  buttons->addWidget(cancel_);
  buttons->addWidget(save_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(passList_);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);

  connect(opset_, qOverload<int>(&QSpinBox::valueChanged), controller_, &ConversionController::setTargetOpset);
  connect(controller_, &ConversionController::targetOpsetChanged, this, [this](int opset) {
    const QSignalBlocker block(opset_);
    opset_->setValue(opset);
  });
  connect(passMode_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ConvertPanel::applyPassChoice);
  connect(passList_, &QListWidget::itemChanged, this, &ConvertPanel::applyPassChoice);
  connect(controller_, &ConversionController::dryRunFinished, this, &ConvertPanel::updateFromDryRun);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
    if (!cur.isValid() || !doc_->model()) return;
    uint64_t id = model_->report(cur.row()).nodeId;
    if (const ir::Node* n = findNode(doc_->model()->graph(), id); n && n->graph() == doc_->currentLevel().graph)
      doc_->selectNode(n);
  });
  connect(convert_, &QPushButton::clicked, this, [this] {
    controller_->convert();
  });
  connect(cancel_, &QPushButton::clicked, controller_, &ConversionController::cancel);
  connect(controller_, &ConversionController::conversionStarted, this, [this] {
    convert_->setEnabled(false);
    cancel_->setEnabled(true);
    summary_->setText(tr("Converting to opset %1...").arg(controller_->targetOpset()));
  });
  connect(controller_, &ConversionController::conversionFinished, this, [this] {
    convert_->setEnabled(true);
    cancel_->setEnabled(false);
    save_->setEnabled(true);
    const auto* r = controller_->conversion();
    auto total = [](const std::map<std::string, size_t>& ops) {
      size_t n = 0;
      for (const auto& [op, count] : ops) n += count;
      return n;
    };
    summary_->setText(tr("Converted: %1 -> %2 nodes, %3 ms; check: %4")
                          .arg(total(r->opsBefore))
                          .arg(total(r->opsAfter))
                          .arg(r->totalMs, 0, 'f', 1)
                          .arg(r->check.ok ? tr("passed") : QString::fromStdString(r->check.messages.empty() ? "" : r->check.messages.front().message)));
    emit previewRequested();
  });
  connect(controller_, &ConversionController::conversionFailed, this, [this](const QString& message) {
    convert_->setEnabled(true);
    cancel_->setEnabled(false);
    summary_->setText(tr("Conversion stopped: %1").arg(message));
  });
  connect(save_, &QPushButton::clicked, this, [this] {
    QString p = QFileDialog::getSaveFileName(this, tr("Save converted model"), {}, tr("ONNX models (*.onnx)"));
    if (!p.isEmpty()) controller_->save(p, false);
  });
  connect(controller_, &ConversionController::saved, this, [this](const QString& path, const QString& summary) {
    summary_->setText(tr("Saved %1 (%2)").arg(path, summary));
  });
  connect(controller_, &ConversionController::saveFailed, this, [this](const QString& message) {
    QMessageBox::warning(this, tr("Cannot save"), message);
  });
}

void ConvertPanel::applyPassChoice() {
  passList_->setEnabled(passMode_->currentIndex() == 2);
  switch (passMode_->currentIndex()) {
    case 0: controller_->setPasses(std::nullopt); break;
    case 1: controller_->setPasses(QStringList{}); break;
    default: {
      QStringList chosen;
      for (int i = 0; i < passList_->count(); ++i)
        if (passList_->item(i)->checkState() == Qt::Checked) chosen << passList_->item(i)->text();
      controller_->setPasses(chosen);
    }
  }
}

void ConvertPanel::updateFromDryRun() {
  const auto* r = controller_->dryRun();
  if (!r) {
    model_->setReports({});
    summary_->clear();
    return;
  }
  model_->setReports(r->nodes);
  if (!r->error.empty()) {
    summary_->setText(QString::fromStdString(r->error));
    return;
  }
  using S = convert::NodeStatus;
  summary_->setText(tr("Opset %1 -> %2: %3 unchanged, %4 converted, %5 unsupported, %6 failed, %7 kept (dry run, %8 ms)")
                        .arg(r->sourceOpset)
                        .arg(r->targetOpset)
                        .arg(r->count(S::Unchanged))
                        .arg(r->count(S::Converted))
                        .arg(r->count(S::Unsupported))
                        .arg(r->count(S::Failed))
                        .arg(r->count(S::Kept))
                        .arg(r->totalMs, 0, 'f', 1));
}

}  // namespace fb::ui
