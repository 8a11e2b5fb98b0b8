// MatMul(A, B) + C is Gemm(A, B, C) when A and B are 2-D (Gemm is 2-D only; batched MatMul is not)
// and C broadcasts to the [M, N] result without growing it.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class FuseMatMulAddBiasIntoGemm final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_matmul_add_bias_into_gemm"; }
  std::string_view description() const override { return "Turn 2-D MatMul followed by Add of a bias into Gemm"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"MatMul"}); }
  std::vector<std::string_view> anchorOps() const override { return {"MatMul"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    if (rw.opset() < 7) return rw.change;  // Gemm broadcasts C only from opset 7
    for (ir::Node* add : nodesToVisit(g)) {
      if (add->opType != "Add" || !add->isDefaultDomain() || add->inputs().size() != 2) continue;
      for (int side = 0; side < 2; ++side) {
        ir::Value* y = add->input(side);
        ir::Node* mm = y ? y->producer() : nullptr;
        if (!mm || mm->opType != "MatMul" || !mm->isDefaultDomain() || soleConsumer(y) != add) continue;
        ir::Value* c = add->input(1 - side);
        if (knownRank(mm->input(0)) != 2u || knownRank(mm->input(1)) != 2u) continue;
        auto bDims = staticDims(mm->input(1));
        auto cDims = staticDims(c);
        if (!bDims || !cDims || cDims->size() > 2) continue;
        auto et = mm->input(1)->initializer() ? mm->input(1)->initializer()->dtype : mm->input(1)->type.elemType;
        if (et != ir::DataType::Float && et != ir::DataType::Double) continue;
        const int64_t n = (*bDims)[1];
        std::optional<int64_t> mRows;
        if (auto aDims = staticDims(mm->input(0))) mRows = (*aDims)[0];
        // C must broadcast to [M, N]: its last dim is 1 or N, its first (if any) 1 or M.
        const auto& cd = *cDims;
        bool ok = cd.empty() || cd.back() == 1 || cd.back() == n;
        if (cd.size() == 2) ok = ok && (cd[0] == 1 || (mRows && cd[0] == *mRows));
        if (!ok) continue;
        ir::Node* gemm = rw.create("Gemm", {mm->input(0), mm->input(1), c}, {}, add, mergeOrigins({mm, add}));
        gemm->name = mm->name.empty() ? "" : mm->name + "_gemm";
        ir::Value* out = add->output(0);
        rw.erase(add);
        rw.erase(mm);
        g.setOutput(gemm, 0, out);
        break;
      }
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseMatMulAddBiasIntoGemm(bool inDefault) { registerPass<FuseMatMulAddBiasIntoGemm>(inDefault); }
}  // namespace fb::passes
