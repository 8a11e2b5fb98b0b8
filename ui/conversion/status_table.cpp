#include "ui/conversion/status_table.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "convert/convert_report.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/conversion/conversion_report_model.h"
#include "ui/conversion/status_filter_model.h"
#include "ui/document.h"
#include "util/atomic_file.h"
#include "util/json_dump.h"

namespace fb::ui {

StatusTable::StatusTable(Document* doc, ConversionController* controller, ConversionReportModel* model, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      controller_(controller),
      model_(model),
      filter_(new StatusFilterModel(this)),
      group_(new QComboBox(this)),
      op_(new QLineEdit(this)),
      count_(new QLabel(this)),
      view_(new QTableView(this)),
      details_(new QPlainTextEdit(this)),
      saveReport_(new QAction(tr("Save &Report..."), this)) {
  using G = StatusFilterModel::Group;
  const std::pair<QString, G> groups[] = {
      {tr("All verdicts"), G::All},           {tr("Needs attention (unsupported, failed)"), G::NeedsAttention},
      {tr("Rewrites"), G::Rewrites},          {tr("Trivial: attributes at their default"), G::AttributesOnly},
      {tr("Kept (custom domains)"), G::Kept}, {tr("With warnings"), G::Warnings}};
  for (const auto& [text, g] : groups) group_->addItem(text, int(g));
  group_->setObjectName(QStringLiteral("statusGroup"));
  group_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_->setMinimumContentsLength(8);
  op_->setPlaceholderText(tr("Operator"));
  op_->setClearButtonEnabled(true);
  op_->setObjectName(QStringLiteral("statusOpFilter"));
  filter_->setSourceModel(model_);
  view_->setModel(filter_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(-1, Qt::AscendingOrder);  // the model's own order (urgency) until a header is clicked
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->horizontalHeader()->setSectionResizeMode(ConversionReportModel::StatusColumn, QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setSectionResizeMode(ConversionReportModel::KindColumn, QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setSectionResizeMode(ConversionReportModel::OpColumn, QHeaderView::ResizeToContents);
  view_->verticalHeader()->hide();
  view_->setWordWrap(false);
  details_->setReadOnly(true);
  details_->setObjectName(QStringLiteral("statusDetails"));
  details_->setPlaceholderText(tr("The whole reason of the selected row"));
  auto* save = new QPushButton(tr("Report..."), this);
  saveReport_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  saveReport_->setToolTip(
      tr("Write the JSON report flowbridge-cli writes (convert --report; check --json before a Preview)"));
  save->setToolTip(saveReport_->toolTip());

  // One row, so the Convert dock stays short enough for small windows.
  auto* bar = new QHBoxLayout;
  bar->addWidget(group_, 3);
  bar->addWidget(op_, 2);
  bar->addWidget(count_);
  bar->addWidget(save);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(view_);
  split->addWidget(details_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  // Small minimums: the dock shares its column with others and must not make the window taller.
  view_->setMinimumHeight(40);
  details_->setMinimumHeight(20);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(split, 1);

  connect(group_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this] { filter_->setGroup(StatusFilterModel::Group(group_->currentData().toInt())); });
  connect(op_, &QLineEdit::textChanged, filter_, &StatusFilterModel::setOpFilter);
  connect(filter_, &QAbstractItemModel::modelReset, this, &StatusTable::updateCount);
  connect(filter_, &QAbstractItemModel::layoutChanged, this, &StatusTable::updateCount);
  connect(filter_, &QAbstractItemModel::rowsInserted, this, &StatusTable::updateCount);
  connect(filter_, &QAbstractItemModel::rowsRemoved, this, &StatusTable::updateCount);
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &StatusTable::showDetails);
  connect(filter_, &QAbstractItemModel::modelReset, details_, &QPlainTextEdit::clear);
  connect(saveReport_, &QAction::triggered, this, &StatusTable::saveReportInteractively);
  connect(save, &QPushButton::clicked, saveReport_, &QAction::trigger);
  auto enable = [this, save] {
    const bool any = controller_->conversion() || controller_->dryRun();
    saveReport_->setEnabled(any);
    save->setEnabled(any);
  };
  connect(controller_, &ConversionController::dryRunFinished, this, enable);
  connect(controller_, &ConversionController::conversionFinished, this, enable);
  connect(controller_, &ConversionController::conversionInvalidated, this, enable);
  enable();
  updateCount();
}

void StatusTable::updateCount() { count_->setText(tr("%1 of %2").arg(filter_->rowCount()).arg(model_->rowCount())); }

void StatusTable::showDetails() {
  const QModelIndex cur = view_->currentIndex();
  if (!cur.isValid()) {
    details_->clear();
    return;
  }
  details_->setPlainText(ConversionReportModel::details(model_->report(filter_->mapToSource(cur).row())));
}

bool StatusTable::saveReport(const QString& path) {
  // After a Preview the report of that conversion (what convert --report writes), before it the dry run's.
  const convert::ConvertResult* r = controller_->conversion() ? controller_->conversion() : controller_->dryRun();
  if (!r) {
    emit logMessage(tr("Not saved: %1: no conversion or dry run to report on").arg(path));
    return false;
  }
  try {
    ensureNotOverwritingInput(path.toStdString(), doc_->path().toStdString());
    const auto json = convert::reportJson(*r, doc_->path().toStdString());
    AtomicFile out(path.toStdString());
    out.write(dumpJson(json));
    out.write("\n");
    out.commit();
  } catch (const std::exception& e) {
    emit logMessage(tr("Error: cannot save the report %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
  emit logMessage(
      tr("Saved the %1 report of %2 to %3")
          .arg(controller_->conversion() ? tr("conversion") : tr("dry-run"), QFileInfo(doc_->path()).fileName(), path));
  return true;
}

void StatusTable::saveReportInteractively() {
  const convert::ConvertResult* r = controller_->conversion() ? controller_->conversion() : controller_->dryRun();
  if (!r) return;
  QString suggested = suggestedConvertedPath(doc_->path(), int(r->targetOpset));
  if (suggested.endsWith(QLatin1String(".onnx"))) suggested.chop(5);
  suggested += QStringLiteral(".report.json");
  QString filter = tr("JSON reports (*.json)");
  const QString chosen =
      choosePath_(this, tr("Save conversion report"), inLastFolder(DialogKind::Report, suggested), filter, &filter);
  if (chosen.isEmpty()) return;
  rememberFolder(DialogKind::Report, chosen);
  saveReport(withSuffix(chosen, {QStringLiteral("json")}, QStringLiteral("json")));
}

}  // namespace fb::ui
