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
  // How far from a node a rewrite of this pass anchored there looks, in steps from a node to the producers of its
  // inputs, the other readers of its inputs and the readers of its outputs. A change farther away cannot give the
  // pass work, so after a call of it the pass manager hands the next one only the nodes that near a change since
  // (a worklist). -1, the default: it may look arbitrarily far, and every call visits the whole graph. Declaring too
  // small a radius would lose rewrites, never meaning; test_passes_corpus checks that it loses none.
  virtual int worklistRadius() const { return -1; }
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
  // `bodiesChanged`, when given, says whether a graph other than the last (the main graph) changed.
  PassChange runOnGraphs(ir::Model& m, const std::vector<ir::Graph*>& innermostFirst, bool* bodiesChanged = nullptr);
  virtual PassChange runOnGraph(ir::Model& m, ir::Graph& g) = 0;

  // Limits the next calls on `g` to `nodes` (in graph order), until unlimit(): the pass manager's worklist.
  void limitTo(const ir::Graph* g, std::vector<ir::Node*> nodes) {
    limitedGraph_ = g;
    limitedTo_ = std::move(nodes);
  }
  void unlimit() {
    limitedGraph_ = nullptr;
    limitedTo_.clear();
  }

 protected:
  // The nodes of `g` a call visits, in graph order: every node, or the worklist the pass manager gave for `g`.
  // A snapshot, so the pass may remove nodes while it walks (the node it is at, or ones it has passed).
  std::vector<ir::Node*> nodesToVisit(const ir::Graph& g) const;

 private:
  const ir::Graph* limitedGraph_ = nullptr;
  std::vector<ir::Node*> limitedTo_;
};

// Every graph of the model, bodies before the graph that holds them.
std::vector<ir::Graph*> graphsInnermostFirst(ir::Graph& main);

}  // namespace fb::passes
