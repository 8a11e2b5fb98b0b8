#include "eval/runtime/exec_context.h"

#include <omp.h>

#include <algorithm>
#include <new>
#include <thread>
#include <unordered_set>

#include "eval/eval_budget.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/node_label.h"

namespace fb::eval {

namespace {

constexpr int kMaxNesting = 64;  // bodies within bodies, functions calling functions

// Nodes of `g` in an order where each value is produced before it is read (stable: a sorted graph keeps its
// order). Throws BadInput naming a node on a cycle.
std::vector<const ir::Node*> executionOrder(const ir::Graph& g) {
  std::vector<const ir::Node*> nodes;
  nodes.reserve(g.nodeCount());
  for (const auto& n : g.nodes()) nodes.push_back(n.get());
  std::unordered_map<const ir::Node*, size_t> pending;
  std::unordered_map<const ir::Node*, std::vector<const ir::Node*>> readers;
  auto producerIn = [&](const ir::Value* v) -> const ir::Node* {
    if (!v || !v->producer() || v->producer()->graph() != &g) return nullptr;
    return v->producer();
  };
  for (const ir::Node* n : nodes) {
    std::unordered_set<const ir::Node*> deps;
    for (const ir::Value* v : n->inputs())
      if (const ir::Node* p = producerIn(v)) deps.insert(p);
    for (const ir::Graph* body : n->subgraphs())
      for (const std::string& name : body->capturedNames())
        if (const ir::Node* p = producerIn(g.findValue(name))) deps.insert(p);
    pending[n] = deps.size();
    for (const ir::Node* p : deps) readers[p].push_back(n);
  }
  std::vector<const ir::Node*> order;
  order.reserve(nodes.size());
  std::vector<const ir::Node*> ready;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
    if (pending[*it] == 0) ready.push_back(*it);
  // Ready nodes are taken in file order: a reversed stack, refilled in order below.
  std::unordered_map<const ir::Node*, size_t> position;
  for (size_t k = 0; k < nodes.size(); ++k) position[nodes[k]] = k;
  auto later = [&](const ir::Node* a, const ir::Node* b) { return position[a] > position[b]; };
  std::make_heap(ready.begin(), ready.end(), later);
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), later);
    const ir::Node* n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (const ir::Node* r : readers[n])
      if (--pending[r] == 0) {
        ready.push_back(r);
        std::push_heap(ready.begin(), ready.end(), later);
      }
  }
  if (order.size() != nodes.size()) {
    for (const ir::Node* n : nodes)
      if (pending[n] != 0) badInput("the graph has a cycle through node '" + ir::nodeLabel(*n) + "'");
  }
  return order;
}

std::string nodeWhere(const ir::Node& n) { return "node '" + ir::nodeLabel(n) + "' (" + n.opType + ")"; }

}  // namespace

const Value* Scope::find(const ir::Value* v) const {
  auto it = values_.find(v);
  return it == values_.end() ? nullptr : &it->second;
}

const Value* Scope::findOuter(const std::string& name) const {
  for (const Scope* s = parent_; s; s = s->parent_) {
    const ir::Value* v = s->graph_->findValue(name);
    if (!v) continue;
    if (const Value* x = s->find(v)) return x;
  }
  return nullptr;
}

const Value* Scope::lookup(const ir::Value* v) const {
  if (const Value* x = find(v)) return x;
  return findOuter(v->name());
}

Value Scope::take(const ir::Value* v) {
  auto it = values_.find(v);
  if (it == values_.end()) return Value();
  Value x = std::move(it->second);
  values_.erase(it);
  return x;
}

ExecContext::ExecContext(const ir::Model& model, const RunOptions& options)
    : model_(model),
      options_(options),
      threads_(options.threads > 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency())) {}

void ExecContext::checkCancelled() const {
  if (options_.cancel && options_.cancel->load(std::memory_order_relaxed))
    throw RunError(RunError::Kind::Cancelled, "cancelled");
}

std::vector<const Value*> ExecContext::gatherInputs(const ir::Node& n, const Scope& scope) const {
  std::vector<const Value*> ins;
  ins.reserve(n.inputs().size());
  for (size_t k = 0; k < n.inputs().size(); ++k) {
    const ir::Value* v = n.input(k);
    if (!v || v->name().empty()) {
      ins.push_back(nullptr);
      continue;
    }
    const Value* x = scope.lookup(v);
    if (!x) badInput("input '" + v->name() + "' has no value (no producer, graph input or initializer)");
    ins.push_back(x);
  }
  return ins;
}

std::vector<Value> ExecContext::runKernel(const ir::Node& n, const std::vector<const Value*>& inputs, int64_t opset) {
  const KernelEntry* k = KernelRegistry::instance().find(n.opType, opset);
  if (!k) {
    if (const SchemaFunction* f = schemaFunctions_.find(n, inputs, opset))
      return runFunctionBody(n, *f->body, f->opset, inputs, "the ONNX function body of " + n.opType);
    unsupported("the evaluator has no kernel for " + n.opType + " at opset " + std::to_string(opset));
  }
  std::optional<ir::DataType> half;
  std::vector<Value> widened;
  std::vector<const Value*> args = inputs;
  if (k->half == HalfTypes::ViaFloat) {
    widened.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Value* v = inputs[i];
      if (!v || !v->isTensor()) continue;
      const ir::DataType t = v->tensor().dtype();
      if (t != ir::DataType::Float16 && t != ir::DataType::BFloat16) continue;
      half = t;
      widened.push_back(Value(castTensor(v->tensor(), ir::DataType::Float)));
      args[i] = &widened.back();
    }
  }
  KernelContext ctx{n, std::span<const Value* const>(args.data(), args.size()), opset, *this};
  std::vector<Value> outs = k->fn(ctx);
  if (half)
    for (Value& o : outs)
      if (o.isTensor() && o.tensor().dtype() == ir::DataType::Float) o = Value(castTensor(o.tensor(), *half));
  return outs;
}

std::vector<Value> ExecContext::runNode(const ir::Node& n, const std::vector<const Value*>& inputs, int64_t opset,
                                        const Scope& scope) {
  const Scope* saved = current_;
  current_ = &scope;
  struct Restore {
    ExecContext* self;
    const Scope* saved;
    ~Restore() { self->current_ = saved; }
  } restore{this, saved};
  if (!n.isDefaultDomain()) {
    for (const ir::Function& f : model_.functions)
      if (f.name == n.opType && f.domain == n.domain) return runFunction(n, f, inputs, scope);
    unsupported("the evaluator runs the default ONNX domain and model-local functions; " + n.qualifiedOp() +
                " is neither");
  }
  return runKernel(n, inputs, opset);
}

namespace {

// Replaces attribute references (ref_attr_name) in a function body by the calling node's attributes.
void bindAttributes(ir::Graph& body, const ir::Node& caller) {
  for (const auto& node : body.nodes()) {
    std::vector<std::string> drop;
    for (ir::Attribute& a : node->attributes) {
      if (a.refAttrName.empty()) {
        if (a.type == ir::AttrType::Graph || a.type == ir::AttrType::Graphs)
          for (auto& g : a.graphs) bindAttributes(*g, caller);
        continue;
      }
      const ir::Attribute* given = caller.attr(std::string(a.refAttrName));
      if (!given) {
        drop.push_back(a.name);
        continue;
      }
      std::string name = a.name;
      a = *given;
      a.name = std::move(name);
    }
    for (const auto& d : drop) node->removeAttr(d);
  }
}

}  // namespace

std::vector<Value> ExecContext::runFunction(const ir::Node& n, const ir::Function& f,
                                            const std::vector<const Value*>& inputs, const Scope& scope) {
  auto& body = functionBodies_[&n];
  if (!body) {
    body = f.body->clone();
    bindAttributes(*body, n);
  }
  int64_t opset = model_.opsetVersion("");
  for (const auto& imp : f.opsets)
    if (imp.domain.empty() || imp.domain == "ai.onnx") opset = imp.version;
  (void)scope;
  return runFunctionBody(n, *body, opset, inputs, "function " + f.name);
}

std::vector<Value> ExecContext::runFunctionBody(const ir::Node& caller, const ir::Graph& body, int64_t opset,
                                                const std::vector<const Value*>& inputs, const std::string& what) {
  if (++depth_ > kMaxNesting) badInput("functions and bodies nest deeper than " + std::to_string(kMaxNesting));
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  Scope s(body, nullptr);  // a function sees only its parameters
  for (size_t k = 0; k < body.inputs().size(); ++k)
    s.set(body.inputs()[k], k < inputs.size() && inputs[k] ? *inputs[k] : Value::none());
  runGraph(body, s, opset, false, nullptr);
  std::vector<Value> outs;
  for (size_t k = 0; k < body.outputs().size(); ++k) {
    const ir::Value* o = body.outputs()[k];
    if (const Value* x = s.lookup(o)) {
      outs.push_back(*x);
      continue;
    }
    // A body built for this node may leave out the optional outputs the node does not ask for (LayerNormalization's
    // Mean and InvStdDev).
    const ir::Value* asked = caller.output(k);
    if (asked && !asked->name().empty()) badInput(what + " does not compute its output '" + o->name() + "'");
    outs.push_back(Value::none());
  }
  return outs;
}

std::vector<Value> ExecContext::runSubgraph(const ir::Graph& body, const std::vector<Value>& inputs, const Scope& outer,
                                            int64_t opset) {
  if (++depth_ > kMaxNesting) badInput("bodies nest deeper than " + std::to_string(kMaxNesting));
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  if (inputs.size() < body.inputs().size())
    badInput("body '" + body.name + "' takes " + std::to_string(body.inputs().size()) + " inputs, given " +
             std::to_string(inputs.size()));
  Scope s(body, &outer);
  for (size_t k = 0; k < body.inputs().size(); ++k) s.set(body.inputs()[k], inputs[k]);
  runGraph(body, s, opset, false, nullptr);
  std::vector<Value> outs;
  outs.reserve(body.outputs().size());
  for (const ir::Value* o : body.outputs()) {
    const Value* x = s.lookup(o);
    if (!x) badInput("body '" + body.name + "' does not compute its output '" + o->name() + "'");
    outs.push_back(*x);
  }
  return outs;
}

void ExecContext::runGraph(const ir::Graph& g, Scope& scope, int64_t opset, bool mainGraph,
                           std::vector<std::pair<std::string, Value>>* kept) {
  for (const auto& t : g.initializers()) {
    const ir::Value* v = g.findValue(t->name);
    if (v && !scope.find(v)) scope.set(v, Value(Tensor::fromModel(*t)));
  }
  const std::vector<const ir::Node*> order = executionOrder(g);
  // Where each value of this graph is read for the last time, so that it is freed there.
  std::unordered_map<const ir::Value*, size_t> lastUse;
  for (size_t k = 0; k < order.size(); ++k) {
    for (const ir::Value* v : order[k]->inputs())
      if (v && v->graph() == &g) lastUse[v] = k;
    for (const ir::Graph* body : order[k]->subgraphs())
      for (const std::string& name : body->capturedNames())
        if (const ir::Value* v = g.findValue(name)) lastUse[v] = k;
  }
  auto keepForever = [&](const ir::Value* v) {
    if (v->isGraphOutput()) return true;
    if (!mainGraph) return false;
    if (options_.keep == RunOptions::Keep::All) return true;
    return options_.keep == RunOptions::Keep::Listed && options_.keepValues.count(v->name()) != 0;
  };
  // Whether node k is a Conv whose output only the Relu at k + 1 reads (reluMayBeFused()).
  auto reluFollows = [&](size_t k) {
    if (k + 1 >= order.size()) return false;
    const ir::Node &conv = *order[k], &relu = *order[k + 1];
    if (!conv.isDefaultDomain() || conv.opType != "Conv" || !relu.isDefaultDomain() || relu.opType != "Relu")
      return false;
    const ir::Value* v = conv.outputs().empty() ? nullptr : conv.output(0);
    if (!v || v->name().empty() || conv.outputs().size() != 1 || relu.inputs().size() != 1 || relu.input(0) != v)
      return false;
    if (relu.outputs().size() != 1 || !relu.output(0) || relu.output(0)->name().empty()) return false;
    const auto last = lastUse.find(v);
    return last != lastUse.end() && last->second == k + 1 && !keepForever(v);
  };
  for (size_t k = 0; k < order.size(); ++k) {
    checkCancelled();
    const ir::Node& n = *order[k];
    std::vector<Value> outs;
    const bool offerRelu = reluFollows(k);
    reluFused_ = false;
    try {
      struct Offer {
        bool& flag;
        ~Offer() { flag = false; }
      } offer{reluMayBeFused_};
      reluMayBeFused_ = offerRelu;
      outs = runNode(n, gatherInputs(n, scope), opset, scope);
      if (outs.size() < n.outputs().size()) {
        size_t needed = 0;
        for (size_t o = 0; o < n.outputs().size(); ++o)
          if (n.output(o) && !n.output(o)->name().empty()) needed = o + 1;
        if (outs.size() < needed)
          badInput("computed " + std::to_string(outs.size()) + " outputs where the node has " + std::to_string(needed));
      }
    } catch (RunError& e) {
      // From inside a body or function body, the path from this graph's node down to the one that failed.
      e.setNode(e.node().empty() ? nodeWhere(n) : nodeWhere(n) + " > " + e.node());
      throw;
    } catch (const OverBudget& e) {  // the constant-folding budget, when a fold runs the evaluator
      RunError r(RunError::Kind::Unsupported, e.what());
      r.setNode(nodeWhere(n));
      throw r;
    } catch (const std::bad_alloc&) {
      RunError r(RunError::Kind::BadInput, "out of memory");
      r.setNode(nodeWhere(n));
      throw r;
    } catch (const std::exception& e) {
      RunError r(RunError::Kind::BadInput, e.what());
      r.setNode(nodeWhere(n));
      throw r;
    }
    // With the Relu fused into the Conv, the result is the Relu's output.
    const bool fused = offerRelu && reluFused_;
    const ir::Node& producer = fused ? *order[k + 1] : n;
    for (size_t o = 0; o < producer.outputs().size() && o < outs.size(); ++o) {
      const ir::Value* v = producer.output(o);
      if (!v || v->name().empty()) continue;
      if (kept && mainGraph && !v->isGraphOutput() && keepForever(v)) kept->emplace_back(v->name(), outs[o]);
      scope.set(v, std::move(outs[o]));
    }
    for (const ir::Value* v : n.inputs())
      if (v && v->graph() == &g && lastUse[v] == k && !keepForever(v) && !v->initializer()) scope.erase(v);
    // Values a body read by name (If branches, Loop bodies) are freed after their last reader too.
    for (const ir::Graph* body : n.subgraphs())
      for (const std::string& name : body->capturedNames())
        if (const ir::Value* v = g.findValue(name); v && lastUse[v] == k && !keepForever(v) && !v->initializer())
          scope.erase(v);
    for (const ir::Value* v : producer.outputs())
      if (v && !v->name().empty() && !lastUse.count(v) && !keepForever(v)) scope.erase(v);  // never read
    if (fused) ++k;
    if (mainGraph && options_.progress) options_.progress(k + 1, order.size());
  }
}

RunResult runModel(const ir::Model& m, const std::map<std::string, Value>& inputs, const RunOptions& o) {
  auto budget = std::make_shared<MemoryBudget>();
  budget->maxLiveBytes = o.maxLiveBytes ? o.maxLiveBytes : defaultRunMemoryBytes();
  MemoryBudgetScope budgetScope(budget);
  ExecContext ctx(m, o);
  omp_set_num_threads(ctx.threads());
  const ir::Graph& g = m.graph();
  Scope scope(g, nullptr);
  for (const auto& [name, value] : inputs) {
    const ir::Value* v = g.findValue(name);
    if (!v || !v->isGraphInput()) badInput("the model has no input named '" + name + "'");
    checkInputFits(*v, value);
    scope.set(v, value);
  }
  for (const ir::Value* v : g.inputs())
    if (!scope.find(v) && !v->initializer()) badInput("no value given for the model's input '" + v->name() + "'");
  RunResult r;
  int64_t opset = m.opsetVersion("");
  if (opset == 0) opset = 1;
  ctx.runGraph(g, scope, opset, true, &r.kept);
  for (const ir::Value* v : g.outputs()) {
    const Value* x = scope.lookup(v);
    if (!x) badInput("the model's output '" + v->name() + "' is never computed");
    r.outputs.emplace_back(v->name(), *x);
  }
  r.peakBytes = budget->peak.load();
  return r;
}

}  // namespace fb::eval
