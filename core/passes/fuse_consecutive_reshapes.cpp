// Reshape(Reshape(x, s1), s2) is Reshape(x, s2) when s2 does not copy dims from the intermediate shape
// (no 0 entries unless allowzero): -1 and literal dims depend only on the element count, which is the same.
#include <algorithm>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class FuseConsecutiveReshapes final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_consecutive_reshapes"; }
  std::string_view description() const override { return "Skip a Reshape whose result is only reshaped again"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Reshape"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* r2 : nodesToVisit(g)) {
      if (r2->opType != "Reshape" || !r2->isDefaultDomain() || !r2->input(0)) continue;
      ir::Value* mid = r2->input(0);
      ir::Node* r1 = mid->producer();
      if (!r1 || r1->opType != "Reshape" || !r1->isDefaultDomain() || !r1->input(0)) continue;
      auto s2 = rw.opset() < 5 ? std::optional(r2->attrInts("shape")) : constantInts(r2->input(1));
      if (!s2) continue;
      if (r2->attrInt("allowzero", 0) == 0 && std::find(s2->begin(), s2->end(), 0) != s2->end()) continue;
      r2->setInput(0, r1->input(0));
      r2->origins = mergeOrigins({r1, r2});
      rw.change.other = true;
      if (mid->uses().empty() && !rw.pinned(mid)) rw.erase(r1);
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseConsecutiveReshapes(bool inDefault) { registerPass<FuseConsecutiveReshapes>(inDefault); }
}  // namespace fb::passes
