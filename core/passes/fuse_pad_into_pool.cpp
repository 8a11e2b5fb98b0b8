// A zero constant-mode Pad on the spatial axes before an AveragePool that counts padding (or has none yet)
// is what the pool's own `pads` with count_include_pad=1 do: PyTorch exports avg_pool2d(padding=p) as Pad
// then AveragePool. MaxPool is left alone (its pads never win a max, a zero Pad can), and so are ceil_mode
// pools (their last window may reach past the pads).
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"
#include "passes/spatial_pads.h"

namespace fb::passes {
namespace {

class FusePadIntoPool final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_pad_into_pool"; }
  std::string_view description() const override {
    return "Fold a zero Pad on spatial axes into AveragePool's pads (count_include_pad=1)";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Pad"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Pad"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    if (rw.opset() < 7) return rw.change;  // count_include_pad arrived with AveragePool-7
    for (ir::Node* pool : nodesToVisit(g)) {
      if (pool->opType != "AveragePool" || !pool->isDefaultDomain() || !pool->input(0)) continue;
      ir::Node* pad = pool->input(0)->producer();
      if (!pad || pad->opType != "Pad" || !pad->isDefaultDomain() || soleConsumer(pool->input(0)) != pool) continue;
      if (pool->attrString("auto_pad", "NOTSET") != "NOTSET" || pool->attrInt("ceil_mode", 0) != 0) continue;
      auto pads = zeroFillPads(*pad, rw.opset());
      if (!pads) continue;
      auto poolPads = pool->attrInts("pads");
      // Pads the pool already has but does not count would be counted once it counts the new ones.
      bool poolPadded = false;
      for (auto p : poolPads) poolPadded = poolPadded || p != 0;
      if (poolPadded && pool->attrInt("count_include_pad", 0) == 0) continue;
      const size_t sp = pool->attrInts("kernel_shape").size();
      if (sp == 0 || !addSpatialPads(poolPads, *pads, sp + 2)) continue;
      pool->setAttr(ir::Attribute::makeInts("pads", poolPads));
      pool->setAttr(ir::Attribute::makeInt("count_include_pad", 1));
      pool->setInput(0, pad->input(0));
      pool->origins = mergeOrigins({pool, pad});
      rw.erase(pad);
    }
    return rw.change;
  }
};

}  // namespace
void registerFusePadIntoPool(bool inDefault) { registerPass<FusePadIntoPool>(inDefault); }
}  // namespace fb::passes
