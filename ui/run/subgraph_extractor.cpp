#include "ui/run/subgraph_extractor.h"
#include "ui/model_readers.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QtConcurrent>

#include "eval/runtime/run.h"
#include "eval/verify/reproducer.h"
#include "eval/verify/seeded_inputs.h"
#include "eval/verify/selection_ends.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ui/background_pool.h"
#include "ui/document.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::ui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(printable(s)); }

}  // namespace

SubgraphExtractor::SubgraphExtractor(Document* doc, QWidget* dialogParent, QObject* parent)
    : QObject(parent), doc_(doc), dialogParent_(dialogParent), action_(new QAction(tr("E&xtract Subgraph..."), this)) {
  action_->setObjectName(QStringLiteral("extractSubgraph"));
  action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
  action_->setToolTip(
      tr("Write the selected nodes as a model of their own, with inputs and expected outputs from a "
         "run (ONNX's test_data_set_0 layout)"));
  action_->setEnabled(false);
  connect(action_, &QAction::triggered, this, [this] {
    const ir::Node* first = doc_->focusNode();
    if (!first) return;
    const QString suggested = suggestedFolderPath(
        doc_->path().isEmpty() ? doc_->name() : doc_->path(),
        QString::fromStdString(first->name.empty() ? first->opType : first->name) + QStringLiteral("_subgraph"));
    const QString folder = chooseFolder_(dialogParent_, tr("Extract subgraph into folder"), suggested);
    if (!folder.isEmpty()) start(folder);
  });
  connect(doc_, &Document::selectionChanged, this, &SubgraphExtractor::updateEnabled);
  connect(doc_, &Document::modelChanged, this, &SubgraphExtractor::updateEnabled);
  connect(doc_, &Document::layoutChanged, this, &SubgraphExtractor::updateEnabled);  // the breadcrumb moved
  connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &SubgraphExtractor::done);
}

SubgraphExtractor::~SubgraphExtractor() { wait(); }

void SubgraphExtractor::updateEnabled() {
  // Only the main graph's nodes: a body's values are not the model's to cut at.
  action_->setEnabled(!running_ && doc_->model() && doc_->levelCount() == 1 && !doc_->selectedNodes().isEmpty());
}

void SubgraphExtractor::cancel() {
  if (cancel_) *cancel_ = true;
}

void SubgraphExtractor::wait() {
  if (!running_) return;
  watcher_.waitForFinished();
}

bool SubgraphExtractor::start(const QString& folder) {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (running_ || !model || doc_->levelCount() != 1 || doc_->selectedNodes().isEmpty() || folder.isEmpty())
    return false;
  const eval::SelectionEnds ends = eval::endsOfSelection({doc_->selectedNodes().begin(), doc_->selectedNodes().end()});
  // The inputs of the last run when there was one (the values the user looked at), else seeded ones.
  std::map<std::string, eval::Value> given;
  if (const RunValues* run = doc_->runValues())
    for (const std::string& name : eval::requiredInputs(*model))
      if (auto it = run->byName.find(name); it != run->byName.end()) given.emplace(name, it->second);
  const QString inputsFrom = given.empty() ? tr("seeded inputs (seed 0)") : tr("the inputs of the last run");
  running_ = true;
  updateEnabled();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto cancel = cancel_;
  const QString dir = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
  const QString name = doc_->name();
  emit started(dir);
  watcher_.setFuture(QtConcurrent::run(backgroundPool(), [model, ends, given = std::move(given), dir, name, inputsFrom,
                                                          cancel] {
    Outcome out;
    const std::string modelPath = QDir(dir).filePath(QStringLiteral("model.onnx")).toStdString();
    try {
      if (ends.outputs.empty()) throw std::invalid_argument("the selection computes nothing that is read outside it");
      std::vector<std::string> keep = ends.outputs;
      keep.insert(keep.end(), ends.inputs.begin(), ends.inputs.end());
      auto m = model->clone();  // typed from the run below: the document's model stays as it is
      std::map<std::string, eval::Value> inputs =
          given.empty() ? eval::makeInputs(*m, {}, {}, 0).values : std::move(given);
      eval::RunOptions o;
      o.cancel = cancel.get();
      const auto values = eval::runKeeping(*m, std::move(inputs), keep, o);
      eval::typeFromRun(*m, keep, values);
      auto cut = eval::cutReproducer(*m, ends.outputs, ends.inputs, modelPath);
      const size_t nodes = cut->graph().nodeCount();
      const auto files = eval::writeReproducer(*m, *cut, values, modelPath, dir.toStdString());
      out.ok = true;
      out.message = QObject::tr(
                        "Extracted %1 of %2 nodes of %3 into %4 (model.onnx: %5 inputs, %6 outputs; "
                        "test_data_set_0: %7 .pb files from a run on %8)")
                        .arg(nodes)
                        .arg(model->graph().nodeCount())
                        .arg(QFileInfo(name).fileName(), dir)
                        .arg(cut->graph().inputs().size())
                        .arg(cut->graph().outputs().size())
                        .arg(files.pbFiles)
                        .arg(inputsFrom);
    } catch (const eval::RunError& e) {
      out.message = e.kind() == eval::RunError::Kind::Cancelled
                        ? QObject::tr("cancelled")
                        : name + QStringLiteral(": ") + text(e.node().empty() ? e.what() : e.node() + ": " + e.what());
    } catch (const eval::ReproducerCheckFailed& e) {
      out.message = text(e.lines().empty() ? modelPath + ": " + e.what() : e.lines().front());
    } catch (const InputError& e) {
      out.message = text((e.file().empty() ? name.toStdString() : e.file()) + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      out.message = name + QStringLiteral(": ") + text(e.what());
    } catch (const std::exception& e) {
      out.message = text(e.what());  // OutputError names the path
    }
    return out;
  }));
  addModelReader(doc_, QFuture<void>(watcher_.future()));  // it reads the model: an edit waits for it
  return true;
}

void SubgraphExtractor::done() {
  running_ = false;
  updateEnabled();
  const Outcome out = watcher_.result();
  emit doc_->logMessage(out.ok ? out.message : tr("Error: Extract Subgraph: %1").arg(out.message));
  emit finished(out.ok, out.message);
}

}  // namespace fb::ui
