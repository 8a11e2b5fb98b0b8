#include <mutex>

#include "passes/pass_registry.h"

namespace fb::passes {

// Each pass file provides its registration function; this list is the one place that names them all.
// Registration order is the default pipeline's order: constants and no-ops first, so the fusions see
// plain initializers; folding before the shape-op fusions; clean-up last.
void registerExtractConstantToInitializer(bool);
void registerEliminateIdentity(bool);
void registerEliminateNopDropout(bool);
void registerEliminateNopCast(bool);
void registerEliminateNopTranspose(bool);
void registerEliminateNopPad(bool);
void registerEliminateNopReshape(bool);
void registerEliminateNopArithmetic(bool);
void registerConstantFolding(bool);
void registerFoldReshapeOfOwnDims(bool);
void registerFuseConsecutiveTransposes(bool);
void registerPushTransposesThroughElementwise(bool);
void registerFuseConsecutiveSqueezes(bool);
void registerFuseConsecutiveUnsqueezes(bool);
void registerFuseConsecutiveReshapes(bool);
void registerFuseBnIntoConv(bool);
void registerFuseAddBiasIntoConv(bool);
void registerFusePadIntoConv(bool);
void registerFusePadIntoPool(bool);
void registerFuseMatMulAddBiasIntoGemm(bool);
void registerFuseTransposeIntoGemm(bool);
void registerMergeDuplicates(bool);
void registerEliminateDeadEnd(bool);
void registerEliminateDuplicateInitializer(bool);
void registerEliminateUnusedInitializer(bool);

void registerBuiltinPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerExtractConstantToInitializer(true);
    registerEliminateIdentity(true);
    registerEliminateNopDropout(true);
    registerEliminateNopCast(true);
    registerEliminateNopTranspose(true);
    registerEliminateNopPad(true);
    registerEliminateNopReshape(true);
    registerEliminateNopArithmetic(true);
    registerConstantFolding(true);
    registerFoldReshapeOfOwnDims(true);
    registerFuseConsecutiveTransposes(true);
    registerPushTransposesThroughElementwise(true);
    registerFuseConsecutiveSqueezes(true);
    registerFuseConsecutiveUnsqueezes(true);
    registerFuseConsecutiveReshapes(true);
    registerFuseBnIntoConv(true);
    registerFuseAddBiasIntoConv(true);
    registerFusePadIntoConv(true);
    registerFusePadIntoPool(true);
    registerFuseMatMulAddBiasIntoGemm(true);
    registerFuseTransposeIntoGemm(true);
    registerMergeDuplicates(true);
    registerEliminateDeadEnd(true);
    registerEliminateDuplicateInitializer(true);
    registerEliminateUnusedInitializer(true);
  });
}

}  // namespace fb::passes
