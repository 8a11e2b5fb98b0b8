#pragma once
// What constant folding may do to a whole model in one pipeline run (one conversion): every round of the pass
// manager and every If/Loop/Scan body draw on the same budget. The per-node budget (eval/eval_budget.h) bounds
// one evaluation; it does not bound 600 folds of 4 MiB each, which made a 62 KB model a 2.4 GB one. Two totals:
//  - bytes folded: every tensor a fold creates, whether a later fold or pass drops it again (the run's memory and
//    time: a chain of folds over one large constant holds every link until the unused ones are removed);
//  - bytes added: how much the folds grow the model, a result's bytes beyond those of its constant inputs (which
//    go when the fold was their only reader; when they stay, the bytes-folded total still bounds the growth).
// A fold that does not fit leaves its node as it is, with the reason in the pass's warnings (the report).
//
// Defaults: 256 MiB folded and 64 MiB added, each plus the bytes of the model's own tensors when the run starts.
// The fixed parts are what a model without weights may need (shape arithmetic is bytes; a causal mask of 2048 x
// 2048 floats is 16 MiB); the model's own part lets a large model fold its weights (Transposes of weight
// matrices are as large as the weights and add nothing) while a model of a few kilobytes cannot reach more than
// some tens of megabytes. FLOWBRIDGE_FOLD_MODEL_BUDGET_MB="FOLDED,ADDED" (MiB) overrides the fixed parts.
#include <cstdint>
#include <string>

#include "ir/model.h"

namespace fb::passes {

struct FoldLimits {
  uint64_t foldedBytes = uint64_t{256} << 20;
  uint64_t addedBytes = uint64_t{64} << 20;
  // The defaults, or FLOWBRIDGE_FOLD_MODEL_BUDGET_MB when set and valid.
  static FoldLimits fromEnvironment();
};

// The bytes of a model's tensors: initializers and Constant nodes' values, in every graph.
uint64_t modelTensorBytes(const ir::Model& m);

class ModelFoldBudget {
 public:
  ModelFoldBudget(const ir::Model& m, const FoldLimits& limits);
  uint64_t foldedLimit() const { return foldedLimit_; }
  uint64_t addedLimit() const { return addedLimit_; }
  uint64_t folded() const { return folded_; }
  uint64_t added() const { return added_; }

  // The most elements a result computed from constants of `inputBytes` may have and still fit (a tensor holds at
  // least one byte per element): evaluation stops at a larger array before allocating it.
  uint64_t elementsLeft(uint64_t inputBytes) const;
  // Empty when results of `resultBytes` computed from constants of `inputBytes` fit, otherwise why they do not.
  std::string refusal(uint64_t resultBytes, uint64_t inputBytes) const;
  // Why an array over elementsLeft() was refused.
  std::string spent() const;
  // Records a fold that refusal() let through.
  void charge(uint64_t resultBytes, uint64_t inputBytes);

  // The budget of the pipeline run in progress on this thread (PassManager::run sets one), or null.
  static ModelFoldBudget* current();
  class Scope {
   public:
    explicit Scope(ModelFoldBudget& b);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    ModelFoldBudget* outer_;
  };

 private:
  uint64_t foldedLimit_, addedLimit_;
  uint64_t folded_ = 0, added_ = 0;
};

}  // namespace fb::passes
