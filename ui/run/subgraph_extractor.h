#pragma once
// Edit > Extract Subgraph... (and the graph's context menu): writes the selected nodes as a reproducer of their own
// (core's eval/verify/reproducer.h): DIR/model.onnx cut at the selection's ends (selection_ends.h), and
// DIR/test_data_set_0 with its inputs and expected outputs from a run of the whole model, on the inputs of the
// last run when there was one, else on seeded inputs (seed 0). The run and the writing happen off the UI thread.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "ui/save_paths.h"

class QAction;
class QWidget;

namespace fb::ui {

class Document;

class SubgraphExtractor : public QObject {
  Q_OBJECT
 public:
  SubgraphExtractor(Document* doc, QWidget* dialogParent, QObject* parent = nullptr);
  ~SubgraphExtractor() override;

  // Enabled while nodes of the main graph are selected and nothing is being extracted; asks for the folder.
  QAction* action() const { return action_; }
  // Replaces the folder dialog (tests).
  void setFolderChooser(ChooseFolder chooser) { chooseFolder_ = std::move(chooser); }
  // Extracts the selection into `folder` (created when missing). False when there is nothing to extract.
  bool start(const QString& folder);
  bool isRunning() const { return running_; }
  void cancel();
  void wait();

 signals:
  void started(const QString& folder);
  // `message`: one line, what was written (ok) or why nothing was (the file and the problem).
  void finished(bool ok, const QString& message);

 private:
  struct Outcome {
    QString message;
    bool ok = false;
  };
  void updateEnabled();
  void done();

  Document* doc_;
  QWidget* dialogParent_;
  QAction* action_;
  ChooseFolder chooseFolder_ = folderDialogChooser();
  QFutureWatcher<Outcome> watcher_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool running_ = false;
};

}  // namespace fb::ui
