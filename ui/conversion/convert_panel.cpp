#include "ui/conversion/convert_panel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <functional>

#include "ir/model.h"
#include "passes/pass_registry.h"
#include "ui/conversion/code_target.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/conversion/conversion_summary.h"
#include "ui/conversion/status_filter_model.h"
#include "ui/conversion/status_table.h"
#include "ui/conversion/target_picker.h"
#include "ui/document.h"

namespace fb::ui {

ConvertPanel::ConvertPanel(Document* doc, ConversionController* controller, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      controller_(controller),
      opset_(new QSpinBox(this)),
      passMode_(new QComboBox(this)),
      passList_(new QListWidget(this)),
      summary_(new QLabel(this)),
      model_(new ConversionReportModel(this)),
      statusTable_(new StatusTable(doc, controller, model_, this)),
      convert_(new QPushButton(tr("Preview conversion"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      save_(new QPushButton(tr("Save converted..."), this)),
      progress_(new QProgressBar(this)),
      previewAction_(new QAction(tr("&Preview Conversion"), this)),
      saveAction_(new QAction(tr("&Save Converted..."), this)),
      target_(new TargetPicker(doc, controller, this)) {
  previewAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  saveAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  convert_->setToolTip(tr("Convert with these settings and show the result beside the source (%1)")
                           .arg(previewAction_->shortcut().toString(QKeySequence::NativeText)));
  save_->setToolTip(tr("Write the previewed conversion to an ONNX file (%1)")
                        .arg(saveAction_->shortcut().toString(QKeySequence::NativeText)));
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
  passList_->setMinimumHeight(40);  // the dock must not make small windows taller
  summary_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Target"), target_);
  form->addRow(tr("Target opset"), opset_);
  form->addRow(tr("Passes"), passMode_);
  auto* buttons = buttons_ = new QGridLayout;
  for (QWidget* button :
       {static_cast<QWidget*>(convert_), static_cast<QWidget*>(cancel_), static_cast<QWidget*>(save_)})
    addButton(button);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(passList_);
  layout->addWidget(summary_);
  layout->addWidget(statusTable_, 1);
  layout->addWidget(progress_);
  layout->addLayout(buttons);
  progress_->hide();

  connect(opset_, qOverload<int>(&QSpinBox::valueChanged), controller_, &ConversionController::setTargetOpset);
  connect(controller_, &ConversionController::targetOpsetChanged, this, [this](int opset) {
    const QSignalBlocker block(opset_);
    opset_->setValue(opset);
  });
  connect(target_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ConvertPanel::updateTargetSettings);
  connect(controller_, &ConversionController::codeTargetChanged, this, &ConvertPanel::updateTargetSettings);
  connect(passMode_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ConvertPanel::applyPassChoice);
  connect(passList_, &QListWidget::itemChanged, this, &ConvertPanel::applyPassChoice);
  connect(controller_, &ConversionController::dryRunFinished, this, &ConvertPanel::updateFromDryRun);
  // A row shows its node wherever it is: the subgraph that holds it is opened and the blocks on the way expanded.
  connect(table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& cur) {
    if (!cur.isValid() || !doc_->model()) return;
    const QModelIndex row = statusTable_->filter()->mapToSource(cur);
    if (!row.isValid()) return;
    if (const ir::Node* n = doc_->findNode(model_->report(row.row()).nodeId)) doc_->showNode(n);
  });
  connect(statusTable_, &StatusTable::logMessage, this, &ConvertPanel::logMessage);
  connect(previewAction_, &QAction::triggered, controller_, &ConversionController::convert);
  connect(saveAction_, &QAction::triggered, this, &ConvertPanel::saveConverted);
  connect(convert_, &QPushButton::clicked, previewAction_, &QAction::trigger);
  connect(save_, &QPushButton::clicked, saveAction_, &QAction::trigger);
  connect(cancel_, &QPushButton::clicked, this, &ConvertPanel::cancel);
  connect(doc_, &Document::modelChanged, this, &ConvertPanel::updateActions);
  connect(controller_, &ConversionController::conversionInvalidated, this, &ConvertPanel::updateActions);
  connect(controller_, &ConversionController::conversionStarted, this, [this] {
    updateActions();
    summary_->setText(tr("Converting to %1...").arg(controller_->targetDescription()));
  });
  connect(controller_, &ConversionController::conversionFinished, this, [this] {
    updateActions();
    const auto* r = controller_->conversion();
    if (controller_->generatedCode()) {
      const QString problems = codeProblemsOf(*r);
      summary_->setText(tr("Generated %1: %2; %3 ms; %4")
                            .arg(targetLabel(*r), statusCounts(*r))
                            .arg(r->totalMs, 0, 'f', 1)
                            .arg(problems.isEmpty() ? tr("complete") : tr("incomplete: %1").arg(problems)));
      return;  // the Code dock shows it
    }
    const QString problems = problemsOf(*r);
    summary_->setText(tr("Converted to opset %1: %2 -> %3 nodes, %4 ms; %5")
                          .arg(r->targetOpset)
                          .arg(nodeTotal(r->opsBefore))
                          .arg(nodeTotal(r->opsAfter))
                          .arg(r->totalMs, 0, 'f', 1)
                          .arg(problems.isEmpty() ? tr("check passed") : tr("incomplete: %1").arg(problems)));
    emit previewRequested();
  });
  connect(controller_, &ConversionController::conversionFailed, this, [this](const QString& message) {
    updateActions();
    summary_->setText(tr("Conversion stopped: %1").arg(message));
  });
  connect(controller_, &ConversionController::saved, this, [this](const QString& path, const QString& summary) {
    summary_->setText(tr("Saved %1 (%2)").arg(path, summary));
  });
  connect(controller_, &ConversionController::saveFailed, this, [this](const QString& message) {
    // Not modal-blocking: the Log has the line too, the user dismisses the box.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot save"), message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("saveFailedMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
  updateActions();
}

QTableView* ConvertPanel::table() const { return statusTable_->view(); }

void ConvertPanel::addButton(QWidget* button) {
  const int placed = buttons_->count();
  buttons_->addWidget(button, placed / 2, placed % 2);
}

void ConvertPanel::setSavePathChooser(ChooseSavePath chooser) {
  statusTable_->setSavePathChooser(chooser);
  choosePath_ = std::move(chooser);
}

void ConvertPanel::followPreview(Document* preview) {
  preview_ = preview;
  connect(preview_, &Document::loadStarted, this, [this] {
    progress_->setRange(0, 100);
    progress_->setValue(0);
    updateActions();
  });
  connect(preview_, &Document::loadProgress, this, [this](int percent, const QString& phase) {
    progress_->setRange(0, 100);
    progress_->setFormat(tr("Preview: %1 %p%").arg(phase));
    progress_->setValue(percent);
  });
  // The scene is built in the same call as modelChanged: the bar goes when the preview is there to be painted.
  connect(preview_, &Document::modelChanged, this, &ConvertPanel::updateActions);
  connect(preview_, &Document::loadCancelled, this, &ConvertPanel::updateActions);
  connect(preview_, &Document::loadFailed, this, &ConvertPanel::updateActions);
}

bool ConvertPanel::previewing() const { return controller_->isConverting() || (preview_ && preview_->isLoading()); }

void ConvertPanel::cancel() {
  if (controller_->isConverting())
    controller_->cancel();
  else if (preview_ && preview_->isLoading())
    preview_->cancelLoad();  // the conversion stays (Save, Preview again); the Log says the showing was cancelled
}

void ConvertPanel::updateActions() {
  const bool busy = previewing();
  previewAction_->setEnabled(doc_->model() && !busy);
  // Saving writes the conversion, not the picture: it need not wait for the preview's layout.
  saveAction_->setEnabled(controller_->hasConversion() && !controller_->isConverting());
  convert_->setEnabled(previewAction_->isEnabled());
  save_->setEnabled(saveAction_->isEnabled());
  cancel_->setEnabled(busy);
  if (controller_->isConverting()) {
    progress_->setRange(0, 0);  // the conversion has no steps to count: a busy bar
    progress_->setFormat(tr("Converting"));
  }
  progress_->setVisible(busy);
}

bool ConvertPanel::confirm(const QString& objectName, const QString& title, const QString& text) {
  QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Yes | QMessageBox::No, this);
  box.setObjectName(objectName);
  box.setDefaultButton(QMessageBox::No);
  box.setEscapeButton(QMessageBox::No);
  return box.exec() == QMessageBox::Yes;
}

void ConvertPanel::saveConverted() {
  if (!controller_->hasConversion()) return;
  if (controller_->codeTarget()) return saveGeneratedCode();
  QString filter = tr("ONNX models (*.onnx)");
  const QString suggested =
      inLastFolder(DialogKind::Save, suggestedConvertedPath(doc_->path(), int(controller_->conversion()->targetOpset)));
  const QString chosen = choosePath_(this, tr("Save converted model"), suggested, filter, &filter);
  if (chosen.isEmpty()) return;
  rememberFolder(DialogKind::Save, chosen);
  const QString path = withSuffix(chosen, {QStringLiteral("onnx")}, QStringLiteral("onnx"));
  // The dialog asked about replacing the name as typed, not the one with the added extension.
  if (path != chosen && QFileInfo::exists(path) &&
      !confirm(QStringLiteral("replaceQuestion"), tr("Save converted model"),
               tr("%1 already exists. Replace it?").arg(path))) {
    emit logMessage(tr("Not saved: %1: the file exists and was kept").arg(path));
    return;
  }
  // Settings may have changed while the dialog was open: only the conversion of the current ones is saved.
  const convert::ConvertResult* r = controller_->conversion();
  if (!r || !controller_->hasConversion()) {
    emit logMessage(tr("Not saved: %1: the settings changed; run Preview conversion again").arg(path));
    return;
  }
  auto ifIncomplete = ConversionController::IfIncomplete::Refuse;
  if (const QString problems = problemsOf(*r); !problems.isEmpty()) {
    const QString question =
        tr("The conversion to opset %1 is incomplete: %2.\n\nNodes: %3.\n\nThe command line refuses to write it "
           "without --continue-on-error. Write %4 anyway, with those nodes as they were?")
            .arg(r->targetOpset)
            .arg(problems, statusCounts(*r), path);
    if (!confirm(QStringLiteral("saveIncompleteQuestion"), tr("Save an incomplete conversion?"), question)) {
      emit logMessage(tr("Not saved: %1: the conversion is incomplete (%2)").arg(path, problems));
      return;
    }
    ifIncomplete = ConversionController::IfIncomplete::Write;
  }
  controller_->save(path, false, ifIncomplete);
}

void ConvertPanel::updateTargetSettings() {
  const bool onnx = !controller_->codeTarget();
  opset_->setEnabled(onnx);
  passMode_->setEnabled(onnx);
  passList_->setEnabled(onnx && passMode_->currentIndex() == 2);
  save_->setToolTip(tr("Write the previewed conversion to %1 (%2)")
                        .arg(onnx ? tr("an ONNX file") : tr("a new folder: model.py, run.py and the weights"))
                        .arg(saveAction_->shortcut().toString(QKeySequence::NativeText)));
}

void ConvertPanel::applyPassChoice() {
  passList_->setEnabled(passMode_->currentIndex() == 2);
  switch (passMode_->currentIndex()) {
    case 0:
      controller_->setPasses(std::nullopt);
      break;
    case 1:
      controller_->setPasses(QStringList{});
      break;
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
  size_t trivial = 0;
  for (const auto& n : r->nodes) trivial += n.status == S::Converted && n.attributesOnly;
  const QString split =
      trivial ? tr(" (%1 rewrites, %2 attributes only)").arg(r->count(S::Converted) - trivial).arg(trivial) : QString();
  summary_->setText(
      tr("Opset %1 -> %2: %3 unchanged, %4 converted%9, %5 unsupported, %6 failed, %7 kept (dry run, %8 ms)")
          .arg(r->sourceOpset)
          .arg(targetLabel(*r))
          .arg(r->count(S::Unchanged))
          .arg(r->count(S::Converted))
          .arg(r->count(S::Unsupported))
          .arg(r->count(S::Failed))
          .arg(r->count(S::Kept))
          .arg(r->totalMs, 0, 'f', 1)
          .arg(split));
}

}  // namespace fb::ui
