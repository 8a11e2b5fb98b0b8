// A Pad whose pads are all zero copies its input, whatever the mode. From opset 11 the pads are an input,
// so they must be a known constant.
#include <algorithm>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateNopPad final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_pad"; }
  std::string_view description() const override { return "Remove Pad whose pads are all zero"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Pad"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (n->opType != "Pad" || !n->isDefaultDomain()) continue;
      std::vector<int64_t> pads;
      if (rw.opset() < 11) {
        pads = n->attrInts(rw.opset() < 2 ? "paddings" : "pads");
      } else if (auto c = constantInts(n->input(1))) {
        pads = *c;
      } else {
        continue;
      }
      if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) rw.bypass(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopPad(bool inDefault) { registerPass<EliminateNopPad>(inDefault); }
}  // namespace fb::passes
