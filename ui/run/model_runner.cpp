#include "ui/run/model_runner.h"
#include "ui/model_readers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent>

#include "eval/io/npy_file.h"
#include "eval/io/proto_value_file.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "ir/graph.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::ui {

namespace {

// The values of `folder` for the inputs of `m` that have a file there.
std::map<std::string, eval::Value> inputsFrom(const ir::Model& m, const QString& folder) {
  std::map<std::string, eval::Value> given;
  const QDir dir(folder);
  size_t k = 0;
  for (const ir::Value* v : m.graph().inputs()) {
    if (v->initializer()) continue;
    const QString npy = dir.filePath(QString::fromStdString(v->name()) + ".npy");
    const QString pb = dir.filePath(QString("input_%1.pb").arg(k++));
    // A name with a '/' or '..' is not a file name of this folder: only its position finds it then.
    const bool plainName = v->name().find('/') == std::string::npos && v->name() != ".." && v->name() != ".";
    if (plainName && QFileInfo(npy).isFile())
      given[v->name()] = eval::Value(eval::readNpyFile(npy.toStdString()));
    else if (QFileInfo(pb).isFile())
      given[v->name()] = eval::readProtoValueFile(pb.toStdString(), &v->type);
  }
  return given;
}

}  // namespace

ModelRunner::ModelRunner(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {
  connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &ModelRunner::done);
  // A run's values belong to the model it ran: a new model cancels it.
  connect(doc_, &Document::modelChanged, this, &ModelRunner::cancel);
}

ModelRunner::~ModelRunner() { wait(); }

void ModelRunner::runSeeded(quint64 seed) { start({}, seed); }

void ModelRunner::runWithInputsFrom(const QString& folder) { start(folder, 0); }

void ModelRunner::cancel() {
  if (cancel_) *cancel_ = true;
}

void ModelRunner::wait() {
  if (!running_) return;
  cancel();
  watcher_.waitForFinished();
}

void ModelRunner::start(const QString& folder, quint64 seed) {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (!model || running_) return;
  running_ = true;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto cancel = cancel_;
  const int total = int(model->graph().nodeCount());
  emit started(total);
  QPointer<ModelRunner> self(this);
  watcher_.setFuture(QtConcurrent::run(backgroundPool(), [model, folder, seed, cancel, self]() -> Outcome {
    Outcome out;
    try {
      QElapsedTimer timer;
      timer.start();
      auto values = std::make_shared<RunValues>();
      std::map<std::string, eval::Value> given;
      if (!folder.isEmpty()) given = inputsFrom(*model, folder);
      eval::SeededInputs inputs = eval::makeInputs(*model, given, {}, seed);
      values->notes = inputs.notes;
      values->inputs = folder.isEmpty()
                           ? QObject::tr("seeded random inputs (seed %1)").arg(seed)
                           : QObject::tr("inputs from %1 (%2 of them given)").arg(folder).arg(given.size());
      eval::RunOptions o;
      o.keep = eval::RunOptions::Keep::All;
      o.cancel = cancel.get();
      int lastPercent = -1;
      o.progress = [&](size_t done, size_t all) {
        const int percent = all ? int(done * 100 / all) : 100;
        if (percent == lastPercent) return;
        lastPercent = percent;
        QMetaObject::invokeMethod(
            self,
            [self, done, all] {
              if (self) emit self->progress(int(done), int(all));
            },
            Qt::QueuedConnection);
      };
      eval::RunResult r = eval::runModel(*model, inputs.values, o);
      for (auto& [name, v] : inputs.values) values->byName.emplace(name, std::move(v));
      for (auto& [name, v] : r.kept) values->byName.emplace(name, std::move(v));
      for (auto& [name, v] : r.outputs) values->byName.emplace(name, std::move(v));
      values->milliseconds = double(timer.nsecsElapsed()) / 1e6;
      values->peakBytes = r.peakBytes;
      out.values = std::move(values);
    } catch (const eval::RunError& e) {
      if (e.kind() == eval::RunError::Kind::Cancelled) return out;
      out.error = QString::fromStdString(printable(e.node().empty() ? e.what() : e.node() + ": " + e.what()));
    } catch (const InputError& e) {
      out.error = QString::fromStdString(printable(e.file() + ": " + e.what()));
    } catch (const std::exception& e) {
      out.error = QString::fromStdString(printable(e.what()));
    }
    return out;
  }));
  addModelReader(doc_, QFuture<void>(watcher_.future()));  // it reads the model: an edit waits for it
}

void ModelRunner::done() {
  running_ = false;
  Outcome out = watcher_.result();
  if (out.values) {
    const RunValues& v = *out.values;
    doc_->setRunValues(out.values);
    emit doc_->logMessage(tr("Ran %1 on %2: %3 ms, peak %4 MiB of values")
                              .arg(doc_->name(), v.inputs)
                              .arg(v.milliseconds, 0, 'f', 0)
                              .arg(double(v.peakBytes) / (1 << 20), 0, 'f', 1));
    for (const auto& note : v.notes) emit doc_->logMessage(QString::fromStdString(printable(note)));
    emit finished(true, {});
    return;
  }
  const QString message = out.error.isEmpty() ? tr("cancelled") : out.error;
  if (!out.error.isEmpty()) emit doc_->logMessage(tr("Error: run of %1: %2").arg(doc_->name(), message));
  emit finished(false, message);
}

}  // namespace fb::ui
