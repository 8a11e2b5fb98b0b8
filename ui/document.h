#pragma once
// The open model and everything the views share about it: the graphs on the breadcrumb, their layouts,
// the selection, and the edits made to it. Views observe its signals; only applyEdit() and the undo stack change
// the model, in place. A model is opened from a file (open) or handed over in memory (show: a conversion, a pass
// step); either way shapes and layout run on a worker thread, and until that succeeds the previous model stays.
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QFuture>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

#include "ui/model_loader.h"
#include "ui/run_values.h"

class QUndoStack;

namespace fb::edit {
struct Edit;
struct Undo;
}  // namespace fb::edit

namespace fb::ui {

class EditCommand;

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

  // --- editing (issue 28). A model opened from a file is editable; a shown one (a conversion's preview, a pass
  // step) is not: it belongs to whoever showed it, and the source document is the one to edit.
  bool isEditable() const {
    return loaded_.model && !loaded_.path.isEmpty() && loaded_.model->sourceFormat == "onnx" && !loading_;
  }
  // Applies `e` to the model in place as a command on undoStack() (its notes go to the Log). When it does not
  // apply (or the model is not editable): false, the one-line reason in `error`, nothing changed or pushed.
  bool applyEdit(const fb::edit::Edit& e, QString* error = nullptr);
  // Undo/redo of every applied edit; cleared when another model is opened. Its clean state is the saved file.
  QUndoStack* undoStack() const { return undoStack_; }
  bool isModified() const;
  // The edits on the stack up to its current index, oldest first: what File > Export Edits... writes.
  std::vector<fb::edit::Edit> appliedEdits() const;
  // After a Save As: the document is the file at `path` now, with its edits saved (the stack's clean state).
  void markSaved(const QString& path);
  // True while the signals of an edit, undo or redo are emitted (modelChanged then is the same model changed in
  // place: views keep where they are).
  bool isApplyingEdit() const { return applyingEdit_; }

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
  void modelChanged();  // a new model, none after close() (the levels were reset), or the model after an edit
  // Synchronously before an edit, undo or redo changes the model in place: whatever reads the model on another
  // thread must have stopped when the slots return (the document's own type inference is waited for).
  void aboutToEditModel();
  // After an edit, undo or redo changed the model (levels relaid out, selection mapped, after modelChanged).
  void modelEdited();
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
  // The edit machinery EditCommand runs: each one between beginEdit() and endEdit().
  friend class EditCommand;
  ir::Model& editableModel();
  void beginEdit();
  void endEdit();
  void logNotes(const std::vector<std::string>& notes);

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
  quint64 typesGeneration_ = 0;          // a result of an older model is dropped
  QFuture<InferredShapes> typesFuture_;  // waited for before an edit: it reads the model
  QUndoStack* undoStack_;
  bool applyingEdit_ = false;
  struct SelectionMemo;
  std::shared_ptr<SelectionMemo> memo_;  // the selection by ids and names across an edit
};

}  // namespace fb::ui
