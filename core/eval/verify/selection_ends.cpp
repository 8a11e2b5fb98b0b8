#include "eval/verify/selection_ends.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"

namespace fb::eval {

namespace {

// The outer values a node's bodies read (by name, resolved in the node's graph).
std::vector<const ir::Value*> capturedBy(const ir::Node* n) {
  std::vector<const ir::Value*> out;
  for (const ir::Graph* body : n->subgraphs())
    for (const auto& name : body->capturedNames())
      if (const ir::Value* v = n->graph()->findValue(name)) out.push_back(v);
  return out;
}

// True for a value computed from weights and Constant nodes only (an Identity of a shared weight, a Constant, a
// Cast of a weight): the cut carries it with the nodes that compute it, as it carries weights, instead of asking
// for it as an input. Random ops and nodes with bodies never count.
bool computedFromConstants(const ir::Value* v, std::unordered_map<const ir::Value*, bool>& memo, int depth = 0) {
  if (v->initializer() || v->isSparseInitializer()) return true;
  const ir::Node* p = v->producer();
  if (!p || v->isGraphInput() || depth > 64) return false;
  if (auto it = memo.find(v); it != memo.end()) return it->second;
  const std::string& op = p->opType;
  bool constant = p->subgraphs().empty() && op.rfind("Random", 0) != 0 && op != "Multinomial" &&
                  (!p->inputs().empty() || op == "Constant");
  for (const ir::Value* in : p->inputs())
    if (constant && in && !in->name().empty()) constant = computedFromConstants(in, memo, depth + 1);
  memo[v] = constant;
  return constant;
}

}  // namespace

SelectionEnds endsOfSelection(const std::vector<const ir::Node*>& nodes) {
  SelectionEnds ends;
  std::vector<const ir::Node*> ordered;
  for (const ir::Node* n : nodes)
    if (n) ordered.push_back(n);
  if (ordered.empty()) return ends;
  std::sort(ordered.begin(), ordered.end(),
            [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
  ordered.erase(std::unique(ordered.begin(), ordered.end()), ordered.end());
  const std::unordered_set<const ir::Node*> selected(ordered.begin(), ordered.end());

  // Values read by bodies of nodes outside the selection count as read outside it.
  std::unordered_set<const ir::Value*> readByOtherBodies;
  for (const auto& n : ordered.front()->graph()->nodes())
    if (!selected.count(n.get()))
      for (const ir::Value* v : capturedBy(n.get())) readByOtherBodies.insert(v);

  std::unordered_set<const ir::Value*> seenInputs;
  std::unordered_map<const ir::Value*, bool> constantMemo;
  auto addInput = [&](const ir::Value* v) {
    if (!v || v->name().empty() || computedFromConstants(v, constantMemo)) return;
    if (v->producer() && selected.count(v->producer())) return;
    if (seenInputs.insert(v).second) ends.inputs.push_back(v->name());
  };
  for (const ir::Node* n : ordered) {
    for (const ir::Value* v : n->inputs()) addInput(v);
    for (const ir::Value* v : capturedBy(n)) addInput(v);
  }
  for (const ir::Node* n : ordered)
    for (const ir::Value* v : n->outputs()) {
      if (!v || v->name().empty()) continue;
      const bool readOutside =
          v->isGraphOutput() || readByOtherBodies.count(v) ||
          std::any_of(v->uses().begin(), v->uses().end(), [&](const ir::Use& u) { return !selected.count(u.node); });
      if (readOutside) ends.outputs.push_back(v->name());
    }
  return ends;
}

}  // namespace fb::eval
