#pragma once
// The state of one run that kernels may need beyond their node: the thread count, the cancel flag, and running a
// subgraph (If branches, Loop and Scan bodies, SequenceMap) in the scope of the node that owns it.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/runtime/run.h"
#include "eval/runtime/schema_function.h"
#include "ir/model.h"

namespace fb::ir {
class Graph;
}

namespace fb::eval {

// Values computed so far in one graph, and the scope it is nested in (for names a body takes from outside).
class Scope {
 public:
  Scope(const ir::Graph& graph, const Scope* parent) : graph_(&graph), parent_(parent) {}
  void set(const ir::Value* v, Value x) { values_[v] = std::move(x); }
  const Value* find(const ir::Value* v) const;
  // An outer-scope reference: the value of this name in the enclosing graphs' scopes.
  const Value* findOuter(const std::string& name) const;
  // The value `v` holds when a node of this scope's graph reads it (its own value, or an enclosing one).
  const Value* lookup(const ir::Value* v) const;
  const ir::Graph& graph() const { return *graph_; }
  void erase(const ir::Value* v) { values_.erase(v); }
  Value take(const ir::Value* v);

 private:
  std::unordered_map<const ir::Value*, Value> values_;
  const ir::Graph* graph_;
  const Scope* parent_;
};

class ExecContext {
 public:
  ExecContext(const ir::Model& model, const RunOptions& options);

  const ir::Model& model() const { return model_; }
  const RunOptions& options() const { return options_; }
  int threads() const { return threads_; }
  // Throws RunError(Cancelled) when the run was cancelled.
  void checkCancelled() const;

  // Runs `body` with its graph inputs bound to `inputs` (in order; fewer is an error), nested in `outer` (the
  // scope of the node that owns the body). Returns the body's outputs in order.
  std::vector<Value> runSubgraph(const ir::Graph& body, const std::vector<Value>& inputs, const Scope& outer,
                                 int64_t opset);

  // Runs `g` in `scope` (its inputs and initializers already bound or bound here from `inputs`), node by node.
  // `keepAll`/`keep` decide what stays in scope after its last reader; `progress` is for the main graph only.
  void runGraph(const ir::Graph& g, Scope& scope, int64_t opset, bool mainGraph,
                std::vector<std::pair<std::string, Value>>* kept);

  // One node on given inputs, as runGraph runs each (for evaluateNode).
  std::vector<Value> evaluateOne(const ir::Node& n, const std::vector<const Value*>& inputs, int64_t opset,
                                 const Scope& scope) {
    return runNode(n, inputs, opset, scope);
  }

  // The scope of the node currently running (for kernels that run bodies).
  const Scope& currentScope() const { return *current_; }

  // True while a Conv runs whose output's only reader is the next node, a Relu (neither kept nor a graph output):
  // the Conv kernel may apply the Relu itself (a oneDNN post-op, no pass over the tensor and no second tensor) and
  // say so with markReluFused(); the runner then binds its result to the Relu's output and skips the Relu.
  bool reluMayBeFused() const { return reluMayBeFused_; }
  void markReluFused() { reluFused_ = true; }

 private:
  std::vector<Value> runNode(const ir::Node& n, const std::vector<const Value*>& inputs, int64_t opset,
                             const Scope& scope);
  std::vector<Value> runKernel(const ir::Node& n, const std::vector<const Value*>& inputs, int64_t opset);
  std::vector<Value> runFunction(const ir::Node& n, const ir::Function& f, const std::vector<const Value*>& inputs,
                                 const Scope& scope);
  // Runs a function body (a model-local function's or an op's schema function) on the caller's inputs.
  std::vector<Value> runFunctionBody(const ir::Node& caller, const ir::Graph& body, int64_t opset,
                                     const std::vector<const Value*>& inputs, const std::string& what);
  std::vector<const Value*> gatherInputs(const ir::Node& n, const Scope& scope) const;

  const ir::Model& model_;
  const RunOptions& options_;
  int threads_;
  const Scope* current_ = nullptr;
  int depth_ = 0;  // nested bodies and functions
  bool reluMayBeFused_ = false, reluFused_ = false;
  // Function bodies with the calling node's attributes substituted, one per calling node.
  std::unordered_map<const ir::Node*, std::shared_ptr<ir::Graph>> functionBodies_;
  // ONNX's function bodies of default-domain ops no kernel implements (schema_function.h).
  SchemaFunctions schemaFunctions_;
};

}  // namespace fb::eval
