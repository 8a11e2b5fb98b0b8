#pragma once
// The per-node half of the conversion pipeline (converter.cpp runs it, then the passes and the check): walks the
// graphs in order, a node's subgraphs before the node, and gives every node its status (status_loop.h) through the
// direction's rules and handlers (direction.h). Shared by the dry run and the conversion; knows no direction.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "convert/direction.h"
#include "convert/status_loop.h"
#include "schema/onnx_schema.h"

namespace fb::schema {
struct ShapeFacts;
}

namespace fb::convert {

// What the walk needs of the conversion's options.
struct WalkSettings {
  int64_t targetOpset = 0;
  // Handlers decide and report without editing (and their output is not validated).
  bool dryRun = false;
  // For an unsupported node, search the lowest target opset that would take it (ConvertOptions::lowestOpsets).
  bool lowestOpsets = true;
};

// Element types of values as far as they are known, propagated node by node through the walk (handlers read them
// through HandlerContext::elemType; the output check compares against them).
class ElemTypeTracker {
 public:
  // Types the graph states (typed values; outer-scope names take their type from the enclosing graph).
  void seed(const ir::Graph& g);
  // After a node's handler: its outputs (unless it was replaced) and those of the nodes it created, by their schemas
  // at `opset`; If/Loop/Scan outputs from their bodies.
  void afterNode(const ir::Node& node, const HandlerContext& ctx, int64_t opset);
  schema::ElemTypes& table() { return types_; }

 private:
  void fromBodies(const ir::Node& node);
  schema::ElemTypes types_;
};

// A handler's output must itself be valid at ctx.targetOpset: throws std::runtime_error (the node becomes `failed`)
// naming what is not.
void validateHandlerOutput(const ir::Node& node, const HandlerContext& ctx, const schema::ElemTypes& types);

class NodeWalk {
 public:
  // `facts` gives the source's shape facts when a handler first asks; `bodies` converts the function bodies handlers
  // expand. Reports are appended to `reports`, one per node.
  NodeWalk(ir::Model& model, const Direction& direction, WalkSettings settings,
           std::function<const schema::ShapeFacts&()> facts, BodyConverter bodies, std::vector<NodeReport>& reports);

  void convertGraph(ir::Graph& g);

 private:
  void convertNode(ir::Node& n, ir::Graph& g);
  HandlerContext makeContext(ir::Node& n, ir::Graph& g, int64_t target, bool dry);
  // For an unsupported node: the lowest target opset at which this node, as it is, would convert (each candidate
  // decided as a dry run).
  std::optional<int64_t> lowestWorkingOpset(ir::Node& n, ir::Graph& g);

  ir::Model& model_;
  const Direction& direction_;
  WalkSettings settings_;
  std::function<const schema::ShapeFacts&()> facts_;
  BodyConverter bodies_;
  StatusLoop loop_;
  ElemTypeTracker types_;
  std::unordered_map<const ir::Value*, std::optional<int64_t>> ranks_;
};

}  // namespace fb::convert
