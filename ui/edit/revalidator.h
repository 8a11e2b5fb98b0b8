#pragma once
// After each edit of the open model: FlowBridge's structural check (libonnx's checker and strict shape inference up
// to opset 17, the own structure check above) and the dry run for the current conversion target, on a worker, and
// the problems they find by node. The worker first copies the model (node ids kept) and then works on that copy
// only, so an edit that follows waits at most for the copy (aboutToEditModel), never for a check. The newest edit
// wins: an older run is cancelled between its steps and its result dropped.
#include <QList>
#include <QObject>
#include <functional>
#include <memory>

#include "ui/edit/problem.h"

class QTimer;

namespace fb::ir {
class Model;
}
namespace fb::convert {
struct ConvertResult;
}

namespace fb::ui {

class Document;
struct RevalidationRun;

class Revalidator : public QObject {
  Q_OBJECT
 public:
  // The dry run of one revalidation, made on the UI thread for the target picked then and run on the worker's copy
  // of the model; `ticket` comes back with its result so the owner of the target can drop a result of an older
  // target. A job without `run`: no dry run.
  struct DryRunJob {
    quint64 ticket = 0;
    std::function<std::shared_ptr<const convert::ConvertResult>(const ir::Model&)> run;
  };
  using DryRunSource = std::function<DryRunJob()>;
  // Where the time of the last finished revalidation went (for the bench and the log).
  struct Timing {
    double copyMs = 0, checkMs = 0, dryRunMs = 0, totalMs = 0;
  };

  explicit Revalidator(Document* doc, QObject* parent = nullptr);
  ~Revalidator() override;

  void setDryRunSource(DryRunSource source) { dryRunSource_ = std::move(source); }
  // Checks the model as it is now. modelEdited schedules this for the next event-loop turn, so that a burst of edits
  // (a script replayed, undo held down) is checked once, as the last one left the model.
  void revalidate();
  bool isRunning() const { return running_; }
  // The problems of the newest finished revalidation of the current model (empty after a new model is opened).
  const QList<Problem>& problems() const { return problems_; }
  // A revalidation of the current model has finished (false for a model not edited since it was opened).
  bool hasResult() const { return hasResult_; }
  Timing lastTiming() const { return timing_; }

 signals:
  void started();
  // problems() are those of the model as the newest edit left it.
  void finished();
  // The dry run of the newest edit (null result: the dry run failed to run at all).
  void dryRunFinished(std::shared_ptr<const fb::convert::ConvertResult> result, quint64 ticket);

 private:
  // Stops the run under way: once this returns, no worker reads the document's model.
  void stopReading();
  // Drops the run under way (its result will not be shown) and checks again on the next event-loop turn.
  void schedule();
  void clear();

  Document* doc_;
  DryRunSource dryRunSource_;
  std::shared_ptr<RevalidationRun> run_;
  QTimer* startTimer_;
  quint64 generation_ = 0;
  bool running_ = false;
  bool hasResult_ = false;
  QList<Problem> problems_;
  Timing timing_;
};

}  // namespace fb::ui
