// Reshape(x, Concat(..., Unsqueeze(Gather(Shape(y), i)), ...)) where the gathered dim is symbolic and, by
// shape inference, the very dim of x at that position (the same named dim, "batch"): the position may say 0,
// "copy x's dim", and the target becomes a constant. PyTorch writes `x.view(x.size(0), 768, -1)` with a dynamic
// batch this way; constant folding cannot, the dim having no value. Only dims named in the file (not libonnx's
// generated `unk__N`) count as the same, and only where Reshape reads 0 as "copy" (allowzero unset).
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

// The named symbolic dim a one-element value takes from a Shape: Gather(Shape(y), i) with a scalar or
// one-element i, possibly under Unsqueeze(axes [0]).
std::optional<std::string> symbolicDimOf(const ir::Value* v) {
  const ir::Node* p = v ? v->producer() : nullptr;
  if (p && p->opType == "Unsqueeze" && p->isDefaultDomain()) {
    auto axes = p->inputs().size() > 1 ? constantInts(p->input(1)) : std::optional(p->attrInts("axes"));
    if (!axes || *axes != std::vector<int64_t>{0} || !p->input(0) || knownRank(p->input(0)).value_or(1) != 0)
      return std::nullopt;
    p = p->input(0)->producer();
  }
  if (!p || p->opType != "Gather" || !p->isDefaultDomain() || p->attrInt("axis", 0) != 0 || !p->input(0))
    return std::nullopt;
  auto idx = constantInts(p->input(1));
  const ir::Node* shape = p->input(0)->producer();
  if (!idx || idx->size() != 1 || !shape || shape->opType != "Shape" || !shape->isDefaultDomain()) return std::nullopt;
  if (shape->attrInt("start", 0) != 0 || shape->hasAttr("end")) return std::nullopt;
  const ir::Value* y = shape->input(0);
  if (!y || !y->type.isTensor() || !y->type.shape) return std::nullopt;
  const auto& dims = *y->type.shape;
  int64_t k = (*idx)[0];
  if (k < 0) k += static_cast<int64_t>(dims.size());
  if (k < 0 || k >= static_cast<int64_t>(dims.size())) return std::nullopt;
  const ir::Dim& d = dims[static_cast<size_t>(k)];
  if (d.kind != ir::Dim::Kind::Param || d.param.empty() || d.param.rfind("unk__", 0) == 0) return std::nullopt;
  return d.param;
}

class FoldReshapeOfOwnDims final : public GraphPass {
 public:
  std::string_view name() const override { return "fold_reshape_of_own_dims"; }
  std::string_view description() const override {
    return "Reshape targets built from the input's own symbolic dims become constants (0 copies the dim)";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Shape"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Reshape"}; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    if (rw.opset() < 5) return rw.change;  // the target became an input in Reshape-5
    for (ir::Node* n : nodeList(g)) {
      if (n->opType != "Reshape" || !n->isDefaultDomain() || n->inputs().size() != 2 || n->attrInt("allowzero", 0))
        continue;
      const ir::Value* x = n->input(0);
      const ir::Node* concat = n->input(1) ? n->input(1)->producer() : nullptr;
      if (!x || !x->type.isTensor() || !x->type.shape || !concat || concat->opType != "Concat" ||
          !concat->isDefaultDomain())
        continue;
      const auto& xDims = *x->type.shape;
      std::vector<int64_t> target;
      bool ok = true, copied = false;
      for (const ir::Value* piece : concat->inputs()) {
        if (auto c = constantInts(piece)) {
          target.insert(target.end(), c->begin(), c->end());
          continue;
        }
        auto sym = symbolicDimOf(piece);
        const size_t at = target.size();
        if (!sym || at >= xDims.size() || xDims[at].kind != ir::Dim::Kind::Param || xDims[at].param != *sym) {
          ok = false;
          break;
        }
        target.push_back(0);
        copied = true;
      }
      if (!ok || !copied) continue;
      ir::Value* shape = rw.addConstant(
          ir::Tensor::fromValues<int64_t>("", ir::DataType::Int64, {static_cast<int64_t>(target.size())}, target),
          n->input(1)->name() + "_own_dims");
      n->setInput(1, shape);
      rw.change.other = true;
    }
    return rw.change;
  }
};

}  // namespace
void registerFoldReshapeOfOwnDims(bool inDefault) { registerPass<FoldReshapeOfOwnDims>(inDefault); }
}  // namespace fb::passes
