// Transpose(Transpose(x, p), q) is Transpose(x, r) with r[i] = p[q[i]]; when r is the identity both go.
// The first Transpose stays while something else reads it.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class FuseConsecutiveTransposes final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_consecutive_transposes"; }
  std::string_view description() const override { return "Compose Transpose of Transpose into one (or none)"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Transpose"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* t2 : nodesToVisit(g)) {
      if (t2->opType != "Transpose" || !t2->isDefaultDomain() || !t2->input(0)) continue;
      ir::Value* mid = t2->input(0);
      ir::Node* t1 = mid->producer();
      if (!t1 || t1->opType != "Transpose" || !t1->isDefaultDomain() || !t1->input(0)) continue;
      auto p = t1->attrInts("perm"), q = t2->attrInts("perm");
      if (p.empty() || q.size() != p.size()) continue;
      std::vector<int64_t> r(q.size());
      bool identity = true;
      for (size_t i = 0; i < q.size(); ++i) {
        if (q[i] < 0 || q[i] >= static_cast<int64_t>(p.size())) return rw.change;
        r[i] = p[q[i]];
        identity = identity && r[i] == static_cast<int64_t>(i);
      }
      t2->setInput(0, t1->input(0));
      t2->setAttr(ir::Attribute::makeInts("perm", r));
      t2->origins = mergeOrigins({t1, t2});
      rw.change.other = true;
      if (mid->uses().empty() && !rw.pinned(mid)) rw.erase(t1);
      if (identity) rw.bypass(t2);
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseConsecutiveTransposes(bool inDefault) { registerPass<FuseConsecutiveTransposes>(inDefault); }
}  // namespace fb::passes
