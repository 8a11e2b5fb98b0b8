#pragma once
// Export Image without freezing the window: the scene is recorded once on the UI thread (a QPicture: the items'
// paint calls, no pixels), then a worker rasterises it strip by strip (PNG) or replays it into an SVG generator,
// encodes, and writes atomically beside the target, reporting progress; Cancel stops it between strips and leaves
// nothing behind. "Plain" leaves out the selection highlight and the conversion marks (halos, badges).
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

namespace fb::ui {

class Document;
class GraphScene;

struct SceneExportOptions {
  bool plain = false;      // without selection, halos and badges
  QString title;           // SVG title
  QString protectedInput;  // never written over (the model)
};

class SceneExporter : public QObject {
  Q_OBJECT
 public:
  SceneExporter(Document* doc, GraphScene* scene, QObject* parent = nullptr);
  ~SceneExporter() override;

  // Starts an export; false (with failed()) when one is running or the scene is empty. Ends with finished() or
  // failed() (also after cancel()).
  bool start(const QString& path, const SceneExportOptions& options);
  void cancel();
  bool isRunning() const { return running_; }
  // Runs an export to the end (for callers that need the outcome now): true when written.
  bool run(const QString& path, const SceneExportOptions& options, QString* error = nullptr);

 signals:
  void progress(int percent);
  void finished(const QString& path, qint64 bytes);
  void failed(const QString& path, const QString& message);

 private:
  Document* doc_;
  GraphScene* scene_;
  QFutureWatcher<QString> watcher_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QString path_;
  bool running_ = false;
};

}  // namespace fb::ui
