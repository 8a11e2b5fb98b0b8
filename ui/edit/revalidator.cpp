#include "ui/edit/revalidator.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <unordered_map>

#include "convert/converter.h"
#include "edit/apply_edits.h"
#include "ir/model.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "util/failure_text.h"

namespace fb::ui {

// What the UI thread and one worker share: the worker reads the document's model only while `reading`, and not at
// all once `cancelled` is set before it starts.
struct RevalidationRun {
  std::mutex mutex;
  std::condition_variable idle;
  bool cancelled = false;
  bool reading = false;

  bool isCancelled() {
    std::lock_guard lock(mutex);
    return cancelled;
  }
};

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Outcome {
  bool cancelled = false;
  QList<Problem> problems;
  std::shared_ptr<const convert::ConvertResult> dryRun;
  Revalidator::Timing timing;
};

// Node names of the copy (subgraphs included) to the ids they share with the document's model; a name given twice
// keeps its first node.
void indexNames(const ir::Graph& g, std::unordered_map<std::string, const ir::Node*>& out) {
  for (const auto& n : g.nodes()) {
    if (!n->name.empty()) out.emplace(n->name, n.get());
    for (const ir::Graph* body : n->subgraphs()) indexNames(*body, out);
  }
}

QString nodeLabel(const std::string& name, const std::string& op) {
  return QString::fromStdString(name.empty() ? op : name);
}

void addCheckProblems(const ir::Model& copy, const CheckResult& check, QList<Problem>& out) {
  if (check.ok && check.messages.empty()) return;
  std::unordered_map<std::string, const ir::Node*> byName;
  indexNames(copy.graph(), byName);
  for (const CheckMessage& m : check.messages) {
    Problem p;
    p.severity = check.ok ? Problem::Severity::Warning : Problem::Severity::Error;
    p.message = QString::fromStdString(m.message);
    if (auto it = byName.find(m.node); !m.node.empty() && it != byName.end()) {
      p.nodeId = it->second->id();
      p.nodeName = nodeLabel(it->second->name, it->second->opType);
    } else {
      p.nodeName = QString::fromStdString(m.node);  // a node the message names that the model has not (or none)
    }
    out.push_back(std::move(p));
  }
}

// The nodes the dry run cannot take to the target: a failed conversion is an error, an op the target lacks a
// warning (the model itself is valid).
void addDryRunProblems(const convert::ConvertResult& r, QList<Problem>& out) {
  if (!r.error.empty()) {
    out.push_back({Problem::Severity::Error, 0, {}, QString::fromStdString(r.error)});
    return;
  }
  for (const convert::NodeReport& n : r.nodes) {
    if (n.status != convert::NodeStatus::Unsupported && n.status != convert::NodeStatus::Failed) continue;
    Problem p;
    p.severity = n.status == convert::NodeStatus::Failed ? Problem::Severity::Error : Problem::Severity::Warning;
    p.nodeId = n.nodeId;
    p.nodeName = nodeLabel(n.nodeName, n.opType);
    // The handler's reason names the op and the opset ("Round does not exist at opset 9 (first in opset 11)").
    QString why = !n.message.empty() ? QString::fromStdString(n.message)
                  : n.status == convert::NodeStatus::Failed
                      ? QStringLiteral("conversion to opset %1 fails").arg(r.targetOpset)
                      : QStringLiteral("no conversion of %1 to opset %2")
                            .arg(QString::fromStdString(n.opType))
                            .arg(r.targetOpset);
    if (n.lowestOpset) why += QStringLiteral(" [lowest opset with a conversion: %1]").arg(*n.lowestOpset);
    p.message = why;
    out.push_back(std::move(p));
  }
}

Outcome revalidateCopy(std::shared_ptr<const ir::Model> model, const std::shared_ptr<RevalidationRun>& run,
                       const Revalidator::DryRunJob& dry) {
  Outcome out;
  const auto start = Clock::now();
  std::unique_ptr<ir::Model> copy;
  {
    std::lock_guard lock(run->mutex);
    if (run->cancelled) return {true, {}, {}, {}};
    run->reading = true;
  }
  try {
    copy = model->clone();
  } catch (const std::exception& e) {
    out.problems.push_back({Problem::Severity::Error, 0, {}, QString::fromStdString(failureText(e, "copying"))});
  }
  {
    std::lock_guard lock(run->mutex);
    run->reading = false;
  }
  run->idle.notify_all();
  model.reset();
  out.timing.copyMs = msSince(start);
  if (!copy) return out;
  if (run->isCancelled()) return {true, {}, {}, {}};

  auto t = Clock::now();
  bool valid = false;
  try {
    const CheckResult check = edit::checkEditedModel(*copy);
    valid = check.ok;
    addCheckProblems(*copy, check, out.problems);
  } catch (const std::exception& e) {
    out.problems.push_back(
        {Problem::Severity::Error, 0, {}, QString::fromStdString(failureText(e, "checking the model"))});
  }
  out.timing.checkMs = msSince(t);
  if (run->isCancelled()) return {true, {}, {}, {}};

  // No dry run of a model the check refuses: its statuses would be about a model no target takes, and libonnx 1.12's
  // lenient inference (the dry run's shape facts) crashes on some of what the strict check refuses (a Conv
  // kernel_shape shorter than its input's spatial rank).
  if (dry.run && !valid) {
    auto r = std::make_shared<convert::ConvertResult>();
    r->error = "the edited model does not pass the check (see Problems): no dry run";
    out.dryRun = r;
  } else if (dry.run) {
    t = Clock::now();
    try {
      out.dryRun = dry.run(*copy);
    } catch (const std::exception& e) {
      auto r = std::make_shared<convert::ConvertResult>();
      r->error = failureText(e, "checking the conversion");
      out.dryRun = r;
    }
    if (out.dryRun) addDryRunProblems(*out.dryRun, out.problems);
    out.timing.dryRunMs = msSince(t);
  }
  out.timing.totalMs = msSince(start);
  return out;
}

}  // namespace

Revalidator::Revalidator(Document* doc, QObject* parent) : QObject(parent), doc_(doc), startTimer_(new QTimer(this)) {
  startTimer_->setSingleShot(true);
  startTimer_->setInterval(0);
  connect(startTimer_, &QTimer::timeout, this, &Revalidator::revalidate);
  connect(doc_, &Document::aboutToEditModel, this, &Revalidator::stopReading);
  connect(doc_, &Document::modelEdited, this, &Revalidator::schedule);
  // Problems belong to edits of the model on screen: another model starts with none. (An edit in place emits
  // modelChanged too, with the same model: modelEdited follows and schedules the check.)
  connect(doc_, &Document::modelChanged, this, [this] {
    if (!doc_->isApplyingEdit()) clear();
  });
}

Revalidator::~Revalidator() { stopReading(); }

void Revalidator::stopReading() {
  if (!run_) return;
  std::unique_lock lock(run_->mutex);
  run_->cancelled = true;
  run_->idle.wait(lock, [this] { return !run_->reading; });
}

void Revalidator::schedule() {
  if (run_) {
    std::lock_guard lock(run_->mutex);
    run_->cancelled = true;
  }
  ++generation_;  // a result still on its way is of the model before this edit
  if (!running_) {
    running_ = true;
    emit started();
  }
  startTimer_->start();
}

void Revalidator::clear() {
  startTimer_->stop();
  stopReading();
  run_.reset();
  ++generation_;
  const bool had = running_ || !problems_.isEmpty();
  running_ = false;
  hasResult_ = false;
  problems_.clear();
  timing_ = {};
  if (had) emit finished();
}

void Revalidator::revalidate() {
  startTimer_->stop();
  stopReading();  // an older run: its result would be of an older model
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (!model) return clear();
  const quint64 generation = ++generation_;
  run_ = std::make_shared<RevalidationRun>();
  const DryRunJob dry = dryRunSource_ ? dryRunSource_() : DryRunJob{};
  if (!running_) {
    running_ = true;
    emit started();
  }
  auto future = QtConcurrent::run(
      backgroundPool(), [model, run = run_, dry]() mutable { return revalidateCopy(std::move(model), run, dry); });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, ticket = dry.ticket] {
    watcher->deleteLater();
    if (generation != generation_) return;  // a newer edit's run is on its way
    Outcome out = watcher->result();
    if (out.cancelled) return;
    running_ = false;
    hasResult_ = true;
    problems_ = std::move(out.problems);
    timing_ = out.timing;
    if (out.dryRun) emit dryRunFinished(out.dryRun, ticket);
    emit finished();
  });
  watcher->setFuture(future);
}

}  // namespace fb::ui
