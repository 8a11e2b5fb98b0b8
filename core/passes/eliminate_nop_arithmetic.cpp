// x + 0, x - 0, x * 1 and x / 1 (either side for + and *) are x, when the constant's broadcast cannot change x's
// shape: it holds one element and its rank is not above x's. A rank-0 constant never can, so no type is
// needed for those; a rank-1 [1] needs x's rank (from shape inference, when some pass asked for it). PyTorch's
// exports compute shapes with such steps (`(n + 2) / 3 * 1`). Floating x + 0 stays: -0 + 0 is +0, and a later
// 1/x would tell (x - 0, x * 1 and x / 1 are exact).
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

// Whether `c` is a one-element constant equal to `neutral` whose broadcast against `x` leaves x's shape.
bool neutralFor(const ir::Value* c, const ir::Value* x, double neutral, bool addition) {
  const ir::Tensor* t = constantTensor(c);
  if (!t || t->numElements() != 1 || !isConstantAllEqual(c, neutral)) return false;
  if (addition && ir::isFloatingPoint(t->dtype)) return false;
  if (t->dims.empty()) return true;
  auto rank = knownRank(x);
  return rank && *rank >= t->dims.size();
}

class EliminateNopArithmetic final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_nop_arithmetic"; }
  std::string_view description() const override {
    return "Remove Add/Sub of 0 and Mul/Div by 1 that leave the other operand's shape";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"Add", "Sub", "Mul", "Div"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* n : nodesToVisit(g)) {
      if (!n->isDefaultDomain() || n->inputs().size() != 2 || n->outputs().size() != 1) continue;
      const std::string& op = n->opType;
      const bool additive = op == "Add" || op == "Sub", multiplicative = op == "Mul" || op == "Div";
      if (!additive && !multiplicative) continue;
      const double neutral = additive ? 0.0 : 1.0;
      ir::Value *a = n->input(0), *b = n->input(1);
      if (!a || !b) continue;
      ir::Value* keep = nullptr;
      const bool addition = op == "Add";
      if (neutralFor(b, a, neutral, addition))
        keep = a;
      else if ((op == "Add" || op == "Mul") && neutralFor(a, b, neutral, addition))
        keep = b;
      if (!keep || !rw.replaceValue(n->output(0), keep)) continue;
      rw.erase(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateNopArithmetic(bool inDefault) { registerPass<EliminateNopArithmetic>(inDefault); }
}  // namespace fb::passes
