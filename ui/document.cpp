#include "ui/document.h"
#include "ui/model_readers.h"
#include "ui/background_pool.h"

#include <QUndoStack>
#include <QtConcurrent/QtConcurrent>

#include "edit/apply_edits.h"
#include "edit/edit_script.h"
#include "eval/runtime/derived_copy_cache.h"
#include "ir/graph.h"
#include "ui/edit_command.h"
#include "ui/view_memo.h"
#include "util/error.h"

namespace fb::ui {

struct Document::SelectionMemo : ViewMemo {};

Document::Document(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this)) {
  connect(&watcher_, &QFutureWatcher<LoadedModel>::finished, this, &Document::finishLoad);
}

Document::~Document() {
  if (cancel_) *cancel_ = true;
  waitForWorker();
  // The commands' undo records belong to this model: they go before it.
  undoStack_->clear();
}

void Document::waitForWorker() {
  // QFuture rethrows the worker's exception from waitForFinished(); it was reported already.
  try {
    watcher_.waitForFinished();
  } catch (...) {
  }
}

void Document::open(const QString& path) {
  const LoadSettings settings = settings_;
  startLoad(path, true, [path, settings](const std::atomic<bool>& cancel, const LoadProgress& progress) {
    return loadForDisplay(path, settings, cancel, progress);
  });
}

void Document::show(std::shared_ptr<const ir::Model> model, const QString& name,
                    std::shared_ptr<const CollapseState> collapse) {
  if (!model) return close();
  LoadSettings settings = settings_;
  settings.collapse = std::move(collapse);
  startLoad(name, false, [model, name, settings](const std::atomic<bool>& cancel, const LoadProgress& progress) {
    LoadedModel out = prepareForDisplay(model, name, settings, cancel, progress, 5);
    if (out.model) progress(100, QObject::tr("done"));
    return out;
  });
}

void Document::startLoad(const QString& name, bool fromFile,
                         std::function<LoadedModel(const std::atomic<bool>&, const LoadProgress&)> job) {
  if (loading_) {
    *cancel_ = true;
    waitForWorker();  // the worker polls the flag; the old result is dropped in finishLoad
  }
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  loadingName_ = name;
  loadingFile_ = fromFile;
  loading_ = true;
  emit loadStarted(name);
  emit logMessage((fromFile ? tr("Opening %1") : tr("Showing %1")).arg(name));
  auto cancel = cancel_;
  QPointer<Document> self(this);
  watcher_.setFuture(
      QtConcurrent::run(backgroundPool(), [job = std::move(job), cancel, self](QPromise<LoadedModel>& promise) {
        auto progress = [self](int percent, const QString& phase) {
          QMetaObject::invokeMethod(
              self.data(),
              [self, percent, phase] {
                if (self) emit self->loadProgress(percent, phase);
              },
              Qt::QueuedConnection);
        };
        try {
          promise.addResult(job(*cancel, progress));
        } catch (...) {
          promise.setException(std::current_exception());
        }
      }));
}

CollapseState Document::collapseState() const {
  return hasGraph() ? collapseStateOf(*levels_.front().layout) : CollapseState{};
}

void Document::reload() {
  if (!loaded_.path.isEmpty())
    open(loaded_.path);
  else if (loaded_.model)
    show(loaded_.model, loaded_.name);
}

void Document::cancelLoad() {
  if (loading_ && cancel_) *cancel_ = true;
}

void Document::close() {
  if (loading_) {
    *cancel_ = true;
    waitForWorker();
    loading_ = false;  // finishLoad drops the result when it arrives
    emit loadCancelled();
  }
  undoStack_->clear();
  loaded_ = LoadedModel{};
  dropRunValues();
  ++typesGeneration_;
  typesPending_ = false;
  levels_.clear();
  selectedNodes_.clear();
  selectedValue_ = nullptr;
  lastError_.clear();
  emit modelChanged();
  emit layoutChanged();
  emit selectionChanged();
  eval::releaseOrphanedDerivedCopies();  // the closed model's evaluator copies, now that the views have let it go
}

void Document::finishLoad() {
  // A newer open() or show() may already be running: only the current future counts. close() abandons a load.
  if (!watcher_.isFinished() || !loading_) return;
  const QString name = loadingName_;
  loading_ = false;
  LoadedModel result;
  try {
    watcher_.waitForFinished();
    result = watcher_.result();
  } catch (const InputError& e) {
    lastError_ = QString::fromStdString(e.what());
    emit logMessage(tr("Error: %1: %2").arg(name, lastError_));
    emit loadFailed(name, lastError_);
    return;
  } catch (const std::exception& e) {
    lastError_ = QString::fromStdString(e.what());
    emit logMessage(tr("Error: %1: %2").arg(name, lastError_));
    emit loadFailed(name, lastError_);
    return;
  }
  if (!result.model) {
    emit logMessage((loadingFile_ ? tr("Cancelled opening %1") : tr("Cancelled showing %1")).arg(name));
    emit loadCancelled();
    return;
  }
  lastError_.clear();
  undoStack_->clear();  // the edits were made to the model that goes now
  loaded_ = std::move(result);
  dropRunValues();
  ++typesGeneration_;
  typesPending_ = loaded_.shapesDeferred;  // true from modelChanged on: the views know types will follow
  levels_.clear();
  levels_.push_back(loaded_.mainLevel);
  selectedNodes_.clear();
  selectedValue_ = nullptr;
  const auto& st = loaded_.mainLevel.placed.stats;
  const QString shapes =
      loaded_.shapesDeferred ? tr("after the first frame") : tr("%1 ms").arg(loaded_.shapesMs, 0, 'f', 0);
  const QString layout = tr("layout %1 ms (%2 dot calls, %3 layered)")
                             .arg(loaded_.layoutMs, 0, 'f', 0)
                             .arg(st.dotCalls)
                             .arg(st.layeredCalls);
  if (loaded_.path.isEmpty())
    emit logMessage(
        tr("Shown %1: %2 nodes; shapes %3, %4").arg(name).arg(loaded_.model->graph().nodeCount()).arg(shapes, layout));
  else
    emit logMessage(tr("Opened %1: %2 nodes; read %3 ms, shapes %4, %5")
                        .arg(name)
                        .arg(loaded_.model->graph().nodeCount())
                        .arg(loaded_.readMs, 0, 'f', 0)
                        .arg(shapes, layout));
  for (const auto& w : loaded_.shapeWarnings)
    emit logMessage(tr("Shape inference: %1%2")
                        .arg(w.node.empty() ? QString() : QString::fromStdString(w.node) + ": ",
                             QString::fromStdString(w.message)));
  emit modelChanged();
  emit layoutChanged();
  emit selectionChanged();
  eval::releaseOrphanedDerivedCopies();  // the previous model's, now that the views have let it go
  if (loaded_.shapesDeferred) inferTypesInBackground();
}

void Document::inferTypesInBackground() {
  typesPending_ = true;
  const quint64 generation = typesGeneration_;
  std::shared_ptr<const ir::Model> model = loaded_.model;
  auto* watcher = new QFutureWatcher<InferredShapes>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != typesGeneration_) return;  // another model (or none) since
    InferredShapes inferred = watcher->result();
    typesPending_ = false;
    loaded_.shapes = std::move(inferred.shapes);
    loaded_.shapeWarnings = std::move(inferred.warnings);
    loaded_.shapesMs = inferred.ms;
    emit logMessage(tr("Shapes of %1 inferred in %2 ms").arg(loaded_.name).arg(inferred.ms, 0, 'f', 0));
    for (const auto& w : loaded_.shapeWarnings)
      emit logMessage(tr("Shape inference: %1%2")
                          .arg(w.node.empty() ? QString() : QString::fromStdString(w.node) + ": ",
                               QString::fromStdString(w.message)));
    emit typesChanged();
    emit selectionChanged();  // the panels show the types now
  });
  // Only the model is shared with the worker: the document may close or open another one meanwhile.
  typesFuture_ = QtConcurrent::run(backgroundPool(), [model] { return inferShapesForDisplay(*model); });
  watcher->setFuture(typesFuture_);
}

const ir::TypeInfo* Document::typeOf(const ir::Value* v) const {
  if (!v) return nullptr;
  if (loaded_.shapes) {
    auto it = loaded_.shapes->find(v->name());
    if (it != loaded_.shapes->end()) return &it->second;
  }
  return v->type.kind == ir::TypeInfo::Kind::None ? nullptr : &v->type;
}

void Document::enterSubgraph(const ir::Graph* g, const QString& title) {
  if (!g || !hasGraph()) return;
  levels_.push_back(makeLevel(*g, title, settings_));
  selectedNodes_.clear();
  selectedValue_ = nullptr;
  emit layoutChanged();
  emit selectionChanged();
}

void Document::enterBody(const ir::Graph* body) {
  if (body) enterSubgraph(body, bodyTitle(body));
}

QString Document::bodyTitle(const ir::Graph* body) {
  const ir::Node* owner = body ? body->ownerNode() : nullptr;
  if (!owner) return {};
  const QString node = QString::fromStdString(owner->name.empty() ? owner->opType : owner->name);
  for (const auto& a : owner->attributes)
    for (const auto& g : a.graphs)
      if (g.get() == body) return node + QStringLiteral(": ") + QString::fromStdString(a.name);
  return node;
}

bool Document::goUp() {
  if (levelCount() < 2) return false;
  const ir::Node* owner = currentLevel().graph->ownerNode();
  goToLevel(levelCount() - 2);
  // Back where the body was entered from: its node selected, as the breadcrumb's way back in.
  if (owner && owner->graph() == currentLevel().graph) selectNode(owner);
  return true;
}

const ir::Graph* Document::functionBody(const ir::Node* n) const {
  if (!n || !model()) return nullptr;
  for (const auto& f : model()->functions)
    if (f.name == n->opType && f.domain == n->domain) return f.body.get();
  return nullptr;
}

void Document::goToLevel(int i) {
  if (i < 0 || i >= levelCount() - 1) return;
  levels_.resize(size_t(i) + 1);
  selectedNodes_.clear();
  selectedValue_ = nullptr;
  emit layoutChanged();
  emit selectionChanged();
}

void Document::relayoutCurrent() {
  if (!hasGraph()) return;
  auto& lvl = levels_.back();
  lvl.placed = lvl.layout->compute();
  emit layoutChanged();
}

void Document::toggleBlock(int block) {
  if (!hasGraph()) return;
  auto& lay = *levels_.back().layout;
  lay.setExpanded(block, !lay.isExpanded(block));
  relayoutCurrent();
  emit selectionChanged();  // items were rebuilt: views re-apply highlighting
}

void Document::expandAll() {
  if (!hasGraph()) return;
  auto& lay = *levels_.back().layout;
  // Laid out on the UI thread: beyond this many boxes, expand breadth first up to it instead.
  constexpr size_t kExpandAllLimit = 5000;
  if (lay.tree().nodes.size() <= kExpandAllLimit) {
    lay.expandAll();
  } else {
    lay.expandWithin(kExpandAllLimit);
    emit logMessage(tr("Expanded blocks up to %1 boxes; double-click a block to open it").arg(kExpandAllLimit));
  }
  relayoutCurrent();
  emit selectionChanged();
}

void Document::collapseAll() {
  if (!hasGraph()) return;
  levels_.back().layout->expandWithin(0);
  relayoutCurrent();
  emit selectionChanged();
}

void Document::setShowInitializers(bool on) {
  if (settings_.layout.showInitializers == on) return;
  settings_.layout.showInitializers = on;
  for (auto& lvl : levels_) {
    lvl.layout->setOptions(settings_.layout);
    lvl.placed = lvl.layout->compute();
  }
  emit layoutChanged();
  emit selectionChanged();
}

void Document::setShowFoldedValues(bool on) {
  if (settings_.layout.showFoldedValues == on) return;
  settings_.layout.showFoldedValues = on;
  for (auto& lvl : levels_) {
    lvl.layout->setOptions(settings_.layout);
    lvl.placed = lvl.layout->compute();
  }
  emit layoutChanged();
  emit selectionChanged();
}

void Document::setHorizontal(bool on) {
  if (settings_.layout.leftToRight == on) return;
  settings_.layout.leftToRight = on;
  for (auto& lvl : levels_) {
    lvl.layout->setOptions(settings_.layout);
    lvl.placed = lvl.layout->compute();
  }
  emit layoutChanged();
  emit selectionChanged();
}

void Document::revealInCurrent(const ir::Node* n) {
  auto& lay = *levels_.back().layout;
  if (lay.hidingBlock(n) >= 0) {
    lay.reveal(n);
    relayoutCurrent();
  }
}

void Document::selectNodes(const QList<const ir::Node*>& nodes, bool bringIntoView) {
  if (!hasGraph()) return;
  selectedNodes_.clear();
  for (const ir::Node* n : nodes)
    if (n && n->graph() == currentLevel().graph) selectedNodes_.append(n);
  if (selectedNodes_.size() == 1) revealInCurrent(selectedNodes_.first());
  selectedValue_ = nullptr;
  emit selectionChanged();
  if (!selectedNodes_.isEmpty() && bringIntoView) emit focusRequested(selectedNodes_.first());
}

void Document::selectValue(const ir::Value* v) {
  if (!hasGraph() || !v) return;
  const auto& folding = currentLevel().layout->folding();
  const bool drawnProducer = v->producer() && !folding.folded.count(v->producer());
  if (!drawnProducer && focusNode()) {
    for (const auto& use : v->uses())
      if (folding.shownAs(use.node) == focusNode()) {
        selectedValue_ = v;
        emit selectionChanged();
        return;
      }
  }
  const ir::Node* n = v->producer();
  if (!n && !v->uses().empty()) n = v->uses().front().node;
  selectedNodes_.clear();
  if (n && n->graph() == currentLevel().graph) {
    selectedNodes_.append(n);
    revealInCurrent(n);
  }
  selectedValue_ = v;
  emit selectionChanged();
  if (n) emit focusRequested(n);
}

void Document::clearSelection() {
  selectedNodes_.clear();
  selectedValue_ = nullptr;
  emit selectionChanged();
}

const ir::Node* Document::findNode(uint64_t id) const {
  if (!loaded_.nodes) return nullptr;
  auto it = loaded_.nodes->find(id);
  return it == loaded_.nodes->end() ? nullptr : it->second;
}

void Document::showNode(const ir::Node* n) {
  if (!n || !hasGraph()) return;
  if (n->graph() != currentLevel().graph) {
    // The graphs from the main graph down to the node's, each entered through the node that owns it.
    std::vector<const ir::Graph*> chain;
    for (const ir::Graph* g = n->graph(); g && g->ownerNode(); g = g->parent()) chain.insert(chain.begin(), g);
    if (levelCount() > 1) goToLevel(0);
    for (const ir::Graph* g : chain) enterBody(g);
    if (currentLevel().graph != n->graph()) return;  // not reachable from the main graph
  }
  selectNode(n);
}

}  // namespace fb::ui

namespace fb::ui {

void Document::setRunValues(std::shared_ptr<const RunValues> values) {
  runValues_ = std::move(values);
  emit runValuesChanged();
}

void Document::dropRunValues() {
  if (!runValues_) return;
  runValues_.reset();
  emit runValuesChanged();
}

const eval::Value* Document::runValueOf(const ir::Value* v) const {
  if (!runValues_ || !v || !model() || v->graph() != &model()->graph()) return nullptr;
  auto it = runValues_->byName.find(v->name());
  return it == runValues_->byName.end() ? nullptr : &it->second;
}

}  // namespace fb::ui

namespace fb::ui {

bool Document::isModified() const { return !undoStack_->isClean(); }

std::vector<edit::Edit> Document::appliedEdits() const {
  std::vector<edit::Edit> out;
  for (int i = 0; i < undoStack_->index(); ++i)
    if (auto* c = dynamic_cast<const EditCommand*>(undoStack_->command(i))) out.push_back(c->edit());
  return out;
}

void Document::markSaved(const QString& path) {
  if (!path.isEmpty() && path != loaded_.path) {
    loaded_.path = path;
    loaded_.name = path;
  }
  undoStack_->setClean();
}

bool Document::applyEdit(const edit::Edit& e, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (!loaded_.model) return fail(tr("no model is open"));
  if (loading_) return fail(tr("a model is being opened"));
  if (loaded_.path.isEmpty())
    return fail(tr("%1 is shown from memory (a conversion or a pass step): edit the source model").arg(name()));
  if (loaded_.model->sourceFormat != "onnx")
    return fail(tr("only ONNX models are edited; convert this %1 model to ONNX first")
                    .arg(QString::fromStdString(loaded_.model->sourceFormat)));
  // The check reads the model only; the type inference still running may read it too.
  if (auto why = edit::checkEdit(*loaded_.model, e))
    return fail(QString::fromStdString(edit::formatEdit(e)) + QStringLiteral(": ") + QString::fromStdString(*why));
  beginEdit();
  edit::Applied applied;
  try {
    applied = edit::applyEdit(editableModel(), e);
  } catch (const std::exception& ex) {
    // applyEdit is all or nothing: the model is as it was (the views are refreshed all the same).
    endEdit();
    return fail(QString::fromStdString(ex.what()));
  }
  emit logMessage(tr("Edit: %1").arg(EditCommand::textOf(e)));
  logNotes(applied.notes);
  undoStack_->push(new EditCommand(this, e, std::move(applied.undo)));
  endEdit();
  return true;
}

ir::Model& Document::editableModel() {
  // The document made this model (open() reads a file into a new one; shown models are not edited), so it is
  // not const itself: only the pointer the views share is.
  return *std::const_pointer_cast<ir::Model>(loaded_.model);
}

void Document::logNotes(const std::vector<std::string>& notes) {
  for (const auto& n : notes) emit logMessage(QStringLiteral("  ") + QString::fromStdString(n));
}

void Document::beginEdit() {
  emit aboutToEditModel();
  // The document's own reader (shapes for display run on a copy of the graph's structure made from the model), and
  // the features' (dry run, conversion, run, verify, preview pairing).
  typesFuture_.waitForFinished();
  waitForModelReaders(this);
  std::vector<const ir::Graph*> graphs;
  for (const auto& lvl : levels_) graphs.push_back(lvl.graph);
  memo_ = std::make_shared<SelectionMemo>(SelectionMemo{ViewMemo::of(graphs, selectedNodes_, selectedValue_)});
  // Nothing on screen may point into the model while it changes (removed nodes are freed).
  selectedNodes_.clear();
  selectedValue_ = nullptr;
}

void Document::endEdit() {
  applyingEdit_ = true;
  const ir::Model& m = *loaded_.model;
  loaded_.nodes = std::make_shared<const NodeIndex>(indexNodes(m.graph()));
  // Run values and inferred shapes are of the model before the edit; the shapes are kept (by name) until new ones
  // come, the run values go.
  dropRunValues();
  ++typesGeneration_;
  // The breadcrumb's bodies that still exist, each laid out again; the main graph keeps its open blocks.
  const std::vector<const ir::Graph*> graphs = memo_->levelsIn(m);
  std::vector<GraphLevel> levels;
  for (size_t i = 0; i < graphs.size(); ++i) {
    const LoadSettings& settings = settings_;
    GraphLevel level;
    level.graph = graphs[i];
    level.title = i == 0 ? tr("main graph") : bodyTitle(graphs[i]);
    level.layout = std::make_shared<layout::HierarchicalLayout>(*graphs[i], settings.layout);
    // The blocks open as they were (by path and provenance: the edited graph is another version of the same one).
    if (i < levels_.size() && levels_[i].layout)
      applyCollapseState(*level.layout, collapseStateOf(*levels_[i].layout));
    else
      level.layout->expandWithin(settings.maxVisibleBoxes);
    level.placed = level.layout->compute();
    levels.push_back(std::move(level));
  }
  levels_ = std::move(levels);
  loaded_.mainLevel = levels_.front();
  selectedNodes_ = memo_->selectedIn(*levels_.back().graph);
  selectedValue_ = memo_->valueIn(*levels_.back().graph);
  memo_.reset();
  // The scene first: its items point at the nodes and the layouts that were replaced.
  emit layoutChanged();
  emit modelChanged();
  emit modelEdited();
  emit selectionChanged();
  applyingEdit_ = false;
  inferTypesInBackground();
}

}  // namespace fb::ui
