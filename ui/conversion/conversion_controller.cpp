#include "ui/conversion/conversion_controller.h"
#include "ui/model_readers.h"
#include "ui/background_pool.h"

#include <QFileInfo>
#include <QPointer>
#include <algorithm>
#include <QtConcurrent>
#include <functional>
#include <unordered_map>

#include "formats/onnx/onnx_writer.h"
#include "util/mapped_file.h"
#include "ui/conversion/code_target.h"
#include "ui/conversion/conversion_summary.h"
#include "ui/conversion/model_diff.h"
#include "ui/document.h"
#include "util/failure_text.h"

namespace fb::ui {
namespace {

convert::ConvertOptions optionsFor(const ir::Model& model, int opset, const std::optional<QStringList>& passes) {
  convert::ConvertOptions o;
  o.direction = convert::directionFor(model);
  o.targetOpset = opset;
  o.keepUnconverted = true;  // the preview shows what can be converted even when some nodes cannot
  if (passes)
    o.passes = convert::parsePassList(passes->join(QLatin1Char(',')).toStdString());  // as --passes names them
  return o;
}

}  // namespace

ConversionController::ConversionController(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {
  connect(doc_, &Document::modelChanged, this, [this] {
    // The same model changed in place by an edit: the target the user picked stays, and modelEdited (below) and
    // the revalidation take it from here.
    if (doc_->isApplyingEdit()) return;
    facts_.reset();
    factsModel_ = nullptr;
    invalidate();
    if (const ir::Model* m = doc_->model()) {
      const int target = int(convert::defaultTargetOpset(*m));
      if (target != opset_) {
        opset_ = target;
        emit targetOpsetChanged(opset_);
      }
    }
    if (codeTarget_ && doc_->model() && !canGenerateCode()) {
      codeTarget_.reset();
      emit codeTargetChanged();
    }
    // A large graph's display types are being inferred after its first frame: the dry run (whose shape facts
    // hold another structural copy of the model) follows them instead of running beside them.
    refreshAfterTypes_ = doc_->typesPending();
    if (!refreshAfterTypes_) refresh();
  });
  // An edit changes the model in place: no worker may read it meanwhile, and the facts and the conversion were of
  // the model before it. The dry run after it comes from the revalidation (dryRunJob, adoptDryRun).
  // The document waits for the dry runs and conversions registered as model readers before an edit.
  connect(doc_, &Document::aboutToEditModel, this, [this] {
    ++dryGeneration_;  // a finished dry run whose result is still queued is of the model before the edit
    ++modelEdits_;
  });
  connect(doc_, &Document::modelEdited, this, [this] {
    // Freed on a worker: a 100k-node graph's facts took 0.1-0.3 s to free, on the UI thread between edit and redraw.
    if (facts_) (void)QtConcurrent::run(backgroundPool(), [facts = std::move(facts_)] {});
    facts_.reset();
    factsModel_ = nullptr;
    invalidate();
  });
  connect(doc_, &Document::typesChanged, this, [this] {
    if (!refreshAfterTypes_) return;
    refreshAfterTypes_ = false;
    refresh();
  });
}

ConversionController::~ConversionController() = default;

void ConversionController::setTargetOpset(int opset) {
  if (opset == opset_) return;
  opset_ = opset;
  invalidate();
  refresh();
}

void ConversionController::setPasses(const std::optional<QStringList>& passes) {
  if (passes == passes_) return;
  passes_ = passes;
  invalidate();
  refresh();
}

void ConversionController::invalidate() {
  const bool had = converted_ || conversion_ || converting_ || code_;
  conversion_.reset();
  code_.reset();
  converted_.reset();
  convertedFrom_.reset();
  sourceDiff_.clear();
  previewDiff_.clear();
  ++convertGeneration_;  // a run under way was started with the old settings: drop its result
  converting_ = false;
  if (had) emit conversionInvalidated();
}

QString ConversionController::sourceName() const {
  return doc_->path().isEmpty() ? tr("the model") : QFileInfo(doc_->path()).fileName();
}

QString ConversionController::passesName() const {
  if (!passes_) return tr("default passes");
  if (passes_->isEmpty()) return tr("no passes");
  return tr("passes %1").arg(passes_->join(QStringLiteral(", ")));
}

std::optional<convert::NodeStatus> ConversionController::statusOf(uint64_t nodeId) const {
  auto it = statuses_.constFind(nodeId);
  if (it == statuses_.constEnd()) return std::nullopt;
  return *it;
}

convert::ConvertOptions ConversionController::options() const {
  const ir::Model* model = doc_->model();
  if (!model) return {};
  auto o = optionsFor(*model, opset_, passes_);
  if (factsModel_ == model) o.facts = facts_;
  return o;
}

const convert::NodeReport* ConversionController::reportOf(uint64_t nodeId) const {
  auto it = reportIndex_.constFind(nodeId);
  return it == reportIndex_.constEnd() || !dryRun_ ? nullptr : &dryRun_->nodes[size_t(*it)];
}

void ConversionController::refresh() {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  const quint64 generation = ++dryGeneration_;
  if (!model) {
    dryRun_.reset();
    statuses_.clear();
    reportIndex_.clear();
    emit dryRunFinished();
    return;
  }
  auto options = optionsFor(*model, opset_, passes_);
  if (factsModel_ == model.get()) options.facts = facts_;
  using Outcome = std::pair<std::shared_ptr<const convert::ConvertResult>, std::shared_ptr<const schema::ShapeFacts>>;
  auto future = QtConcurrent::run(backgroundPool(), [model, options, code = codeTarget_]() mutable -> Outcome {
    try {
      if (!options.facts) options.facts = std::make_shared<const schema::ShapeFacts>(schema::inferShapeFacts(*model));
      if (code)
        return {std::make_shared<convert::ConvertResult>(dryRunCode(*model, *code, options.facts)), options.facts};
      return {std::make_shared<convert::ConvertResult>(convert::dryRun(*model, options)), options.facts};
    } catch (const std::exception& e) {
      auto r = std::make_shared<convert::ConvertResult>();
      r->error = failureText(e, "checking the conversion");
      return {r, nullptr};
    }
  });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, model, edits = modelEdits_] {
    watcher->deleteLater();
    Outcome out = watcher->result();
    if (out.second && doc_->loaded().model == model && edits == modelEdits_) {
      facts_ = out.second;
      factsModel_ = model.get();
    }
    if (generation != dryGeneration_) return;  // a newer request is on its way
    showDryRun(out.first);
  });
  watcher->setFuture(future);
  addModelReader(doc_, QFuture<void>(future));  // the dry run reads the model: an edit waits for it
}

void ConversionController::showDryRun(std::shared_ptr<const convert::ConvertResult> result) {
  dryRun_ = std::move(result);
  statuses_.clear();
  reportIndex_.clear();
  for (size_t i = 0; i < dryRun_->nodes.size(); ++i) {
    statuses_.insert(dryRun_->nodes[i].nodeId, dryRun_->nodes[i].status);
    reportIndex_.insert(dryRun_->nodes[i].nodeId, int(i));
  }
  emit dryRunFinished();
}

std::pair<quint64, std::function<std::shared_ptr<const convert::ConvertResult>(const ir::Model&)>>
ConversionController::dryRunJob() {
  const quint64 ticket = ++dryGeneration_;  // a dry run of this controller still under way is older
  const ir::Model* model = doc_->model();
  if (!model) return {ticket, {}};
  auto options = optionsFor(*model, opset_, passes_);  // no facts: those of the model before the edit are stale
  return {ticket, [options, code = codeTarget_](const ir::Model& m) mutable {
            options.facts = std::make_shared<const schema::ShapeFacts>(schema::inferShapeFacts(m));
            if (code) return std::make_shared<const convert::ConvertResult>(dryRunCode(m, *code, options.facts));
            return std::make_shared<const convert::ConvertResult>(convert::dryRun(m, options));
          }};
}

void ConversionController::adoptDryRun(std::shared_ptr<const convert::ConvertResult> result, quint64 ticket) {
  if (ticket != dryGeneration_ || !result) return;  // the settings changed since the job was made
  showDryRun(std::move(result));
}

void ConversionController::convert() {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (!model) return;
  if (codeTarget_) return generateCode();
  const quint64 generation = ++convertGeneration_;
  converting_ = true;
  emit conversionStarted();
  auto options = optionsFor(*model, opset_, passes_);
  if (factsModel_ == model.get()) options.facts = facts_;
  struct Outcome {
    std::shared_ptr<convert::ConvertResult> result;
    QString error;
    ModelDiff diff;  // by provenance, on the worker too: at 100k nodes it held the UI thread for 0.25 s
  };
  auto future = QtConcurrent::run(backgroundPool(), [model, options]() -> Outcome {
    try {
      const uint64_t faultsBefore = mappedFaultCount();
      auto result = std::make_shared<convert::ConvertResult>(convert::convertModel(*model, options));
      throwIfMappedFileDamagedSince(faultsBefore);  // weights read as zeros from a file truncated since opening
      ModelDiff diff;
      if (result->model) diff = diffGraphs(model->graph(), result->model->graph());
      return {result, {}, std::move(diff)};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromStdString(failureText(e, "converting the model")), {}};
    }
  });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, model] {
    watcher->deleteLater();
    if (generation != convertGeneration_) return;  // cancelled, or superseded
    converting_ = false;
    Outcome out = watcher->result();
    if (!out.result || !out.result->model) {
      const QString why = !out.result                 ? out.error
                          : out.result->error.empty() ? tr("the conversion produced no model")
                                                      : QString::fromStdString(out.result->error);
      emit logMessage(tr("Error: converting %1 to opset %2 failed: %3").arg(sourceName()).arg(opset_).arg(why));
      emit conversionFailed(why);
      return;
    }
    // The result keeps its model (its report says what was built); converted_ shares ownership of the result.
    converted_ = std::shared_ptr<const ir::Model>(out.result, out.result->model.get());
    convertedFrom_ = model;
    conversion_ = out.result;
    sourceDiff_ = std::move(out.diff.before);
    previewDiff_ = std::move(out.diff.after);
    const auto& r = *conversion_;
    QString line = tr("Converted %1 (%2) from opset %3 to %4 with %5: %6; %7 -> %8 nodes; %9 ms")
                       .arg(sourceName(), QString::fromStdString(r.direction))
                       .arg(r.sourceOpset)
                       .arg(r.targetOpset)
                       .arg(passesName(), statusCounts(r))
                       .arg(nodeTotal(r.opsBefore))
                       .arg(nodeTotal(r.opsAfter))
                       .arg(r.totalMs, 0, 'f', 0);
    const QString problems = problemsOf(r);
    line += problems.isEmpty() ? tr("; check passed") : tr("; incomplete: %1").arg(problems);
    emit logMessage(line);
    logPassWarnings(r);
    emit conversionFinished();
  });
  watcher->setFuture(future);
  addModelReader(doc_, QFuture<void>(future));
}

void ConversionController::logPassWarnings(const convert::ConvertResult& r) {
  // What the passes left as it was and why (nodes over the constant-folding budget): the first few, then a count;
  // the saved report lists them all.
  constexpr int kShown = 10;
  int total = 0;
  for (const auto& p : r.passStats.perPass)
    for (const auto& w : p.total.warnings)
      if (total++ < kShown)
        emit logMessage(tr("Passes: %1: %2").arg(QString::fromStdString(p.name), QString::fromStdString(w)));
  if (total > kShown)
    emit logMessage(tr("Passes: %1 more nodes left as they were (the report lists them all)").arg(total - kShown));
}

void ConversionController::cancel() {
  if (!converting_) return;
  ++convertGeneration_;
  converting_ = false;
  emit logMessage(tr("Cancelled converting %1 to %2").arg(sourceName(), targetDescription()));
  emit conversionFailed(tr("cancelled"));
}

QString ConversionController::previewName() const { return tr("%1 at %2").arg(sourceName(), targetDescription()); }

void ConversionController::save(const QString& path, bool externalData, IfIncomplete ifIncomplete) {
  if (codeTarget_) return saveCode(path, ifIncomplete);  // `path` is the folder to write
  std::shared_ptr<const ir::Model> model = converted_;
  std::shared_ptr<const convert::ConvertResult> result = conversion_;
  auto refuse = [this, &path](const QString& why) {
    emit logMessage(tr("Not saved: %1: %2").arg(path, why));
    emit saveFailed(why);
  };
  if (!model || !result) {
    refuse(tr("nothing converted at the current settings (run Preview conversion first)"));
    return;
  }
  const QString problems = problemsOf(*result);
  if (!problems.isEmpty() && ifIncomplete == IfIncomplete::Refuse) {
    refuse(tr("the conversion is incomplete: %1").arg(problems));
    return;
  }
  // What the file holds, said when it is written.
  const QString what = tr("%1 converted to opset %2 with %3, %4 nodes (%5)%6")
                           .arg(sourceName())
                           .arg(result->targetOpset)
                           .arg(passesName())
                           .arg(nodeTotal(result->opsAfter))
                           .arg(statusCounts(*result))
                           .arg(problems.isEmpty() ? QString() : tr("; INCOMPLETE: %1").arg(problems));
  auto future = QtConcurrent::run(backgroundPool(), [model, path, externalData]() -> std::pair<bool, QString> {
    try {
      onnxfmt::WriteOptions opts;
      if (externalData) opts.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
      auto r = onnxfmt::writeOnnxFile(*model, path.toStdString(), opts);
      QString summary = QObject::tr("%1 bytes").arg(r.modelBytes);
      if (!r.sideFilePath.empty())
        summary += QObject::tr(" + %1 bytes in %2").arg(r.sideFileBytes).arg(QString::fromStdString(r.sideFilePath));
      return {true, summary};
    } catch (const std::exception& e) {
      return {false, QString::fromStdString(failureText(e, "writing " + path.toStdString()))};
    }
  });
  auto* watcher = new QFutureWatcher<std::pair<bool, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path, what] {
    watcher->deleteLater();
    auto [ok, text] = watcher->result();
    if (ok) {
      emit logMessage(tr("Saved %1: %2; %3").arg(path, what, text));
      emit saved(path, text);
    } else {
      emit logMessage(tr("Error: cannot save %1: %2").arg(path, text));
      emit saveFailed(text);
    }
  });
  watcher->setFuture(future);
}

}  // namespace fb::ui
