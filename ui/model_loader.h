#pragma once
// What a background load produces: the model, the shapes inferred for display, and the first layout.
// Runs on a worker thread (QtConcurrent); nothing here touches widgets.
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "check/onnx_check.h"
#include "ui/collapse_state.h"
#include "ir/model.h"
#include "layout/hierarchical_layout.h"

namespace fb::ui {

using ShapeMap = std::unordered_map<std::string, ir::TypeInfo>;
// Every node of a graph and of its subgraphs by id (ids are unique within a model).
using NodeIndex = std::unordered_map<uint64_t, const ir::Node*>;
NodeIndex indexNodes(const ir::Graph& g);

// One graph being shown (the main graph or a subgraph) with its layout state.
struct GraphLevel {
  const ir::Graph* graph = nullptr;
  QString title;
  std::shared_ptr<layout::HierarchicalLayout> layout;
  layout::PlacedGraph placed;
};

struct LoadedModel {
  QString path;  // the file it was read from; empty for a model handed to Document::show
  QString name;  // what messages call it: the path, or the name it was shown with
  std::shared_ptr<const ir::Model> model;
  std::shared_ptr<const ShapeMap> shapes;
  std::shared_ptr<const NodeIndex> nodes;  // built with the layout, off the UI thread
  std::vector<CheckMessage> shapeWarnings;
  // True when shape inference was left for after the first frame (a large graph): `shapes` is null until the
  // Document's background inference brings it.
  bool shapesDeferred = false;
  GraphLevel mainLevel;
  double readMs = 0, shapesMs = 0, layoutMs = 0;
};

struct LoadSettings {
  layout::LayoutOptions layout;
  size_t maxVisibleBoxes = 2000;  // blocks stay collapsed beyond this many boxes on screen
  // When set, the main graph's blocks open as these say instead of up to maxVisibleBoxes (a preview opens with
  // its source's collapse state).
  std::shared_ptr<const CollapseState> collapse;
  // Beyond this many nodes the first frame does not wait for shape inference (libonnx, on a structural copy of
  // the whole model: at 100k nodes it costs more than reading and layout together); the types follow.
  size_t inferShapesBeforeFrameMaxNodes = 20000;
};

// Progress: a percentage and a phrase ("reading", "inferring shapes", "laying out").
using LoadProgress = std::function<void(int percent, const QString& phase)>;

// Throws InputError (and anything libonnx lets out is turned into one) on a bad file; returns an empty
// result when `cancel` became true.
LoadedModel loadForDisplay(const QString& path, const LoadSettings& settings, const std::atomic<bool>& cancel,
                           const LoadProgress& progress);

// The same for a model already in memory (a conversion, a pass step): shapes and the first layout, no reading.
// `progress` goes from `firstPercent` (the caller says when it is done). Returns an empty result when `cancel` became
// true.
LoadedModel prepareForDisplay(std::shared_ptr<const ir::Model> model, const QString& name, const LoadSettings& settings,
                              const std::atomic<bool>& cancel, const LoadProgress& progress, int firstPercent = 0);

// libonnx shape inference for display (on a copy of the graph without weight bytes); errors become warnings.
struct InferredShapes {
  std::shared_ptr<const ShapeMap> shapes;
  std::vector<CheckMessage> warnings;
  double ms = 0;
};
InferredShapes inferShapesForDisplay(const ir::Model& model);

// Builds the level for a graph of an already loaded model (subgraphs, re-layouts with new options).
GraphLevel makeLevel(const ir::Graph& g, const QString& title, const LoadSettings& settings);

}  // namespace fb::ui
