#pragma once
// What every rewrite needs: what a value holds when it is constant, whether a value may be renamed or
// rerouted (graph outputs keep their names; subgraphs refer to outer values by name), and node edits
// that count themselves into the pass's PassChange and carry provenance.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"
#include "ir/model.h"
#include "passes/pass.h"

namespace fb::passes {

// The default-domain opset of the model (ONNX's `""`/`ai.onnx`).
int64_t onnxOpset(const ir::Model& m);

// Looks through Identity nodes: exporters route BatchNormalization parameters and weights through them.
const ir::Value* skipIdentities(const ir::Value* v);

// The constant a value holds: an initializer that is not also a graph input (those can be fed), or the
// `value` tensor of a Constant node; found through Identity chains and, from a body, in enclosing graphs.
// nullptr otherwise.
const ir::Tensor* constantTensor(const ir::Value* v);
// The constant as int64s (shape arithmetic), when it is an integer constant.
std::optional<std::vector<int64_t>> constantInts(const ir::Value* v);
// A constant holding one floating or integer element equal to `x` (every element, for a splat).
bool isConstantAllEqual(const ir::Value* v, double x);

// The type a constant gives the value holding it: its element type and dims.
ir::TypeInfo tensorTypeOf(const ir::Tensor& t);

// Static dims of a value's type, when all are known.
std::optional<std::vector<int64_t>> staticDims(const ir::Value* v);
std::optional<size_t> knownRank(const ir::Value* v);

// The single node reading `v` with a single use, when that is all that reads it (no graph output either).
ir::Node* soleConsumer(const ir::Value* v);

std::vector<uint64_t> mergeOrigins(std::initializer_list<const ir::Node*> nodes);

class Rewriter {
 public:
  Rewriter(ir::Model& m, ir::Graph& g);
  ir::Model& model() { return model_; }
  ir::Graph& graph() { return graph_; }
  int64_t opset() const { return opset_; }

  // A value whose name something outside the graph's value links depends on (graph outputs, subgraph captures).
  bool pinned(const ir::Value* v) const;
  bool captured(const ir::Value* v) const;

  // Every reader of `from` reads `to` instead. When `from` is a graph output, `to` takes its name (and
  // type), which needs `to` to be an ordinary node output. Returns false, changing nothing, when it cannot.
  bool replaceValue(ir::Value* from, ir::Value* to);
  // Removes a node (its outputs must be unused or about to be dropped).
  void erase(ir::Node* n);
  // Removes a node that computes `n.output(0) == n.input(0)`; false when its output cannot be rerouted.
  bool bypass(ir::Node* n);
  // Adds a node before `before` (nullptr: at the end), with the given provenance.
  ir::Node* create(std::string op, const std::vector<ir::Value*>& ins, const std::vector<ir::Value*>& outs,
                   ir::Node* before, std::vector<uint64_t> origins);
  // A new initializer under a fresh name derived from `base`.
  ir::Value* addConstant(ir::Tensor t, const std::string& base);

  PassChange change;

 private:
  ir::Model& model_;
  ir::Graph& graph_;
  int64_t opset_;
  // Names subgraphs read from this graph, collected on first need: a pass that rewrites nothing never walks
  // the graph for them (on 100k nodes every walk costs milliseconds of cache misses).
  mutable std::optional<std::unordered_set<std::string>> captured_;
};

// Snapshot of the node list, so a pass can remove nodes while it walks.
std::vector<ir::Node*> nodeList(const ir::Graph& g);

}  // namespace fb::passes
