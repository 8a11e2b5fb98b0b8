#pragma once
// The conversion pipeline, shared by every direction (ONNX->ONNX retargeting, OneFlow->ONNX, ...):
//   source model in the IR -> topological sort -> per node, the direction's handler for the target opset
//   (node_walk.h: statuses) -> what the direction drops afterwards -> optimizer passes -> checker + strict shape
//   inference -> result.
// A dry run stops after the statuses and builds nothing. What differs between directions is behind
// convert::Direction (direction.h), registered by name like the handlers.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/onnx_check.h"
#include "convert/node_status.h"
#include "convert/target_opsets.h"
#include "schema/shape_facts.h"
#include "ir/model.h"
#include "passes/pass_manager.h"

namespace fb::convert {

struct ConvertOptions {
  std::string direction = "onnx";  // the direction's rules and handlers (directionNamed, HandlerRegistry::forDirection)
  int64_t targetOpset = 17;        // target default-domain ONNX opset
  // Passes to run after the handlers: nullopt = the registry's default pipeline, empty = none (parsePassList).
  std::optional<std::vector<std::string>> passes{};
  // Build the output even with unsupported/failed nodes, keeping them as they are (--continue-on-error).
  bool keepUnconverted = false;
  bool check = true;  // checker + strict shape inference on the result
  // For an unsupported node, search the lowest target opset that would take it. Off for the nested conversion of
  // a function body: only its first refusal is used, and a search per nesting level would multiply.
  bool lowestOpsets = true;
  // Shape facts of the source (schema::inferShapeFacts), when the caller keeps them: they do not depend on the
  // target, so an app that re-runs the dry run on every opset change computes them once per model.
  // When null they are computed on first need.
  std::shared_ptr<const schema::ShapeFacts> facts{};
  // For convertModel(std::unique_ptr<ir::Model>): reads the source again as it was given (flowbridge-cli rereads its
  // file), called only when a handler asks for shape facts. Without it the conversion keeps a copy until the passes.
  std::function<std::unique_ptr<ir::Model>()> reloadSource{};
  // Keep a copy of the model before the passes and after each pass run that changed it (passStats.steps), for
  // stepping through the pipeline in the app.
  bool recordPassSteps = false;
};

struct ConvertResult {
  std::string direction;
  int64_t sourceOpset = 0;
  int64_t targetOpset = 0;
  std::unique_ptr<ir::Model> model;  // the converted model; null in a dry run or when nodes remain unconverted
  std::vector<NodeReport> nodes;     // one per source node, subgraph nodes included, in graph order
  std::map<std::string, size_t> opsBefore, opsAfter;  // qualified op -> count, subgraphs included
  passes::PassManagerResult passStats;
  bool passesRan = false;
  CheckResult check;  // of the result (ok when not run)
  std::string error;  // a whole-model failure (a pass threw), empty otherwise
  // What the conversion wrote that the source did not say: main-graph output types it inferred (output_types.h), and
  // outputs left without a shape when the check did not refuse them.
  std::vector<std::string> notes;
  double handlersMs = 0, passesMs = 0, checkMs = 0, totalMs = 0;

  size_t count(NodeStatus s) const;
  // Op type -> status name -> count.
  std::map<std::string, std::map<std::string, size_t>> countsByOp() const;
  // No unsupported or failed node, no whole-model error, and the result passed the check.
  bool complete() const;
};

// Converts a copy of `source`. Never throws for problems of the model: they are in the result.
// Throws std::invalid_argument for bad options (unknown pass, target opset out of range).
ConvertResult convertModel(const ir::Model& source, const ConvertOptions& opts);
// Converts `source` itself, for callers that are done with it (the CLI): no copy of the graph is held, the result's
// model is the source edited (null when the conversion stops before the passes). The handlers' shape facts come from
// opts.facts, or the source opts.reloadSource reads again when a handler first asks, or else a copy of the source
// kept through the handlers only. The model is consumed even when the options are refused.
ConvertResult convertModel(std::unique_ptr<ir::Model> source, const ConvertOptions& opts);
// Statuses only: the handlers decide without editing anything and no model is built.
ConvertResult dryRun(const ir::Model& source, const ConvertOptions& opts);

// The direction for a source model: "oneflow" for graphs the OneFlow reader produced, "onnx" otherwise.
std::string directionFor(const ir::Model& source);

// The target opset when the user names none, for the CLI and the app alike: an ONNX model's own opset (within
// kMinOpset..kMaxOpset), kMaxDialectOpset for a OneFlow graph (its direction's rule, Direction::defaultTargetOpset).
int64_t defaultTargetOpset(const ir::Model& source);

// The passes a conversion runs (ConvertOptions::passes) from the words that choose them (flowbridge-cli --passes):
// "default" -> nullopt (the registry's default pipeline); "none" or nothing -> no passes; otherwise pass names
// separated by commas, run in that order (empty names between commas are ignored). Throws std::invalid_argument
// naming a pass the registry does not know.
std::optional<std::vector<std::string>> parsePassList(const std::string& spec);

}  // namespace fb::convert
