#pragma once
// Constant folding evaluates what a file describes in a few bytes (ConstantOfShape [40000, 40000], a Range to
// 3e9, an Expand): without a limit a 128 KB model reaches gigabytes. Every array the evaluator creates (inputs
// converted from tensors, kernel results) is charged against a budget *before* it is allocated; over budget,
// evaluation stops with eval::Unsupported and the node stays as it is.
//
// Defaults: 64 MiB per array and 256 MiB for all arrays of one node's evaluation (arrays hold 8 bytes per
// element). The environment variable FLOWBRIDGE_FOLD_BUDGET_MB overrides them: "PER_ARRAY,TOTAL" or one number
// for both (in MiB).
#include <cstdint>
#include <string>

namespace fb::eval {

struct EvalBudget {
  uint64_t maxArrayBytes = uint64_t{64} << 20;
  uint64_t maxTotalBytes = uint64_t{256} << 20;
};

// The defaults, or FLOWBRIDGE_FOLD_BUDGET_MB when set and valid.
EvalBudget defaultEvalBudget();

// Charges go to the innermost scope on this thread; with no scope, nothing is limited (the test oracle).
class BudgetScope {
 public:
  explicit BudgetScope(EvalBudget b);
  ~BudgetScope();
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
  uint64_t used() const { return used_; }

 private:
  friend void chargeArray(uint64_t elements);
  EvalBudget budget_;
  uint64_t used_ = 0;
  BudgetScope* outer_;
};

// Throws Unsupported("... over the constant-folding budget ...") when an array of `elements` would not fit.
void chargeArray(uint64_t elements);

}  // namespace fb::eval
