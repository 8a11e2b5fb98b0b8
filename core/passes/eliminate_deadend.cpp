// Dead code elimination: a node none of whose outputs is read (by a node, a graph output or a subgraph)
// computes nothing anyone sees. ONNX ops have no side effects, so such nodes can go. Walking backwards
// removes whole dead chains in one run.
#include <absl/container/flat_hash_set.h>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateDeadEnd final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_deadend"; }
  std::string_view description() const override { return "Remove nodes whose outputs nothing reads"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  // A rewrite here reads only the node and whether its outputs are read.
  int worklistRadius() const override { return 0; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    auto dead = [&](const ir::Node* n) {
      if (n->outputs().empty()) return false;
      for (ir::Value* o : n->outputs())
        if (o && (!o->uses().empty() || rw.pinned(o))) return false;
      return true;
    };
    // Removing a node may leave its producers unread: they go in the same call, whether the walk already passed
    // them (the whole graph, last node first) or they are not on the worklist at all.
    absl::flat_hash_set<const ir::Node*> erased;  // the walk's snapshot still lists them; this pass adds no node
    std::vector<ir::Node*> pending;
    const auto nodes = nodesToVisit(g);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      pending.push_back(*it);
      while (!pending.empty()) {
        ir::Node* n = pending.back();
        pending.pop_back();
        if (erased.contains(n) || !dead(n)) continue;
        for (ir::Value* v : n->inputs())
          if (v && v->producer() && v->producer()->graph() == &g) pending.push_back(v->producer());
        erased.insert(n);
        rw.erase(n);
      }
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateDeadEnd(bool inDefault) { registerPass<EliminateDeadEnd>(inDefault); }
}  // namespace fb::passes
