#include "eval/verify/extract_subgraph.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_set>

#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "util/printable.h"

namespace fb::eval {

namespace {

std::string quoted(const std::string& name) { return "'" + printable(name) + "'"; }

}  // namespace

std::unique_ptr<ir::Model> extractSubgraph(const ir::Model& m, const std::vector<std::string>& outputs,
                                           const std::vector<std::string>& inputs) {
  if (outputs.empty()) throw std::invalid_argument("no output value given");
  auto sub = m.clone();
  ir::Graph& g = sub->graph();
  std::vector<ir::Value*> outs, ins;
  for (const auto& name : outputs) {
    ir::Value* v = g.findValue(name);
    if (!v || v->isUndefined()) throw std::invalid_argument("the model has no value " + quoted(name));
    outs.push_back(v);
  }
  for (const auto& name : inputs) {
    ir::Value* v = g.findValue(name);
    if (!v || v->isUndefined()) throw std::invalid_argument("the model has no value " + quoted(name));
    if (v->initializer()) throw std::invalid_argument(quoted(name) + " is a weight, not a value to cut at");
    ins.push_back(v);
  }
  const std::unordered_set<const ir::Value*> cutAt(ins.begin(), ins.end());

  // Walk back from the outputs to the cut (or the graph inputs), through bodies' reads of outer values too.
  std::unordered_set<const ir::Node*> needed;
  std::unordered_set<const ir::Value*> seen;
  std::vector<ir::Value*> graphInputsUsed;
  std::vector<ir::Value*> work(outs.begin(), outs.end());
  while (!work.empty()) {
    ir::Value* v = work.back();
    work.pop_back();
    if (!v || !seen.insert(v).second) continue;
    if (cutAt.count(v) || v->initializer() || v->isSparseInitializer()) continue;
    if (v->isGraphInput()) {
      if (!inputs.empty())
        throw std::invalid_argument("computing the outputs needs the graph input " + quoted(v->name()) +
                                    ", which is not among --inputs");
      graphInputsUsed.push_back(v);
      continue;
    }
    ir::Node* p = v->producer();
    if (!p) throw std::invalid_argument("nothing computes " + quoted(v->name()));
    if (!needed.insert(p).second) continue;
    for (ir::Value* in : p->inputs()) work.push_back(in);
    for (ir::Graph* body : p->subgraphs())
      for (const auto& name : body->capturedNames()) work.push_back(g.findValue(name));
  }
  for (ir::Value* v : ins)
    if (v->producer() && needed.count(v->producer()))
      throw std::invalid_argument("the node computing the input " + quoted(v->name()) +
                                  " is needed for another value of the cut");

  std::vector<ir::Node*> drop;
  for (const auto& n : g.nodes())
    if (!needed.count(n.get())) drop.push_back(n.get());
  for (ir::Node* n : drop) g.removeNode(n);

  std::vector<ir::Value*> oldInputs(g.inputs().begin(), g.inputs().end());
  g.removeInputs(oldInputs);
  std::vector<ir::Value*> newInputs = inputs.empty() ? std::vector<ir::Value*>{} : ins;
  if (inputs.empty())
    for (ir::Value* v : oldInputs)  // graph order, not the walk's
      if (std::find(graphInputsUsed.begin(), graphInputsUsed.end(), v) != graphInputsUsed.end()) newInputs.push_back(v);
  for (ir::Value* v : newInputs) g.addInput(v);
  g.clearOutputs();
  for (ir::Value* v : outs) g.addOutput(v);

  std::vector<ir::Value*> unusedWeights;
  for (const auto& t : g.initializers()) {
    ir::Value* v = g.findValue(t->name);
    if (v && v->uses().empty() && !v->isGraphOutput()) unusedWeights.push_back(v);
  }
  g.removeInitializers(unusedWeights);
  g.clearValueInfo();
  g.pruneValues();
  // The cut's own values keep declared types; a body-free model with no value_info is valid as long as they have one.
  for (ir::Value* v : newInputs)
    if (v->type.kind == ir::TypeInfo::Kind::None)
      throw std::invalid_argument("the input " + quoted(v->name()) + " has no known type");
  for (ir::Value* v : outs)
    if (v->type.kind == ir::TypeInfo::Kind::None)
      throw std::invalid_argument("the output " + quoted(v->name()) + " has no known type");
  sub->metadata.clear();
  return sub;
}

}  // namespace fb::eval
