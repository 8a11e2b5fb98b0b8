// Dropout is the identity at inference unless training is switched on (an input from opset 12, an
// `is_test`=0 attribute before opset 7), and in training too when its ratio is 0 (PyTorch exports attention
// dropout with p=0 that way). Its mask output must be unused for the node to go.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateNopDropout final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_dropout"; }
  std::string_view description() const override { return "Remove Dropout that is the identity at inference"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Dropout"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Dropout" || !n->isDefaultDomain()) continue;
      bool inference = true;
      if (rw.opset() < 7) {
        inference = n->attrInt("is_test", 0) != 0 || n->attrFloat("ratio", 0.5f) == 0.f;
      } else if (rw.opset() >= 12 && n->input(2)) {
        // training_mode must be a known false, or the ratio a known 0 (every element kept, scale 1/(1-0))
        inference = isConstantAllEqual(n->input(2), 0.0) || (n->input(1) && isConstantAllEqual(n->input(1), 0.0));
      }
      if (inference) rw.bypass(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopDropout(bool inDefault) { registerPass<EliminateNopDropout>(inDefault); }
}  // namespace fb::passes
