#include "ui/model_loader.h"

#include <QObject>
#include <chrono>
#include <future>

#include "formats/model_io.h"
#include "util/error.h"
#include "util/mapped_file.h"
#include "util/failure_text.h"
#include "util/stopwatch.h"

namespace fb::ui {

namespace {
void addNodes(const ir::Graph& g, NodeIndex& out) {
  for (const auto& n : g.nodes()) {
    out.emplace(n->id(), n.get());
    for (const ir::Graph* sub : n->subgraphs()) addNodes(*sub, out);
  }
}
}  // namespace

NodeIndex indexNodes(const ir::Graph& g) {
  NodeIndex out;
  out.reserve(g.totalNodeCount());
  addNodes(g, out);
  return out;
}

GraphLevel makeLevel(const ir::Graph& g, const QString& title, const LoadSettings& settings) {
  GraphLevel level;
  level.graph = &g;
  level.title = title;
  level.layout = std::make_shared<layout::HierarchicalLayout>(g, settings.layout);
  level.layout->expandWithin(settings.maxVisibleBoxes);
  level.placed = level.layout->compute();
  return level;
}

InferredShapes inferShapesForDisplay(const ir::Model& model) {
  auto t = std::chrono::steady_clock::now();
  InferredShapes out;
  ShapeMap shapes;
  try {
    shapes = inferShapes(model, &out.warnings);
  } catch (const std::exception& e) {
    out.warnings.push_back({"", e.what()});
  }
  out.shapes = std::make_shared<const ShapeMap>(std::move(shapes));
  out.ms = msSince(t);
  return out;
}

LoadedModel prepareForDisplay(std::shared_ptr<const ir::Model> model, const QString& name, const LoadSettings& settings,
                              const std::atomic<bool>& cancel, const LoadProgress& progress, int firstPercent) {
  LoadedModel out;
  out.name = name;
  out.model = model;
  const bool shapesNow = model->graph().nodeCount() <= settings.inferShapesBeforeFrameMaxNodes;
  progress(firstPercent, shapesNow ? QObject::tr("inferring shapes and laying out") : QObject::tr("laying out"));

  // Shape inference (libonnx) and layout (Graphviz) are independent: run them on both cores.
  std::future<InferredShapes> shapesTask;
  if (shapesNow) shapesTask = std::async(std::launch::async, [model] { return inferShapesForDisplay(*model); });
  auto t1 = std::chrono::steady_clock::now();
  out.mainLevel.graph = &model->graph();
  out.mainLevel.title = QObject::tr("main graph");
  out.mainLevel.layout = std::make_shared<layout::HierarchicalLayout>(model->graph(), settings.layout);
  if (settings.collapse)
    applyCollapseState(*out.mainLevel.layout, *settings.collapse);
  else
    out.mainLevel.layout->expandWithin(settings.maxVisibleBoxes);
  out.mainLevel.placed = out.mainLevel.layout->compute(&cancel);
  out.layoutMs = msSince(t1);
  out.nodes = std::make_shared<const NodeIndex>(indexNodes(model->graph()));
  InferredShapes inferred = shapesNow ? shapesTask.get() : InferredShapes{};
  if (cancel || out.mainLevel.placed.cancelled) return {};
  out.shapes = std::move(inferred.shapes);
  out.shapeWarnings = std::move(inferred.warnings);
  out.shapesMs = inferred.ms;
  out.shapesDeferred = !shapesNow;
  return out;
}

LoadedModel loadForDisplay(const QString& path, const LoadSettings& settings, const std::atomic<bool>& cancel,
                           const LoadProgress& progress) {
  // Reads from a file truncated while mapped give zeros instead of SIGBUS; whatever was read from it is not the
  // model, so such a load fails with the file named.
  const uint64_t faultsBefore = mappedFaultCount();
  auto t0 = std::chrono::steady_clock::now();
  progress(5, QObject::tr("reading"));
  std::shared_ptr<ir::Model> model;
  try {
    model = loadModel(path.toStdString());
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path.toStdString(), failureText(e, "reading the model"));
  }
  const double readMs = msSince(t0);
  if (cancel) return {};
  LoadedModel out = prepareForDisplay(model, path, settings, cancel, progress, 35);
  if (!out.model) return {};
  throwIfMappedFileDamagedSince(faultsBefore);
  out.path = path;
  out.readMs = readMs;
  progress(100, QObject::tr("done"));
  return out;
}

}  // namespace fb::ui
