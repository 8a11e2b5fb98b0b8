#pragma once
// The open model and everything the views share about it: the graphs on the breadcrumb, their layouts,
// the selection. Views observe its signals; they never change the model (FlowBridge's inspector is
// read-only). A model is opened from a file (open) or handed over in memory (show: a conversion, a pass step);
// either way shapes and layout run on a worker thread, and until that succeeds the previous model stays.
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "ui/model_loader.h"
#include "ui/run_values.h"

namespace fb::ui {

class Document : public QObject {
  Q_OBJECT
 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  // --- loading
  void open(const QString& path);
  // Shows a model that is already in memory, without a file: the same background shape inference and layout as
  // open(), with its progress, cancel and signals, and the same model object on screen (its node ids are the
  // ones the caller knows). `name` stands for it in messages; path() stays empty.
  // `collapse`: the blocks open as it says (a preview opens with its source's collapse state).
  void show(std::shared_ptr<const ir::Model> model, const QString& name,
            std::shared_ptr<const CollapseState> collapse = nullptr);
  // Which blocks of the main graph are open now (empty state when there is no graph).
  CollapseState collapseState() const;
  // Reads the file again (a shown model is shown again).
  void reload();
  void cancelLoad();
  // Drops the model (and any load in progress): views show nothing until the next open() or show().
  void close();
  bool isLoading() const { return loading_; }
  // The file the model was read from; empty for a shown model.
  QString path() const { return loaded_.path; }
  // What messages call the model: its path, or the name it was shown with.
  QString name() const { return loaded_.name; }
  QString lastError() const { return lastError_; }
  const LoadedModel& loaded() const { return loaded_; }

  const ir::Model* model() const { return loaded_.model.get(); }
  // True while the inferred types of a large model are computed after its first frame (typesChanged follows).
  bool typesPending() const { return typesPending_; }
  // Inferred type of a value by name (nullptr when unknown); falls back to what the file declares.
  const ir::TypeInfo* typeOf(const ir::Value* v) const;

  // --- values of the last run of this model (Run > Run Model); null when it has not run
  void setRunValues(std::shared_ptr<const RunValues> values);
  const RunValues* runValues() const { return runValues_.get(); }
  // The computed value of a main-graph value, or nullptr (not run, or a value of a body).
  const eval::Value* runValueOf(const ir::Value* v) const;

  // --- graphs on the breadcrumb (0 is the main graph)
  int levelCount() const { return int(levels_.size()); }
  const GraphLevel& level(int i) const { return levels_[i]; }
  const GraphLevel& currentLevel() const { return levels_.back(); }
  bool hasGraph() const { return !levels_.empty(); }
  void enterSubgraph(const ir::Graph* g, const QString& title);
  // Opens a body of an If/Loop/Scan node, titled as bodyTitle() names it.
  void enterBody(const ir::Graph* body);
  // "/If: else_branch": the node that owns a body and the attribute that holds it (empty for a graph no node owns).
  static QString bodyTitle(const ir::Graph* body);
  // One level up the breadcrumb; the node whose body was left is selected there. False on the main graph.
  bool goUp();
  // The body of the model-local function a node calls (nullptr when it calls an operator).
  const ir::Graph* functionBody(const ir::Node* n) const;
  void goToLevel(int i);

  // --- layout state of the current graph
  void toggleBlock(int block);
  void expandAll();
  void collapseAll();
  bool showInitializers() const { return settings_.layout.showInitializers; }
  void setShowInitializers(bool on);
  // Constants and weights listed inside the nodes that read them ("W 256×256", "axes = [1]").
  bool showFoldedValues() const { return settings_.layout.showFoldedValues; }
  void setShowFoldedValues(bool on);
  bool horizontal() const { return settings_.layout.leftToRight; }
  void setHorizontal(bool on);

  // --- selection (nodes of the current graph, or one value)
  const QList<const ir::Node*>& selectedNodes() const { return selectedNodes_; }
  const ir::Node* focusNode() const { return selectedNodes_.isEmpty() ? nullptr : selectedNodes_.first(); }
  const ir::Value* selectedValue() const { return selectedValue_; }
  // Selects nodes; the first is the one the Node panel shows. Expands blocks that hide it.
  // `bringIntoView`: views scroll to it (not for a click on the canvas, where it already is).
  void selectNodes(const QList<const ir::Node*>& nodes, bool bringIntoView = true);
  void selectNode(const ir::Node* n) { selectNodes(n ? QList<const ir::Node*>{n} : QList<const ir::Node*>{}); }
  // Selects a tensor: shows it in the Tensor panel and selects its producer (or first consumer). A tensor
  // without a drawn producer (an initializer, a folded constant) read by the current node keeps that node.
  void selectValue(const ir::Value* v);
  void clearSelection();
  // Any node of the model (subgraphs included) by its id; nullptr when there is none.
  const ir::Node* findNode(uint64_t id) const;
  // Selects a node wherever it is: opens the subgraph that holds it (through its owners, from the main graph)
  // when it is not in the current one, and expands the block that hides it.
  void showNode(const ir::Node* n);

 signals:
  void loadStarted(const QString& path);
  void loadProgress(int percent, const QString& phase);
  void loadFailed(const QString& path, const QString& message);
  void loadCancelled();
  void modelChanged();   // a new model, or none after close() (the levels were reset)
  void layoutChanged();  // the current level's placement changed (breadcrumb, expand, options)
  void typesChanged();   // inferred types arrived after the first frame (typeOf answers more now)
  void selectionChanged();
  void runValuesChanged();                 // a run's values arrived, or were dropped with the model
  void focusRequested(const ir::Node* n);  // views should bring this node into sight
  void logMessage(const QString& text);

 private:
  // Runs `job` on the background pool as the load of `name` (what open() and show() share).
  void startLoad(const QString& name, bool fromFile,
                 std::function<LoadedModel(const std::atomic<bool>& cancel, const LoadProgress& progress)> job);
  void finishLoad();
  void dropRunValues();
  void inferTypesInBackground();
  void waitForWorker();
  void relayoutCurrent();
  void revealInCurrent(const ir::Node* n);

  LoadSettings settings_;
  LoadedModel loaded_;
  std::vector<GraphLevel> levels_;
  std::shared_ptr<const RunValues> runValues_;
  QList<const ir::Node*> selectedNodes_;
  const ir::Value* selectedValue_ = nullptr;
  QString lastError_;

  QFutureWatcher<LoadedModel> watcher_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QString loadingName_;
  bool loadingFile_ = true;
  bool loading_ = false;
  bool typesPending_ = false;
  quint64 typesGeneration_ = 0;  // a result of an older model is dropped
};

}  // namespace fb::ui
