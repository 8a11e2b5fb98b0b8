#include "ui/conversion/conversion_controller.h"

#include <QPointer>
#include <algorithm>
#include <QtConcurrent>
#include <functional>
#include <unordered_map>

#include "formats/onnx/onnx_writer.h"
#include "ui/document.h"

namespace fb::ui {
namespace {

convert::ConvertOptions optionsFor(const ir::Model& model, int opset, const std::optional<QStringList>& passes) {
  convert::ConvertOptions o;
  o.direction = convert::directionFor(model);
  o.targetOpset = opset;
  o.keepUnconverted = true;  // the preview shows what can be converted even when some nodes cannot
  if (passes) {
    std::vector<std::string> names;
    for (const auto& p : *passes) names.push_back(p.toStdString());
    o.passes = names;
  }
  return o;
}

// Node id -> node, over a graph and its subgraphs.
void indexNodes(const ir::Graph& g, std::unordered_map<uint64_t, const ir::Node*>& out) {
  for (const auto& n : g.nodes()) {
    out[n->id()] = n.get();
    for (const ir::Graph* sg : n->subgraphs()) indexNodes(*sg, out);
  }
}

bool sameNode(const ir::Node& a, const ir::Node& b) {
  if (a.opType != b.opType || a.domain != b.domain || a.attributes.size() != b.attributes.size() ||
      a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size())
    return false;
  for (size_t i = 0; i < a.attributes.size(); ++i)
    if (a.attributes[i].name != b.attributes[i].name || a.attributes[i].valueToString() != b.attributes[i].valueToString())
      return false;
  for (size_t i = 0; i < a.inputs().size(); ++i) {
    const ir::Value* x = a.input(i);
    const ir::Value* y = b.input(i);
    if ((x == nullptr) != (y == nullptr) || (x && x->name() != y->name())) return false;
  }
  return true;
}

}  // namespace

ConversionController::ConversionController(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {
  connect(doc_, &Document::modelChanged, this, [this] {
    conversion_.reset();
    converted_.reset();
    facts_.reset();
    factsModel_ = nullptr;
    previewPath_.clear();
    sourceDiff_.clear();
    previewDiff_.clear();
    ++convertGeneration_;
    converting_ = false;
    if (const ir::Model* m = doc_->model()) {
      const int64_t own = convert::directionFor(*m) == "onnx" ? m->opsetVersion("") : convert::kMaxOpset;
      const int target = int(std::clamp<int64_t>(own, convert::kMinOpset, convert::kMaxOpset));
      if (target != opset_) {
        opset_ = target;
        emit targetOpsetChanged(opset_);
      }
    }
    refresh();
  });
}

ConversionController::~ConversionController() = default;

void ConversionController::setTargetOpset(int opset) {
  if (opset == opset_) return;
  opset_ = opset;
  refresh();
}

void ConversionController::setPasses(const std::optional<QStringList>& passes) {
  passes_ = passes;
  refresh();
}

std::optional<convert::NodeStatus> ConversionController::statusOf(uint64_t nodeId) const {
  auto it = statuses_.constFind(nodeId);
  if (it == statuses_.constEnd()) return std::nullopt;
  return *it;
}

void ConversionController::refresh() {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  const quint64 generation = ++dryGeneration_;
  if (!model) {
    dryRun_.reset();
    statuses_.clear();
    emit dryRunFinished();
    return;
  }
  auto options = optionsFor(*model, opset_, passes_);
  if (factsModel_ == model.get()) options.facts = facts_;
  using Outcome = std::pair<std::shared_ptr<const convert::ConvertResult>, std::shared_ptr<const convert::ShapeFacts>>;
  auto future = QtConcurrent::run([model, options]() mutable -> Outcome {
    try {
      if (!options.facts) options.facts = std::make_shared<const convert::ShapeFacts>(convert::inferShapeFacts(*model));
      return {std::make_shared<convert::ConvertResult>(convert::dryRun(*model, options)), options.facts};
    } catch (const std::exception& e) {
      auto r = std::make_shared<convert::ConvertResult>();
      r->error = e.what();
      return {r, nullptr};
    }
  });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, model] {
    watcher->deleteLater();
    Outcome out = watcher->result();
    if (out.second && doc_->loaded().model == model) {
      facts_ = out.second;
      factsModel_ = model.get();
    }
    if (generation != dryGeneration_) return;  // a newer request is on its way
    dryRun_ = out.first;
    statuses_.clear();
    for (const auto& r : dryRun_->nodes) statuses_.insert(r.nodeId, r.status);
    emit dryRunFinished();
  });
  watcher->setFuture(future);
}

void ConversionController::convert() {
  std::shared_ptr<const ir::Model> model = doc_->loaded().model;
  if (!model) return;
  const quint64 generation = ++convertGeneration_;
  converting_ = true;
  emit conversionStarted();
  auto options = optionsFor(*model, opset_, passes_);
  if (factsModel_ == model.get()) options.facts = facts_;
  using Outcome = std::pair<std::shared_ptr<convert::ConvertResult>, QString>;
  const QString previewFile = previewDir_.isValid() ? previewDir_.filePath("preview.onnx") : QString();
  auto future = QtConcurrent::run([model, options, previewFile]() -> Outcome {
    try {
      auto result = std::make_shared<convert::ConvertResult>(convert::convertModel(*model, options));
      if (result->model && !previewFile.isEmpty()) {
        // The preview is shown by a second Document, which reads files: hand it one.
        result->model->sourcePath.clear();
        onnxfmt::writeOnnxFile(*result->model, previewFile.toStdString());
        result->model->sourcePath = model->sourcePath;
      }
      return {result, {}};
    } catch (const std::exception& e) {
      return {nullptr, QString::fromStdString(e.what())};
    }
  });
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, model] {
    watcher->deleteLater();
    if (generation != convertGeneration_) return;  // cancelled, or superseded
    converting_ = false;
    Outcome out = watcher->result();
    if (!out.first) {
      emit conversionFailed(out.second);
      return;
    }
    if (!out.first->model) {
      emit conversionFailed(out.first->error.empty() ? tr("the conversion produced no model")
                                                     : QString::fromStdString(out.first->error));
      return;
    }
    converted_ = std::shared_ptr<const ir::Model>(std::move(out.first->model));
    previewPath_ = previewDir_.isValid() ? previewDir_.filePath("preview.onnx") : QString();
    convertedFrom_ = model;
    conversion_ = out.first;
    computeDiff();
    emit conversionFinished();
  });
  watcher->setFuture(future);
}

void ConversionController::cancel() {
  if (!converting_) return;
  ++convertGeneration_;
  converting_ = false;
  emit conversionFailed(tr("cancelled"));
}

void ConversionController::computeDiff() {
  sourceDiff_.clear();
  previewDiff_.clear();
  if (!converted_ || !convertedFrom_) return;
  std::unordered_map<uint64_t, const ir::Node*> before, after;
  indexNodes(convertedFrom_->graph(), before);
  indexNodes(converted_->graph(), after);
  for (const auto& [id, n] : before) {
    auto it = after.find(id);
    if (it == after.end()) sourceDiff_.insert(id, DiffKind::Removed);
    else if (!sameNode(*n, *it->second)) sourceDiff_.insert(id, DiffKind::Modified);
  }
  for (const auto& [id, n] : after) {
    auto it = before.find(id);
    if (it == before.end()) previewDiff_.insert(id, DiffKind::Added);
    else if (!sameNode(*n, *it->second)) previewDiff_.insert(id, DiffKind::Modified);
  }
}

QHash<quint64, DiffKind> ConversionController::diffForLoadedPreview(const ir::Model& shown) const {
  QHash<quint64, DiffKind> out;
  if (!converted_) return out;
  std::function<void(const ir::Graph&, const ir::Graph&)> pair = [&](const ir::Graph& conv, const ir::Graph& seen) {
    if (conv.nodeCount() != seen.nodeCount()) return;
    auto a = conv.nodes().begin();
    for (auto b = seen.nodes().begin(); b != seen.nodes().end(); ++a, ++b) {
      DiffKind k = previewDiff((*a)->id());
      if (k != DiffKind::Same) out.insert((*b)->id(), k);
      auto subA = (*a)->subgraphs(), subB = (*b)->subgraphs();
      for (size_t i = 0; i < subA.size() && i < subB.size(); ++i) pair(*subA[i], *subB[i]);
    }
  };
  pair(converted_->graph(), shown.graph());
  return out;
}

void ConversionController::save(const QString& path, bool externalData) {
  std::shared_ptr<const ir::Model> model = converted_;
  if (!model) {
    emit saveFailed(tr("nothing converted yet"));
    return;
  }
  auto future = QtConcurrent::run([model, path, externalData]() -> std::pair<bool, QString> {
    try {
      onnxfmt::WriteOptions opts;
      if (externalData) opts.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
      auto r = onnxfmt::writeOnnxFile(*model, path.toStdString(), opts);
      QString summary = QObject::tr("%1 bytes").arg(r.modelBytes);
      if (!r.sideFilePath.empty()) summary += QObject::tr(" + %1 bytes in %2").arg(r.sideFileBytes).arg(QString::fromStdString(r.sideFilePath));
      return {true, summary};
    } catch (const std::exception& e) {
      return {false, QString::fromStdString(e.what())};
    }
  });
  auto* watcher = new QFutureWatcher<std::pair<bool, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
    watcher->deleteLater();
    auto [ok, text] = watcher->result();
    if (ok) emit saved(path, text);
    else emit saveFailed(text);
  });
  watcher->setFuture(future);
}

QColor ConversionController::statusColor(convert::NodeStatus s) {
  switch (s) {
    case convert::NodeStatus::Unchanged: return QColor();
    case convert::NodeStatus::Converted: return QColor("#1f77b4");
    case convert::NodeStatus::Unsupported: return QColor("#d62728");
    case convert::NodeStatus::Failed: return QColor("#9467bd");
    case convert::NodeStatus::Kept: return QColor("#7f7f7f");
  }
  return QColor();
}

QColor ConversionController::diffColor(DiffKind d) {
  switch (d) {
    case DiffKind::Same: return QColor();
    case DiffKind::Modified: return QColor("#ff7f0e");
    case DiffKind::Added: return QColor("#2ca02c");
    case DiffKind::Removed: return QColor("#d62728");
  }
  return QColor();
}

}  // namespace fb::ui
