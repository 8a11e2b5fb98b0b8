// A Reshape to the shape its input already has. Known when the input's dims are static and the target,
// resolved as Reshape resolves it (0 copies a dim unless allowzero, -1 takes the rest), equals them; or
// when inference gives input and output the same static shape.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

std::optional<std::vector<int64_t>> resolveTarget(const std::vector<int64_t>& in, std::vector<int64_t> target,
                                                  bool allowZero) {
  int64_t known = 1, total = 1, inferAt = -1;
  for (auto d : in) total *= d;
  for (size_t k = 0; k < target.size(); ++k) {
    if (target[k] == 0 && !allowZero) {
      if (k >= in.size()) return std::nullopt;
      target[k] = in[k];
    }
    if (target[k] == -1) {
      if (inferAt >= 0) return std::nullopt;
      inferAt = static_cast<int64_t>(k);
    } else {
      known *= target[k];
    }
  }
  if (inferAt >= 0) {
    if (known == 0 || total % known) return std::nullopt;
    target[inferAt] = total / known;
  }
  return target;
}

class EliminateNopReshape final : public Pass {
 public:
  std::string_view name() const override { return "eliminate_nop_reshape"; }
  std::string_view description() const override { return "Remove Reshape to the shape its input already has"; }
  PassChange run(ir::Model& m) override {
    Rewriter rw(m, m.graph());
    for (ir::Node* n : nodeList(m.graph())) {
      if (n->opType != "Reshape" || !n->isDefaultDomain() || !n->input(0)) continue;
      auto in = staticDims(n->input(0));
      if (!in) continue;
      bool nop = false;
      std::optional<std::vector<int64_t>> target =
          rw.opset() < 5 ? std::optional(n->attrInts("shape")) : constantInts(n->input(1));
      if (target) {
        auto resolved = resolveTarget(*in, *target, n->attrInt("allowzero", 0) != 0);
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
