// A zero constant-mode Pad on the spatial axes before a Conv is what Conv's own `pads` do. Pads on the
// batch or channel axes, negative pads, other modes or fill values, and auto_pad convs are left alone.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class FusePadIntoConv final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_pad_into_conv"; }
  std::string_view description() const override { return "Fold a zero Pad on spatial axes into Conv's pads"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Pad"}); }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* conv : nodeList(g)) {
      if (conv->opType != "Conv" || !conv->isDefaultDomain() || !conv->input(0)) continue;
      ir::Node* pad = conv->input(0)->producer();
      if (!pad || pad->opType != "Pad" || !pad->isDefaultDomain() || soleConsumer(conv->input(0)) != conv) continue;
      if (pad->attrString("mode", "constant") != "constant") continue;
      if (conv->attrString("auto_pad", "NOTSET") != "NOTSET") continue;
      std::vector<int64_t> pads;
      if (rw.opset() < 11) {
        pads = pad->attrInts(rw.opset() < 2 ? "paddings" : "pads");
        if (pad->attrFloat("value", 0.f) != 0.f) continue;
      } else {
        auto c = constantInts(pad->input(1));
        if (!c || pad->input(3)) continue;  // axes input (opset 18) not handled
        if (pad->input(2) && !isConstantAllEqual(pad->input(2), 0.0)) continue;
        pads = *c;
      }
      const ir::Tensor* w = constantTensor(conv->input(1));
      size_t rank = w ? w->dims.size() : knownRank(conv->input(0)).value_or(0);
      if (rank < 3 || pads.size() != 2 * rank) continue;
      bool ok = pads[0] == 0 && pads[1] == 0 && pads[rank] == 0 && pads[rank + 1] == 0;
      for (auto p : pads) ok = ok && p >= 0;
      if (!ok) continue;
      const size_t sp = rank - 2;
      auto convPads = conv->attrInts("pads");
      if (convPads.empty()) convPads.assign(2 * sp, 0);
      if (convPads.size() != 2 * sp) continue;
      for (size_t k = 0; k < sp; ++k) {
        convPads[k] += pads[2 + k];
        convPads[sp + k] += pads[rank + 2 + k];
      }
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
