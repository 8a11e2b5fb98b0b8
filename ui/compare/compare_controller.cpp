#include "ui/compare/compare_controller.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent>

#include "diff/diff_report.h"
#include "formats/model_io.h"
#include "ir/model.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "ui/theme/colors.h"
#include "util/error.h"
#include "util/failure_text.h"
#include "util/stopwatch.h"

namespace fb::ui {

CompareController::CompareController(Document* a, QObject* parent) : QObject(parent), a_(a), b_(new Document(this)) {
  progressTimer_.setInterval(100);
  connect(&progressTimer_, &QTimer::timeout, this, [this] {
    if (percent_) emit progress(percent_->load(), tr("Pairing the nodes of the two models"));
  });
  // A comparison belongs to the model it was made with.
  connect(a_, &Document::modelChanged, this, [this] {
    if (result_ || running_ || b_->model()) close();
  });
  connect(b_, &Document::loadFailed, this, [this](const QString& path, const QString& message) {
    if (!waitingForB_) return;
    waitingForB_ = false;
    stop();
    emit failed(tr("Cannot open %1: %2").arg(path, message));
  });
  connect(b_, &Document::modelChanged, this, [this] {
    if (!waitingForB_ || !b_->model() || b_->model() != modelB_.get()) return;
    waitingForB_ = false;
    finishIfDone();
  });
  connect(a_, &Document::selectionChanged, this, [this] { follow(a_, b_); });
  connect(b_, &Document::selectionChanged, this, [this] { follow(b_, a_); });
}

CompareController::~CompareController() {
  if (cancel_) cancel_->store(true);
}

void CompareController::compareWith(const QString& path) {
  if (!a_->model()) {
    emit failed(tr("Open a model first: Compare with... pairs another model with the open one"));
    return;
  }
  cancel();
  result_.reset();
  pending_.reset();
  index();
  running_ = true;
  const quint64 generation = ++generation_;
  emit started(path);
  emit progress(0, tr("Reading %1").arg(QFileInfo(path).fileName()));
  struct Read {
    std::shared_ptr<const ir::Model> model;
    QString error;
  };
  auto future = QtConcurrent::run(backgroundPool(), [file = path.toStdString()]() -> Read {
    Read r;
    try {
      r.model = loadModel(file);
    } catch (const InputError& e) {
      r.error =
          QString::fromStdString((e.file().empty() || e.file() == file ? std::string() : e.file() + ": ") + e.what());
    } catch (const std::exception& e) {
      r.error = QString::fromStdString(failureText(e, "reading the model"));
    }
    return r;
  });
  auto* watcher = new QFutureWatcher<Read>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, path] {
    watcher->deleteLater();
    if (generation != generation_) return;  // cancelled, or another comparison started
    const Read r = watcher->result();
    if (!r.model) {
      running_ = false;
      emit failed(tr("Cannot open %1: %2").arg(path, r.error));
      return;
    }
    // B's layout and the match run side by side on the background pool.
    modelB_ = r.model;
    waitingForB_ = true;
    b_->show(modelB_, path);
    startMatch();
  });
  watcher->setFuture(future);
}

void CompareController::cancel() {
  if (!running_) return;
  stop();
  emit cancelled();
}

void CompareController::stop() {
  ++generation_;  // a read or match still running is dropped when it ends
  if (cancel_) cancel_->store(true);
  if (waitingForB_) {
    waitingForB_ = false;
    b_->cancelLoad();
  }
  progressTimer_.stop();
  pending_.reset();
  running_ = false;
}

void CompareController::close() {
  const bool wasRunning = running_;
  cancel();
  if (wasRunning) running_ = false;
  result_.reset();
  modelA_.reset();
  modelB_.reset();
  index();
  b_->close();
  emit closed();
}

void CompareController::startMatch() {
  modelA_ = a_->loaded().model;
  if (!modelA_ || !modelB_) {
    running_ = false;
    return;
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  percent_ = std::make_shared<std::atomic<int>>(10);
  const quint64 generation = generation_;
  progressTimer_.start();
  struct Outcome {
    std::shared_ptr<diff::ModelDiff> diff;
    QString error;
  };
  auto future = QtConcurrent::run(
      backgroundPool(), [a = modelA_, b = modelB_, cancel = cancel_, percent = percent_]() -> Outcome {
        Outcome o;
        try {
          diff::DiffOptions opts;
          opts.match.cancel = cancel.get();
          opts.match.progress = [percent](double share) { percent->store(10 + int(share * 90)); };
          o.diff = std::make_shared<diff::ModelDiff>(diff::diffModels(*a, *b, opts));
        } catch (const std::exception& e) {
          o.error = QString::fromStdString(failureText(e, "comparing the models"));
        }
        return o;
      });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return;  // cancelled, or another comparison started
    progressTimer_.stop();
    const Outcome o = watcher->result();
    if (!o.error.isEmpty()) {
      stop();
      emit failed(o.error);
      return;
    }
    if (!o.diff || o.diff->cancelled) {
      cancel();
      return;
    }
    pending_ = o.diff;
    finishIfDone();
  });
  watcher->setFuture(future);
}

void CompareController::finishIfDone() {
  if (!running_ || waitingForB_ || !pending_) return;
  running_ = false;
  result_ = std::move(pending_);
  pending_.reset();
  index();
  const diff::DiffCounts c = result_->counts();
  emit logMessage(tr("Compared %1 with %2: %3; %4 of %5 nodes paired in %6 ms")
                      .arg(a_->name(), b_->name(), QString::fromStdString(diff::nodeSummary(c)))
                      .arg(c.paired)
                      .arg(c.nodesA)
                      .arg(qRound(result_->totalMs)));
  emit progress(100, tr("Compared"));
  emit finished();
}

void CompareController::index() {
  rows_.clear();
  regions_.clear();
  sideA_.clear();
  weights_.clear();
  coloursA_.clear();
  coloursB_.clear();
  if (!result_) return;
  for (const auto& g : result_->graphs) {
    for (const auto& n : g.nodes) {
      if (n.a) {
        rows_.insert(n.a, &n);
        sideA_.insert(n.a, true);
      }
      if (n.b) {
        rows_.insert(n.b, &n);
        sideA_.insert(n.b, false);
      }
      QColor mark;
      if (n.region >= 0 || n.status == diff::Status::Changed) mark = modifiedColor();
      if (n.a && n.status != diff::Status::Same)
        coloursA_.insert(n.a->id(), n.region < 0 && n.status == diff::Status::OnlyA ? removedColor() : mark);
      if (n.b && n.status != diff::Status::Same)
        coloursB_.insert(n.b->id(), n.region < 0 && n.status == diff::Status::OnlyB ? addedColor() : mark);
    }
    for (const auto& r : g.regions) {
      for (const ir::Node* n : r.a) regions_.insert(n, &r);
      for (const ir::Node* n : r.b) regions_.insert(n, &r);
    }
    for (const auto& w : g.weights) {
      if (w.a) weights_.insert(w.a, &w);
      if (w.b) weights_.insert(w.b, &w);
    }
  }
}

bool CompareController::isA(const ir::Node* n) const { return sideA_.value(n, false); }

QList<const ir::Node*> CompareController::counterparts(const ir::Node* n) const {
  QList<const ir::Node*> out;
  const diff::NodeDiff* row = rows_.value(n);
  if (!row) return out;
  const bool fromA = row->a == n;
  if (const ir::Node* partner = fromA ? row->b : row->a) {
    out.append(partner);
    return out;
  }
  if (const diff::RegionDiff* r = regions_.value(n))
    for (const ir::Node* x : fromA ? r->b : r->a) out.append(x);
  return out;
}

QColor CompareController::colourOf(const Document* side, uint64_t nodeId) const {
  return side == a_ ? coloursA_.value(nodeId) : coloursB_.value(nodeId);
}

void CompareController::follow(Document* from, Document* to) {
  if (following_ || !result_ || !to->hasGraph()) return;
  QList<const ir::Node*> chosen;
  for (const ir::Node* n : from->selectedNodes())
    for (const ir::Node* c : counterparts(n))
      if (!chosen.contains(c)) chosen.append(c);
  if (chosen.isEmpty() && to->selectedNodes().isEmpty()) return;
  following_ = true;
  // A counterpart in an If/Loop/Scan body opens that body on the other side.
  if (!chosen.isEmpty() && chosen.first()->graph() != to->currentLevel().graph) to->showNode(chosen.first());
  to->selectNodes(chosen);
  following_ = false;
}

}  // namespace fb::ui
