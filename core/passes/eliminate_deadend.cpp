// Dead code elimination: a node none of whose outputs is read (by a node, a graph output or a subgraph)
// computes nothing anyone sees. ONNX ops have no side effects, so such nodes can go. Walking backwards
// removes whole dead chains in one run.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateDeadEnd final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_deadend"; }
  std::string_view description() const override { return "Remove nodes whose outputs nothing reads"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    auto nodes = nodeList(g);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      ir::Node* n = *it;
      bool dead = !n->outputs().empty();
      for (ir::Value* o : n->outputs())
        if (o && (!o->uses().empty() || rw.pinned(o))) dead = false;
      if (dead) rw.erase(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateDeadEnd(bool inDefault) { registerPass<EliminateDeadEnd>(inDefault); }
}  // namespace fb::passes
