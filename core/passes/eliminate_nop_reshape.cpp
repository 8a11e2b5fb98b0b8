// A Reshape to the shape its input already has. Known when the input's dims are static and the target,
// resolved as Reshape resolves it (0 copies a dim unless allowzero, -1 takes the rest), equals them; or
// when inference gives input and output the same static shape.
#include "eval/shape_rules.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateNopReshape final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_reshape"; }
  std::string_view description() const override { return "Remove Reshape to the shape its input already has"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Reshape"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Reshape"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Reshape" || !n->isDefaultDomain() || !n->input(0)) continue;
      auto in = staticDims(n->input(0));
      if (!in) continue;
      bool nop = false;
      std::optional<std::vector<int64_t>> target =
          rw.opset() < 5 ? std::optional(n->attrInts("shape")) : constantInts(n->input(1));
      if (target) {
        auto resolved = eval::resolveReshape(*in, *target, n->attrInt("allowzero", 0) != 0);
        nop = resolved && *resolved == *in;
      } else if (auto out = staticDims(n->output(0))) {
        nop = *out == *in;
      }
      if (nop) rw.bypass(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopReshape(bool inDefault) { registerPass<EliminateNopReshape>(inDefault); }
}  // namespace fb::passes
