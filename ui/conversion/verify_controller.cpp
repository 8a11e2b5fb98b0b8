#include "ui/conversion/verify_controller.h"
#include "ui/model_readers.h"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent>
#include <cmath>
#include <limits>

#include "eval/runtime/run.h"
#include "eval/verify/model_compare.h"
#include "eval/verify/seeded_inputs.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/value.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "ui/run_values.h"
#include "util/printable.h"

namespace fb::ui {

struct VerifyController::Outcome {
  QString error;  // empty on success
  std::shared_ptr<RunValues> sourceValues, previewValues;
  // The comparison as the controller keeps it (see done()).
  QHash<const ir::Node*, double> previewErrors, sourceErrors;
  QList<QPair<const ir::Node*, const ir::Node*>> order;
  std::vector<PairedValue> pairs;
  QHash<const ir::Value*, int> pairIndex;
};

namespace {

std::shared_ptr<RunValues> valuesOf(const eval::RunResult& r, const std::map<std::string, eval::Value>& inputs,
                                    const ir::Model& m, const QString& label) {
  auto v = std::make_shared<RunValues>();
  for (const ir::Value* in : m.graph().inputs())
    if (auto it = inputs.find(in->name()); it != inputs.end()) v->byName.emplace(it->first, it->second);
  for (const auto& [name, x] : r.kept) v->byName.emplace(name, x);
  for (const auto& [name, x] : r.outputs) v->byName.emplace(name, x);
  v->inputs = label;
  v->peakBytes = r.peakBytes;
  return v;
}

// A relative error for colouring: a comparison that could not be made (other shape or type) counts as infinite.
double errorOf(const eval::ComparedValue& c) {
  if (!c.diff.mismatch.empty()) return std::numeric_limits<double>::infinity();
  return c.diff.maxRel;
}

}  // namespace

// Errors per node (the largest of its outputs'), the compared nodes in B's order and the pairs of values, looked
// up in the two models (which stay alive and unchanged: both are shared and const).
void VerifyController::keepComparison(const eval::ModelComparison& comparison, const ir::Model& a, const ir::Model& b,
                                      Outcome& out) {
  for (const eval::ComparedValue& c : comparison.values) {
    const ir::Value* bv = b.graph().findValue(c.bValue);
    const ir::Value* av = a.graph().findValue(c.aValue);
    const ir::Node* bn = bv ? bv->producer() : nullptr;
    const ir::Node* an = av ? av->producer() : nullptr;
    const double e = errorOf(c);
    if (bn) {
      auto it = out.previewErrors.find(bn);
      if (it == out.previewErrors.end()) {
        out.previewErrors.insert(bn, e);
        out.order.append(qMakePair(bn, an));
      } else {
        *it = std::max(*it, e);
      }
    }
    if (an) out.sourceErrors[an] = std::max(out.sourceErrors.value(an, 0.0), e);
    if (av && bv && !out.pairIndex.contains(av) && !out.pairIndex.contains(bv)) {
      const int k = int(out.pairs.size());
      out.pairs.push_back({av, bv, c.diff});
      out.pairIndex.insert(av, k);
      out.pairIndex.insert(bv, k);
    }
  }
}

VerifyController::VerifyController(Document* source, Document* preview, QObject* parent)
    : QObject(parent),
      source_(source),
      preview_(preview),
      watcher_(new QFutureWatcher<std::shared_ptr<Outcome>>(this)) {
  connect(watcher_, &QFutureWatcher<std::shared_ptr<Outcome>>::finished, this, &VerifyController::done);
  // The errors belong to the two models they were computed on: either one changing drops them.
  connect(source_, &Document::modelChanged, this, &VerifyController::drop);
  connect(preview_, &Document::modelChanged, this, &VerifyController::drop);
}

VerifyController::~VerifyController() { wait(); }

void VerifyController::cancel() {
  if (cancel_) *cancel_ = true;
}

void VerifyController::wait() {
  if (!running_) return;
  cancel();
  watcher_->waitForFinished();
}

void VerifyController::drop() {
  cancel();
  const bool had = hasResult_;
  hasResult_ = false;
  previewErrors_.clear();
  sourceErrors_.clear();
  order_.clear();
  pairs_.clear();
  pairIndex_.clear();
  sourceModel_.reset();
  previewModel_.reset();
  if (had) emit thresholdChanged();  // the marks go
}

void VerifyController::start(quint64 seed) {
  auto a = source_->loaded().model;
  auto b = preview_->loaded().model;
  if (running_ || !a || !b) return;
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto cancel = cancel_;
  sourceModel_ = a;
  previewModel_ = b;
  emit started();
  QPointer<VerifyController> self(this);
  auto report = [self](int percent, const QString& phase) {
    QMetaObject::invokeMethod(
        self,
        [self, percent, phase] {
          if (self) emit self->progress(percent, phase);
        },
        Qt::QueuedConnection);
  };
  watcher_->setFuture(QtConcurrent::run(backgroundPool(), [a, b, seed, cancel, report]() {
    auto out = std::make_shared<Outcome>();
    try {
      const eval::SeededInputs inputs = eval::makeInputs(*a, {}, {}, seed);
      eval::RunOptions o;
      o.keep = eval::RunOptions::Keep::All;
      o.cancel = cancel.get();
      int last = -1;
      auto phase = [&](int from, const QString& what) {
        o.progress = [&, from, what](size_t done, size_t total) {
          const int percent = from + int(total ? done * 50 / total : 50);
          if (percent != last) report(last = percent, what);
        };
      };
      phase(0, QObject::tr("Verify: running the source"));
      const eval::RunResult ra = eval::runModel(*a, inputs.values, o);
      phase(50, QObject::tr("Verify: running the conversion"));
      std::map<std::string, eval::Value> bInputs;
      for (const std::string& name : eval::requiredInputs(*b))
        if (auto it = inputs.values.find(name); it != inputs.values.end()) bInputs.emplace(name, it->second);
      const eval::RunResult rb = eval::runModel(*b, bInputs, o);
      const eval::ModelComparison comparison =
          eval::compareRuns(ra, rb, inputs.values, eval::pairValuesByOrigins(*a, *b), eval::Tolerance{});
      keepComparison(comparison, *a, *b, *out);
      const QString label = QObject::tr("seeded random inputs (seed %1), Verify").arg(seed);
      out->sourceValues = valuesOf(ra, inputs.values, *a, label);
      out->previewValues = valuesOf(rb, bInputs, *b, label);
    } catch (const eval::RunError& e) {
      out->error = e.kind() == eval::RunError::Kind::Cancelled
                       ? QObject::tr("cancelled")
                       : QString::fromStdString(printable(e.node().empty() ? e.what() : e.node() + ": " + e.what()));
    } catch (const std::exception& e) {
      out->error = QString::fromStdString(printable(e.what()));
    }
    return out;
  }));
  addModelReader(source_, QFuture<void>(watcher_->future()));  // it reads the model: an edit waits for it
}

void VerifyController::done() {
  running_ = false;
  const std::shared_ptr<Outcome> out = watcher_->result();
  // A model changed while this ran: its result is for models no longer on screen.
  if (source_->loaded().model != sourceModel_ || preview_->loaded().model != previewModel_) {
    emit finished(false, tr("the models changed during Verify"));
    return;
  }
  if (!out->error.isEmpty()) {
    emit finished(false, out->error);
    return;
  }
  previewErrors_ = std::move(out->previewErrors);
  sourceErrors_ = std::move(out->sourceErrors);
  order_ = std::move(out->order);
  pairs_ = std::move(out->pairs);
  pairIndex_ = std::move(out->pairIndex);
  hasResult_ = true;
  source_->setRunValues(out->sourceValues);
  preview_->setRunValues(out->previewValues);
  emit thresholdChanged();
  emit finished(true, summary());
}

std::optional<double> VerifyController::previewNodeError(const ir::Node* n) const {
  auto it = previewErrors_.find(n);
  if (it == previewErrors_.end()) return std::nullopt;
  return *it;
}

std::optional<double> VerifyController::sourceNodeError(const ir::Node* n) const {
  auto it = sourceErrors_.find(n);
  if (it == sourceErrors_.end()) return std::nullopt;
  return *it;
}

const VerifyController::PairedValue* VerifyController::pairOf(const ir::Value* v) const {
  auto it = pairIndex_.find(v);
  return it == pairIndex_.end() ? nullptr : &pairs_[size_t(*it)];
}

void VerifyController::setThreshold(double t) {
  if (t == threshold_) return;
  threshold_ = t;
  emit thresholdChanged();
}

const ir::Node* VerifyController::firstDivergentPreviewNode() const {
  for (const auto& [b, a] : order_)
    if (previewErrors_.value(b) > threshold_) return b;
  return nullptr;
}

const ir::Node* VerifyController::firstDivergentSourceNode() const {
  for (const auto& [b, a] : order_)
    if (previewErrors_.value(b) > threshold_) return a;
  return nullptr;
}

QString VerifyController::summary() const {
  if (!hasResult_) return {};
  int above = 0;
  for (double e : previewErrors_) above += e > threshold_;
  const ir::Node* first = firstDivergentPreviewNode();
  if (!first)
    return tr("Verify: all %1 compared nodes agree (relative error at most %2)")
        .arg(previewErrors_.size())
        .arg(threshold_, 0, 'g', 2);
  const QString name = QString::fromStdString(printable(first->name.empty() ? first->opType : first->name));
  return tr("Verify: %1 of %2 compared nodes differ by more than %3; first: %4 (%5), relative error %6")
      .arg(above)
      .arg(previewErrors_.size())
      .arg(threshold_, 0, 'g', 2)
      .arg(name, QString::fromStdString(first->opType))
      .arg(previewErrors_.value(first), 0, 'g', 3);
}

}  // namespace fb::ui
