#pragma once
// Compare with...: a second model (B) opened beside the open one (A) and paired with it by core/diff, off the UI
// thread with progress and cancel. Holds the diff, answers what each node and weight became on the other side, and
// keeps the selections of the two documents in step through the pairs.
#include <QColor>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>

#include "diff/model_diff.h"

namespace fb::ir {
class Model;
class Node;
class Tensor;
}  // namespace fb::ir

namespace fb::ui {

class Document;

class CompareController : public QObject {
  Q_OBJECT
 public:
  CompareController(Document* a, QObject* parent = nullptr);
  ~CompareController() override;

  Document* documentA() const { return a_; }
  Document* documentB() const { return b_; }
  // Reads `path` as B (in the background), then lays B out and pairs it with A at the same time.
  void compareWith(const QString& path);
  // Stops the opening or the matching in progress (B stays as it was).
  void cancel();
  // Drops B and the diff.
  void close();
  bool isRunning() const { return running_; }

  // The diff on screen, null while there is none.
  const diff::ModelDiff* result() const { return result_.get(); }
  const diff::NodeDiff* rowOf(const ir::Node* n) const { return rows_.value(n); }
  // The nodes on the other side a node pairs with: its partner, or for a node of a rewritten region that region's
  // nodes on the other side.
  QList<const ir::Node*> counterparts(const ir::Node* n) const;
  const diff::WeightDiff* weightOf(const ir::Tensor* t) const { return weights_.value(t); }
  // The mark of a node on its side: changed, only here, or none.
  QColor colourOf(const Document* side, uint64_t nodeId) const;
  // Whether `n` belongs to A's model (false: to B's, or to neither).
  bool isA(const ir::Node* n) const;

 signals:
  void started(const QString& path);
  void progress(int percent, const QString& phase);
  void finished();  // result() is the new diff
  void cancelled();
  void failed(const QString& message);
  void closed();
  void logMessage(const QString& text);

 private:
  void startMatch();
  void finishIfDone();
  // Drops what is running (a read, B's layout, the match) without a word.
  void stop();
  void index();
  void follow(Document* from, Document* to);

  Document* a_;
  Document* b_;
  std::shared_ptr<const diff::ModelDiff> result_;
  std::shared_ptr<const diff::ModelDiff> pending_;    // the match is done, B's layout may not be
  std::shared_ptr<const ir::Model> modelA_, modelB_;  // what the diff's pointers point into
  QHash<const ir::Node*, const diff::NodeDiff*> rows_;
  QHash<const ir::Node*, const diff::RegionDiff*> regions_;
  QHash<const ir::Node*, bool> sideA_;
  QHash<const ir::Tensor*, const diff::WeightDiff*> weights_;
  QHash<quint64, QColor> coloursA_, coloursB_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::shared_ptr<std::atomic<int>> percent_;
  QTimer progressTimer_;
  quint64 generation_ = 0;
  bool running_ = false;
  bool waitingForB_ = false;
  bool following_ = false;
};

}  // namespace fb::ui
