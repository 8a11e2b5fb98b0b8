// A Cast to the type its input already has changes nothing. The input type comes from shape inference
// (refreshed by the pass manager) or from the initializer itself.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

std::optional<ir::DataType> elemTypeOf(const ir::Value* v) {
  if (v->initializer()) return v->initializer()->dtype;
  if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) return v->type.elemType;
  return std::nullopt;
}

class EliminateNopCast final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_cast"; }
  std::string_view description() const override { return "Remove Cast to the element type its input already has"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Cast", "CastLike"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Cast"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Cast" || !n->isDefaultDomain() || !n->input(0)) continue;
      auto t = elemTypeOf(n->input(0));
      if (t && static_cast<int64_t>(*t) == n->attrInt("to", -1)) rw.bypass(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopCast(bool inDefault) { registerPass<EliminateNopCast>(inDefault); }
}  // namespace fb::passes
