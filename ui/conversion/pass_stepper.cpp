#include "ir/op_counts.h"
#include "ui/conversion/pass_stepper.h"
#include "ui/model_readers.h"
#include "ui/background_pool.h"

#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <map>

#include "ir/graph.h"
#include "ui/conversion/conversion_controller.h"
#include "ui/graph/status_overlay.h"
#include "ui/document.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graph_view.h"

namespace fb::ui {
namespace {

// "Identity 63 -> 0, Gemm 0 -> 3": the ops whose count moved between two models.
QString opMoves(const ir::Graph& before, const ir::Graph& after) {
  std::map<std::string, size_t> b = ir::countOps(before);
  const std::map<std::string, size_t> a = ir::countOps(after);
  for (const auto& [op, n] : a) b.emplace(op, 0);
  QStringList parts;
  for (const auto& [op, n] : b) {
    const size_t m = a.count(op) ? a.at(op) : 0;
    if (m != n) parts << QStringLiteral("%1 %2 \u2192 %3").arg(QString::fromStdString(op)).arg(n).arg(m);
  }
  return parts.isEmpty() ? QObject::tr("no op count changed") : parts.join(QStringLiteral(", "));
}

QTableWidgetItem* number(double v, int decimals = 0) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole,
                decimals ? QVariant(QString::number(v, 'f', decimals).toDouble()) : QVariant(qlonglong(v)));
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
  auto* t = new QTableWidget(0, int(headers.size()), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->hide();
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setStretchLastSection(true);
  return t;
}

}  // namespace

PassStepper::PassStepper(Document* source, ConversionController* controller, QWidget* parent)
    : QWidget(parent),
      source_(source),
      controller_(controller),
      figures_(makeTable({tr("Pass"), tr("Runs"), tr("ms"), tr("Removed"), tr("Added")}, this)),
      ops_(makeTable({tr("Operator"), tr("Before"), tr("After"), tr("Change")}, this)),
      figuresLabel_(new QLabel(this)),
      record_(new QPushButton(tr("Step through passes"), this)),
      prev_(new QPushButton(tr("< Previous"), this)),
      next_(new QPushButton(tr("Next >"), this)),
      steps_(new QListWidget(this)),
      summary_(new QLabel(this)),
      stepDoc_(new Document(this)),
      stepScene_(new GraphScene(stepDoc_, this)),
      stepView_(new GraphView(stepScene_)) {
  overlay_ = new StatusOverlay(
      stepScene_, [this](uint64_t id) { return diffColor(shownDiff_.value(id, DiffKind::Same)); }, this);
  figuresLabel_->setWordWrap(true);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  record_->setToolTip(tr("Convert again, keeping the model after every pass that changed it"));
  steps_->setObjectName(QStringLiteral("passSteps"));

  auto* figuresBox = new QWidget(this);
  auto* fl = new QVBoxLayout(figuresBox);
  fl->setContentsMargins(0, 0, 0, 0);
  fl->addWidget(figuresLabel_);
  auto* tables = new QSplitter(Qt::Vertical, figuresBox);
  tables->addWidget(figures_);
  tables->addWidget(ops_);
  tables->setStretchFactor(0, 3);  // a pipeline's passes, each a row, before the op counts
  tables->setStretchFactor(1, 2);
  fl->addWidget(tables, 3);  // the figures before the step list, which is empty until stepping
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(record_);
  buttons->addWidget(prev_);
  buttons->addWidget(next_);
  fl->addLayout(buttons);
  fl->addWidget(steps_, 1);

  auto* stepBox = new QWidget(this);
  auto* sl = new QVBoxLayout(stepBox);
  sl->setContentsMargins(0, 0, 0, 0);
  sl->addWidget(summary_);
  sl->addWidget(stepView_, 1);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(figuresBox);
  split->addWidget(stepBox);
  split->setStretchFactor(1, 2);
  split->setSizes({460, 940});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);

  connect(controller_, &ConversionController::conversionFinished, this, &PassStepper::showFigures);
  connect(controller_, &ConversionController::conversionInvalidated, this, [this] {
    clearSteps();
    showFigures();
  });
  connect(source_, &Document::modelChanged, this, [this] {
    clearSteps();
    showFigures();
  });
  connect(record_, &QPushButton::clicked, this, &PassStepper::recordSteps);
  connect(prev_, &QPushButton::clicked, this, [this] { showStep(current_ - 1); });
  connect(next_, &QPushButton::clicked, this, [this] { showStep(current_ + 1); });
  connect(steps_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row >= 0 && row != current_) showStep(row);
  });
  connect(stepDoc_, &Document::modelChanged, this, [this] {
    // The step document shows the step's model itself: the diff's ids are the ids on screen. A step still being
    // laid out when another was asked for is followed by that one.
    const ir::Model* shown = stepDoc_->model();
    const bool current = shown && shown == modelAt(current_).get();
    shownDiff_ = current ? diff_.after : QHash<quint64, DiffKind>{};
    overlay_->refresh();
    if (current) emit stepShown(current_);
  });
  clearSteps();
  showFigures();
}

void PassStepper::showFigures() {
  figures_->setSortingEnabled(false);
  ops_->setSortingEnabled(false);
  figures_->setRowCount(0);
  ops_->setRowCount(0);
  const convert::ConvertResult* r = controller_->conversion();
  if (!r || controller_->generatedCode()) {
    figuresLabel_->setText(tr("Per-pass figures appear after Preview conversion."));
    return;
  }
  const auto& ps = r->passStats;
  if (r->passesRan)
    figuresLabel_->setText(tr("%1 -> %2 nodes in %3 rounds%4, %5 ms (of which shape inference %6 ms)")
                               .arg(ps.nodesBefore)
                               .arg(ps.nodesAfter)
                               .arg(ps.iterations)
                               .arg(ps.reachedFixpoint ? tr(" (fixed point)") : tr(" (stopped before a fixed point)"))
                               .arg(ps.milliseconds, 0, 'f', 1)
                               .arg(ps.typeInferenceMilliseconds, 0, 'f', 1));
  else
    figuresLabel_->setText(tr("No passes ran."));
  figures_->setRowCount(int(ps.perPass.size()));
  for (int i = 0; i < int(ps.perPass.size()); ++i) {
    const auto& p = ps.perPass[size_t(i)];
    auto* name = new QTableWidgetItem(QString::fromStdString(p.name));
    if (!p.total.warnings.empty()) name->setToolTip(QString::fromStdString(p.total.warnings.front()));
    figures_->setItem(i, 0, name);
    figures_->setItem(i, 1, number(double(p.runs)));
    figures_->setItem(i, 2, number(p.milliseconds, 2));
    figures_->setItem(i, 3, number(double(p.total.nodesRemoved)));
    figures_->setItem(i, 4, number(double(p.total.nodesAdded)));
  }
  std::map<std::string, std::pair<size_t, size_t>> ops;
  for (const auto& [op, n] : r->opsBefore) ops[op].first = n;
  for (const auto& [op, n] : r->opsAfter) ops[op].second = n;
  ops_->setRowCount(int(ops.size()));
  int row = 0;
  for (const auto& [op, counts] : ops) {
    ops_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(op)));
    ops_->setItem(row, 1, number(double(counts.first)));
    ops_->setItem(row, 2, number(double(counts.second)));
    ops_->setItem(row, 3, number(double(counts.second) - double(counts.first)));
    ++row;
  }
  // Figures stay in pipeline order; op counts sort by any column, the biggest drops first.
  ops_->setSortingEnabled(true);
  ops_->sortByColumn(3, Qt::AscendingOrder);
}

void PassStepper::clearSteps() {
  ++generation_;
  recording_ = false;
  recorded_.reset();
  recordedFrom_.reset();
  diff_ = {};
  shownDiff_.clear();
  current_ = -1;
  {
    const QSignalBlocker block(steps_);
    steps_->clear();
  }
  stepDoc_->close();
  summary_->setText(tr("Step through passes converts again and keeps the graph after every pass that changed it."));
  record_->setEnabled(source_->model() != nullptr);
  prev_->setEnabled(false);
  next_->setEnabled(false);
}

void PassStepper::recordSteps() {
  std::shared_ptr<const ir::Model> model = source_->loaded().model;
  if (!model) return;
  if (controller_->codeTarget()) {
    emit recordFailed(tr("pass steps are for ONNX targets"));
    return;
  }
  clearSteps();
  const quint64 generation = generation_;
  recording_ = true;
  record_->setEnabled(false);
  summary_->setText(tr("Converting to %1 and keeping every pass step...").arg(controller_->targetDescription()));
  auto options = controller_->options();
  options.recordPassSteps = true;
  using Outcome = std::pair<std::shared_ptr<const convert::ConvertResult>, QString>;
  auto future = QtConcurrent::run(backgroundPool(), [model, options]() -> Outcome {
    try {
      auto r = std::make_shared<convert::ConvertResult>(convert::convertModel(*model, options));
      if (!r->model)
        return {nullptr,
                r->error.empty() ? QObject::tr("the conversion produced no model") : QString::fromStdString(r->error)};
      if (!r->passesRan || !r->passStats.initial) return {nullptr, QObject::tr("no passes ran")};
      return {r, {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromStdString(e.what())};
    }
  });
  addModelReader(source_, QFuture<void>(future));  // it reads the model: an edit waits for it
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, model] {
    watcher->deleteLater();
    if (generation != generation_) return;  // settings or model changed meanwhile
    recording_ = false;
    record_->setEnabled(true);
    const Outcome out = watcher->result();
    if (!out.first) {
      summary_->setText(tr("No pass steps: %1").arg(out.second));
      emit logMessage(tr("No pass steps for %1: %2").arg(source_->path(), out.second));
      emit recordFailed(out.second);
      return;
    }
    recorded_ = out.first;
    recordedFrom_ = model;
    const auto& ps = recorded_->passStats;
    steps_->addItem(tr("0  after the handlers: %1 nodes").arg(ps.initial->graph().nodeCount()));
    for (size_t i = 0; i < ps.steps.size(); ++i) {
      const auto& s = ps.steps[i];
      QString what = tr("-%1 +%2 nodes").arg(s.change.nodesRemoved).arg(s.change.nodesAdded);
      if (s.change.initializersRemoved || s.change.initializersAdded)
        what += tr(", -%1 +%2 initializers").arg(s.change.initializersRemoved).arg(s.change.initializersAdded);
      steps_->addItem(tr("%1  %2 (round %3): %4, %5 ms")
                          .arg(i + 1)
                          .arg(QString::fromStdString(s.pass))
                          .arg(s.iteration)
                          .arg(what)
                          .arg(s.milliseconds, 0, 'f', 1));
    }
    emit logMessage(tr("Recorded %1 pass steps of %2 at %3: %4 -> %5 nodes")
                        .arg(ps.steps.size())
                        .arg(source_->path(), controller_->targetDescription())
                        .arg(ps.nodesBefore)
                        .arg(ps.nodesAfter));
    emit stepsRecorded();
    showStep(0);
  });
  watcher->setFuture(future);
}

int PassStepper::stepCount() const { return recorded_ ? int(recorded_->passStats.steps.size()) + 1 : 0; }

std::shared_ptr<const ir::Model> PassStepper::modelAt(int step) const {
  if (step < 0 || step >= stepCount()) return nullptr;
  return step == 0 ? recorded_->passStats.initial : recorded_->passStats.steps[size_t(step - 1)].after;
}

const passes::PassStep* PassStepper::passStep(int step) const {
  if (step < 1 || step >= stepCount()) return nullptr;
  return &recorded_->passStats.steps[size_t(step - 1)];
}

void PassStepper::showStep(int step) {
  auto model = modelAt(step);
  if (!model) return;
  current_ = step;
  {
    const QSignalBlocker block(steps_);
    steps_->setCurrentRow(step);
  }
  prev_->setEnabled(step > 0);
  next_->setEnabled(step + 1 < stepCount());
  auto before = step == 0 ? recordedFrom_ : modelAt(step - 1);
  diff_ = diffGraphs(before->graph(), model->graph());
  QStringList removedOps;
  std::map<std::string, int> removed;
  for (const ir::Node* n : diff_.removed) ++removed[n->opType];
  for (const auto& [op, n] : removed) removedOps << QStringLiteral("%1 %2").arg(QString::fromStdString(op)).arg(n);
  const passes::PassStep* ps = passStep(step);
  summary_->setText(
      tr("<b>%1</b>: %2 nodes; <span style='color:%3'>&#9632;</span> added %4, <span style='color:%5'>&#9632;</span> "
         "modified %6, removed %7%8<br>%9")
          .arg(ps ? tr("Step %1: %2, round %3 (%4 ms%5)")
                        .arg(step)
                        .arg(QString::fromStdString(ps->pass))
                        .arg(ps->iteration)
                        .arg(ps->milliseconds, 0, 'f', 1)
                        .arg(ps->change.initializersRemoved || ps->change.initializersAdded
                                 ? tr("; initializers -%1 +%2")
                                       .arg(ps->change.initializersRemoved)
                                       .arg(ps->change.initializersAdded)
                                 : QString())
                  : tr("Step 0: after the handlers, before any pass"))
          .arg(model->graph().nodeCount())
          .arg(diffColor(DiffKind::Added).name())
          .arg(diff_.count(DiffKind::Added))
          .arg(diffColor(DiffKind::Modified).name())
          .arg(diff_.count(DiffKind::Modified))
          .arg(diff_.count(DiffKind::Removed))
          .arg(removedOps.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(removedOps.join(QStringLiteral(", "))))
          .arg(opMoves(before->graph(), model->graph()).toHtmlEscaped()));
  stepDoc_->show(model, tr("pass step %1 of %2").arg(step).arg(source_->name()));
}

}  // namespace fb::ui
