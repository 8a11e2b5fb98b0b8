// A zero constant-mode Pad on the spatial axes before a Conv is what Conv's own `pads` do. Pads on the
// batch or channel axes, negative pads, other modes or fill values, and auto_pad convs are left alone.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"
#include "passes/spatial_pads.h"

namespace fb::passes {
namespace {

class FusePadIntoConv final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_pad_into_conv"; }
  std::string_view description() const override { return "Fold a zero Pad on spatial axes into Conv's pads"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Pad"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Pad"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* conv : nodesToVisit(g)) {
      if (conv->opType != "Conv" || !conv->isDefaultDomain() || !conv->input(0)) continue;
      ir::Node* pad = conv->input(0)->producer();
      if (!pad || pad->opType != "Pad" || !pad->isDefaultDomain() || soleConsumer(conv->input(0)) != conv) continue;
      if (conv->attrString("auto_pad", "NOTSET") != "NOTSET") continue;
      auto pads = zeroFillPads(*pad, rw.opset());
      if (!pads) continue;
      const ir::Tensor* w = constantTensor(conv->input(1));
      const size_t rank = w ? w->dims.size() : knownRank(conv->input(0)).value_or(0);
      auto convPads = conv->attrInts("pads");
      if (!addSpatialPads(convPads, *pads, rank)) continue;
      conv->setAttr(ir::Attribute::makeInts("pads", convPads));
      conv->setInput(0, pad->input(0));
      conv->origins = mergeOrigins({conv, pad});
      rw.erase(pad);
    }
    return rw.change;
  }
};

}  // namespace
void registerFusePadIntoConv(bool inDefault) { registerPass<FusePadIntoConv>(inDefault); }
}  // namespace fb::passes
