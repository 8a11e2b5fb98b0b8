// Identity nodes only rename values; exporters leave them around parameters and block fusions.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateIdentity final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_identity"; }
  std::string_view description() const override { return "Remove Identity nodes (graph outputs keep their names)"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Identity"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g))
      if (n->opType == "Identity" && n->isDefaultDomain() && n->outputs().size() == 1) rw.bypass(n);
    return rw.change;
  }
};

}  // namespace
void registerEliminateIdentity(bool inDefault) { registerPass<EliminateIdentity>(inDefault); }
}  // namespace fb::passes
