#pragma once
// An optimizer pass, in the manner of LLVM/MLIR: a name, a one-line description, and a run over a model
// that says how many nodes it removed and added. Nodes a pass creates carry the `origins` of the nodes
// they replace (provenance), so the desktop preview can draw its before/after diff.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/model.h"

namespace fb::passes {

struct PassChange {
  size_t nodesRemoved = 0;
  size_t nodesAdded = 0;
  size_t initializersRemoved = 0;
  size_t initializersAdded = 0;
  bool changed() const { return nodesRemoved || nodesAdded || initializersRemoved || initializersAdded || other; }
  bool other = false;  // a change that is neither (an attribute rewritten, an input rewired)
  // Why a pass left something as it was when the user may want to know (a node over the folding budget).
  std::vector<std::string> warnings;
};

// Where a pass reads value types (which the pass manager refreshes from shape inference): anywhere (the
// default), or only when rewriting nodes of the listed ops (none: it never reads them). The manager skips
// whole-graph inference, its largest cost on big graphs, when the graph holds no node any pass would read
// types for. Under-declaring costs only rewrites (passes treat an unknown type as "leave it"), never meaning.
struct TypeNeeds {
  bool anywhere = true;
  std::vector<std::string_view> ops;
  static TypeNeeds none() { return {false, {}}; }
  static TypeNeeds forOps(std::vector<std::string_view> ops) { return {false, std::move(ops)}; }
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  virtual TypeNeeds typeNeeds() const { return {}; }
  // Ops without one of which the pass cannot change anything (empty: any graph may give it work). The manager
  // does not call a pass when no graph of the model holds any of them: on 100k nodes every call is a walk over
  // every node, most of it cache misses. Under-declaring would lose rewrites, so list every op the pass starts from.
  virtual std::vector<std::string_view> anchorOps() const { return {}; }
  // Rewrites `m` in place; returns what it changed. Must leave the graph valid and sorted.
  virtual PassChange run(ir::Model& m) = 0;
};

// A pass that rewrites one graph at a time. run() applies it to every subgraph (If/Loop/Scan bodies) and
// then to the main graph, innermost first, so a rewrite never removes a body still waiting its turn.
class GraphPass : public Pass {
 public:
  PassChange run(ir::Model& m) final;
  // The same over a list of the model's graphs, innermost first, that the caller already holds (the pass manager
  // keeps one until a pass changes the model: finding the bodies reads every node's attributes).
  PassChange runOnGraphs(ir::Model& m, const std::vector<ir::Graph*>& innermostFirst);
  virtual PassChange runOnGraph(ir::Model& m, ir::Graph& g) = 0;
};

// Every graph of the model, bodies before the graph that holds them.
std::vector<ir::Graph*> graphsInnermostFirst(ir::Graph& main);

}  // namespace fb::passes
