#pragma once
// Run > Run Model: runs the open model on FlowBridge's evaluator off the UI thread, on seeded random inputs or on
// the .npy / .pb files of a chosen folder, keeping every main-graph value so that the Tensor panel can show what
// any node computed. Progress per node; Cancel stops between nodes and keeps the previous values.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "ui/run_values.h"

namespace fb::ui {

class Document;

class ModelRunner : public QObject {
  Q_OBJECT
 public:
  explicit ModelRunner(Document* doc, QObject* parent = nullptr);
  ~ModelRunner() override;

  // Random inputs of the declared types from `seed` (symbolic dims 1).
  void runSeeded(quint64 seed = 0);
  // Inputs from `folder`: <input name>.npy, else input_<k>.pb (ONNX's test-data layout); inputs without a file are
  // seeded.
  void runWithInputsFrom(const QString& folder);
  void cancel();
  bool isRunning() const { return running_; }
  // Waits for a run in progress to end (tests, closing).
  void wait();

 signals:
  void started(int nodes);
  void progress(int done, int total);
  // ok: the values are on the Document; else `message` says why (one line, the node named).
  void finished(bool ok, const QString& message);

 private:
  struct Outcome {
    std::shared_ptr<const RunValues> values;
    QString error;
  };
  void start(const QString& folder, quint64 seed);
  void done();

  Document* doc_;
  QFutureWatcher<Outcome> watcher_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool running_ = false;
};

}  // namespace fb::ui
