// A Transpose whose perm is 0,1,...,n-1 moves nothing.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

bool isIdentityPerm(const std::vector<int64_t>& p) {
  for (size_t k = 0; k < p.size(); ++k)
    if (p[k] != static_cast<int64_t>(k)) return false;
  return true;
}

class EliminateNopTranspose final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_transpose"; }
  std::string_view description() const override { return "Remove Transpose with the identity permutation"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Transpose"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Transpose"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Transpose" || !n->isDefaultDomain()) continue;
      auto perm = n->attrInts("perm");
      // Without perm the axes are reversed, which is the identity only for rank <= 1.
      bool nop = perm.empty() ? knownRank(n->input(0)).value_or(99) <= 1 : isIdentityPerm(perm);
      if (nop) rw.bypass(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopTranspose(bool inDefault) { registerPass<EliminateNopTranspose>(inDefault); }
}  // namespace fb::passes
