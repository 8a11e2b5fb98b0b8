// Conv(X, W) + B with B constant per output channel becomes Conv(X, W, B). B must broadcast along the
// channel axis only: right-aligned against the Conv output (rank of W), its one non-1 dim must land on
// axis 1; a single element is spread over all channels.
#include <cstring>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

std::optional<std::vector<double>> channelBias(const ir::Tensor& b, size_t outRank, int64_t channels) {
  if (b.dims.size() > outRank) return std::nullopt;
  auto v = b.asDouble();
  if (static_cast<int64_t>(v.size()) != b.numElements()) return std::nullopt;
  if (v.size() == 1) return std::vector<double>(channels, v[0]);
  if (static_cast<int64_t>(v.size()) != channels) return std::nullopt;
  // axis of each dim of b in the output, right-aligned
  const size_t off = outRank - b.dims.size();
  for (size_t k = 0; k < b.dims.size(); ++k)
    if (b.dims[k] != 1 && off + k != 1) return std::nullopt;
  return v;
}

class FuseAddBiasIntoConv final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_add_bias_into_conv"; }
  std::string_view description() const override { return "Fold an Add of a per-channel constant into Conv's bias"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Conv"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* add : nodesToVisit(g)) {
      if (add->opType != "Add" || !add->isDefaultDomain() || add->inputs().size() != 2) continue;
      for (int side = 0; side < 2; ++side) {
        ir::Value* x = add->input(side);
        ir::Node* conv = x ? x->producer() : nullptr;
        if (!conv || conv->opType != "Conv" || !conv->isDefaultDomain() || soleConsumer(x) != add) continue;
        const ir::Tensor* w = constantTensor(conv->input(1));
        const ir::Tensor* b = constantTensor(add->input(1 - side));
        if (!w || !b || w->dims.empty() || b->dtype != w->dtype) continue;
        if (w->dtype != ir::DataType::Float && w->dtype != ir::DataType::Double) continue;
        auto add0 = channelBias(*b, w->dims.size(), w->dims[0]);
        if (!add0) continue;
        std::vector<double> bias(add0->size(), 0.0);
        if (conv->input(2)) {
          const ir::Tensor* old = constantTensor(conv->input(2));
          if (!old) continue;
          bias = old->asDouble();
          if (bias.size() != add0->size()) continue;
        }
        for (size_t c = 0; c < bias.size(); ++c) bias[c] += (*add0)[c];
        ir::Tensor t;
        t.dtype = w->dtype;
        t.dims = {static_cast<int64_t>(bias.size())};
        if (w->dtype == ir::DataType::Float)
          t = ir::Tensor::fromValues<float>("", t.dtype, t.dims, std::vector<float>(bias.begin(), bias.end()));
        else
          t = ir::Tensor::fromValues<double>("", t.dtype, t.dims, bias);
        std::string base = conv->name.empty() ? x->name() : conv->name;
        conv->setInput(2, rw.addConstant(std::move(t), base + "_bias"));
        ir::Value* y = add->output(0);
        conv->origins = mergeOrigins({conv, add});
        rw.erase(add);
        g.setOutput(conv, 0, y);
        break;
      }
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseAddBiasIntoConv(bool inDefault) { registerPass<FuseAddBiasIntoConv>(inDefault); }
}  // namespace fb::passes
