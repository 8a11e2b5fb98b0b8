#pragma once
// Verify in the Convert dock: runs the source model and its conversion (the preview's model) on the same seeded
// inputs on FlowBridge's evaluator, off the UI thread, and pairs their values through the conversion's provenance.
// Afterwards every compared node has a relative error (the preview colours nodes by it), the first node whose
// outputs part from the source's is known on both sides, and both documents hold their run's values for the Tensor
// panel, paired value by value (the Tensor panel shows both sides of a pair). The pairing, the errors per node and
// the order are worked out off the UI thread too: on a 6,600-node model the UI thread only swaps them in.
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "eval/verify/value_diff.h"

namespace fb::ir {
class Node;
class Model;
class Value;
}  // namespace fb::ir

namespace fb::eval {
struct ModelComparison;
}

namespace fb::ui {

class Document;
struct RunValues;

class VerifyController : public QObject {
  Q_OBJECT
 public:
  VerifyController(Document* source, Document* preview, QObject* parent = nullptr);
  ~VerifyController() override;

  // Needs a model in both documents; does nothing while a verification runs.
  void start(quint64 seed = 0);
  void cancel();
  bool isRunning() const { return running_; }
  void wait();

  bool hasResult() const { return hasResult_; }
  // The largest relative error of a node's compared outputs; nullopt when none of them was compared.
  std::optional<double> previewNodeError(const ir::Node* n) const;
  std::optional<double> sourceNodeError(const ir::Node* n) const;
  // Relative errors above this count as divergent (the legend's slider; 1e-3 to start, the CLI's rtol).
  double threshold() const { return threshold_; }
  void setThreshold(double t);
  // The first node (in the preview's order) with an output above the threshold, and its source node.
  const ir::Node* firstDivergentPreviewNode() const;
  const ir::Node* firstDivergentSourceNode() const;
  int comparedCount() const { return int(previewErrors_.size()); }
  // One line for the status bar: how many values agreed, and where the first divergence is.
  QString summary() const;

  // A main-graph value of the source and the preview's value Verify compared it with.
  struct PairedValue {
    const ir::Value* source = nullptr;
    const ir::Value* result = nullptr;
    eval::ValueDiff diff;  // the result against the source
  };
  // The pair a value of either side belongs to; nullptr when Verify did not compare it (or has no result).
  const PairedValue* pairOf(const ir::Value* v) const;

 signals:
  void started();
  void progress(int percent, const QString& phase);
  void finished(bool ok, const QString& message);
  void thresholdChanged();

 private:
  struct Outcome;
  static void keepComparison(const eval::ModelComparison& comparison, const ir::Model& a, const ir::Model& b,
                             Outcome& out);
  void done();
  void drop();

  Document* source_;
  Document* preview_;
  std::shared_ptr<const ir::Model> sourceModel_, previewModel_;  // what the errors below belong to
  QHash<const ir::Node*, double> previewErrors_, sourceErrors_;
  QList<QPair<const ir::Node*, const ir::Node*>> order_;  // compared (preview, source) nodes in the preview's order
  std::vector<PairedValue> pairs_;
  QHash<const ir::Value*, int> pairIndex_;  // values of both sides -> pairs_
  double threshold_ = 1e-3;
  bool hasResult_ = false;
  bool running_ = false;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFutureWatcher<std::shared_ptr<Outcome>>* watcher_;
};

}  // namespace fb::ui
