#pragma once
// Constant folding evaluates what a file describes in a few bytes (ConstantOfShape [40000, 40000], a Range to
// 3e9, an Expand, an Add of [16000, 1] and [1, 16000]): without a limit a 128 KB model reaches gigabytes. Every
// array the evaluator creates (inputs converted from tensors, kernel results, copies) is charged against a budget
// *before* it is allocated, with its size computed in overflow-checked arithmetic; over budget, evaluation stops
// with eval::OverBudget and the node stays as it is. Kernels whose work grows faster than their arrays (MatMul,
// Conv, pooling windows) charge their multiply-adds as well: a few kilobytes of constants must not take minutes.
//
// Defaults: 64 MiB per array, 256 MiB for all arrays of one node's evaluation (arrays hold 8 bytes per element)
// and 2^26 operations per node (about a second for the slowest kernel, Conv). The environment variable
// FLOWBRIDGE_FOLD_BUDGET_MB overrides the two sizes: "PER_ARRAY,TOTAL" or one number for both (in MiB).
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fb::eval {

// What a charge over the budget throws: the fold stops and the node stays as it is (the message says why).
class OverBudget : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct EvalBudget {
  uint64_t maxArrayBytes = uint64_t{64} << 20;
  uint64_t maxTotalBytes = uint64_t{256} << 20;
  uint64_t maxOperations = uint64_t{1} << 26;
  // A limit set from outside the evaluation, in elements per array (constant folding's: no larger result is
  // kept, and what is left of the whole model's folding budget, passes/fold_budget.h).
  uint64_t maxArrayElements = UINT64_MAX;
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
  friend void chargeOperations(uint64_t operations);
  EvalBudget budget_;
  uint64_t used_ = 0;
  uint64_t operations_ = 0;
  BudgetScope* outer_;
};

// Throws OverBudget("... over the constant-folding budget ...") when an array of `elements` would not fit.
void chargeArray(uint64_t elements);
// Throws OverBudget("... over the constant-folding budget ...") when `operations` more would not fit.
void chargeOperations(uint64_t operations);

// a * b, or UINT64_MAX when it overflows: for charging sizes that may be absurd before refusing them.
uint64_t saturatingProduct(uint64_t a, uint64_t b);

}  // namespace fb::eval
