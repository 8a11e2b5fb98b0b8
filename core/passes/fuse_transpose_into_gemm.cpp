// A 2-D Transpose feeding Gemm's A or B is Gemm's own transA/transB flag.
#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

bool isSwap2d(const ir::Node& t) {
  auto perm = t.attrInts("perm");
  if (perm.empty()) return knownRank(t.input(0)) == 2u;
  return perm == std::vector<int64_t>{1, 0};
}

class FuseTransposeIntoGemm final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_transpose_into_gemm"; }
  std::string_view description() const override { return "Fold a 2-D Transpose of Gemm's A or B into transA/transB"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Transpose"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Gemm"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* gemm : nodesToVisit(g)) {
      if (gemm->opType != "Gemm" || !gemm->isDefaultDomain()) continue;
      for (int k = 0; k < 2; ++k) {
        ir::Value* v = gemm->input(k);
        ir::Node* t = v ? v->producer() : nullptr;
        if (!t || t->opType != "Transpose" || !t->isDefaultDomain() || !t->input(0) || !isSwap2d(*t)) continue;
        const char* flag = k == 0 ? "transA" : "transB";
        gemm->setAttr(ir::Attribute::makeInt(flag, gemm->attrInt(flag, 0) ? 0 : 1));
        gemm->setInput(k, t->input(0));
        gemm->origins = mergeOrigins({gemm, t});
        rw.change.other = true;
        if (v->uses().empty() && !rw.pinned(v)) rw.erase(t);
      }
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseTransposeIntoGemm(bool inDefault) { registerPass<FuseTransposeIntoGemm>(inDefault); }
}  // namespace fb::passes
