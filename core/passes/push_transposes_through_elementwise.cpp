// Layout converters wrap NHWC islands in Transpose pairs: Transpose(p) -> elementwise ops -> Transpose(q)
// with q undoing p. Elementwise ops do not care about layout, so the chain can run on the untransposed
// tensor and both Transposes go, as tf2onnx's TransposeOptimizer does. Constant operands are transposed
// once to the other layout; a second operand that is the same Transpose(p) of another tensor loses its
// Transpose too. Only chains that end in the inverse Transpose are rewritten, so the pass never just
// moves Transposes around.
#include <unordered_set>

#include "eval/runtime/run_error.h"
#include "eval/transpose_bytes.h"
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

const std::unordered_set<std::string>& unaryOps() {
  static const std::unordered_set<std::string> s = {
      "Relu",       "Sigmoid",   "Tanh",        "Abs",      "Neg",      "Exp",       "Log",  "Sqrt",  "Erf",
      "Elu",        "LeakyRelu", "HardSigmoid", "Softplus", "Softsign", "Selu",      "Ceil", "Floor", "Round",
      "Reciprocal", "Sign",      "Identity",    "Cast",     "Not",      "HardSwish", "Sin",  "Cos",   "Clip"};
  return s;
}
const std::unordered_set<std::string>& binaryOps() {
  static const std::unordered_set<std::string> s = {"Add", "Sub",   "Mul",  "Div",     "Pow", "Max",
                                                    "Min", "Equal", "Less", "Greater", "And", "Or"};
  return s;
}

bool isTransposeWith(const ir::Node* n, const std::vector<int64_t>& perm) {
  return n && n->opType == "Transpose" && n->isDefaultDomain() && n->attrInts("perm") == perm;
}

struct Step {
  ir::Node* node;
  int slot;  // which input carries the transposed tensor
};

class PushTransposesThroughElementwise final : public GraphPass {
 public:
  std::string_view name() const override { return "push_transposes_through_elementwise"; }
  std::string_view description() const override {
    return "Cancel a Transpose and its inverse across a chain of elementwise ops";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Transpose"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Transpose"}; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    std::unordered_set<const ir::Node*> removed;  // the walk's snapshot still lists them
    for (ir::Node* t1 : nodeList(g)) {
      if (removed.count(t1)) continue;
      if (t1->opType != "Transpose" || !t1->isDefaultDomain() || !t1->input(0)) continue;
      const auto perm = t1->attrInts("perm");
      if (perm.empty()) continue;
      std::vector<Step> chain;
      ir::Node* t2 = findChain(rw, t1, perm, chain);
      if (!t2 || chain.empty()) continue;
      rewrite(rw, t1, t2, perm, chain, removed);
    }
    return rw.change;
  }

 private:
  // Empty when `p` is not a permutation (a perm read from a file can be anything).
  static std::vector<int64_t> inverse(const std::vector<int64_t>& p) {
    std::vector<int64_t> inv(p.size(), -1);
    for (size_t k = 0; k < p.size(); ++k) {
      if (p[k] < 0 || p[k] >= static_cast<int64_t>(p.size()) || inv[p[k]] >= 0) return {};
      inv[p[k]] = static_cast<int64_t>(k);
    }
    return inv;
  }

  // Follows single readers from t1 through elementwise ops; returns the inverse Transpose ending the chain.
  static ir::Node* findChain(Rewriter& rw, ir::Node* t1, const std::vector<int64_t>& perm, std::vector<Step>& chain) {
    const auto inv = inverse(perm);
    if (inv.empty()) return nullptr;
    ir::Value* cur = t1->output(0);
    for (size_t guard = 0; guard < 1000; ++guard) {
      if (rw.pinned(cur)) return nullptr;
      ir::Node* c = soleConsumer(cur);
      if (!c || !c->isDefaultDomain()) return nullptr;
      if (c->opType == "Transpose") return c->attrInts("perm") == inv ? c : nullptr;
      if (c->outputs().size() != 1 || !c->output(0)) return nullptr;
      const int slot = c->input(0) == cur ? 0 : 1;
      if (unaryOps().count(c->opType)) {
        if (slot != 0) return nullptr;
        for (size_t k = 1; k < c->inputs().size(); ++k)  // Clip's min/max must be scalars
          if (c->input(k) && knownRank(c->input(k)).value_or(1) != 0) return nullptr;
      } else if (binaryOps().count(c->opType) && c->inputs().size() == 2) {
        ir::Value* other = c->input(1 - slot);
        if (!constantTensor(other)) {
          ir::Node* ot = other->producer();
          if (!isTransposeWith(ot, perm) || soleConsumer(other) != c) return nullptr;
        } else if (constantTensor(other)->dims.size() > perm.size()) {
          return nullptr;
        }
      } else {
        return nullptr;
      }
      chain.push_back({c, slot});
      cur = c->output(0);
    }
    return nullptr;
  }

  static bool rewrite(Rewriter& rw, ir::Node* t1, ir::Node* t2, const std::vector<int64_t>& perm,
                      const std::vector<Step>& chain, std::unordered_set<const ir::Node*>& removed) {
    // Transpose every constant operand first, so a failure leaves the graph untouched.
    const auto inv = inverse(perm);
    std::vector<std::pair<Step, ir::Tensor>> constants;
    for (const Step& s : chain) {
      if (s.node->inputs().size() != 2 || !binaryOps().count(s.node->opType)) continue;
      const ir::Tensor* c = constantTensor(s.node->input(1 - s.slot));
      if (!c) continue;
      try {
        ir::Tensor padded = *c;  // shares the bytes
        while (padded.dims.size() < perm.size()) padded.dims.insert(padded.dims.begin(), 1);
        constants.push_back({s, eval::transposeBytes(padded, inv)});
      } catch (const eval::RunError&) {
        return false;
      }
    }
    ir::Value* out = t2->output(0);
    ir::Value* last = chain.back().node->output(0);
    if (rw.pinned(out) && !(last->producer() && !rw.pinned(last))) return false;
    for (auto& [s, t] : constants)
      s.node->setInput(1 - s.slot, rw.addConstant(std::move(t), s.node->input(1 - s.slot)->name() + "_t"));
    for (const Step& s : chain) {
      if (s.node->inputs().size() == 2 && binaryOps().count(s.node->opType)) {
        ir::Value* other = s.node->input(1 - s.slot);
        if (ir::Node* ot = other->producer(); isTransposeWith(ot, perm) && ot != t1) {
          s.node->setInput(1 - s.slot, ot->input(0));
          removed.insert(ot);
          rw.erase(ot);
        }
      }
      // The chain's values now hold the untransposed layout; their inferred shapes no longer apply.
      s.node->output(0)->type.shape.reset();
      s.node->origins = mergeOrigins({s.node, t1, t2});
    }
    chain.front().node->setInput(chain.front().slot, t1->input(0));
    if (t1->output(0)->uses().empty() && !rw.pinned(t1->output(0))) {
      removed.insert(t1);
      rw.erase(t1);
    }
    removed.insert(t2);
    return rw.bypass(t2);  // cannot fail: `last` is an ordinary intermediate (checked above)
  }
};

}  // namespace
void registerPushTransposesThroughElementwise(bool inDefault) {
  registerPass<PushTransposesThroughElementwise>(inDefault);
}
}  // namespace fb::passes
