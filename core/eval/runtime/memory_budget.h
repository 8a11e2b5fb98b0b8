#pragma once
// The memory a run may hold at once. Every tensor the evaluator allocates is charged before allocation (its size in
// overflow-checked arithmetic) and released when its last holder drops it, so a model of a few kilobytes that asks
// for a 40000 x 40000 ConstantOfShape stops with a one-line error instead of taking the machine's memory. The peak is
// what `run` and the benchmark report.
#include <atomic>
#include <cstdint>
#include <memory>

namespace fb::eval {

struct MemoryBudget {
  uint64_t maxLiveBytes = UINT64_MAX;
  std::atomic<uint64_t> live{0};
  std::atomic<uint64_t> peak{0};
};

// Charges go to the innermost scope on this thread; with none, allocations are not limited (constant folding has
// its own budget, eval_budget.h, which Tensor::empty charges as well).
class MemoryBudgetScope {
 public:
  explicit MemoryBudgetScope(std::shared_ptr<MemoryBudget> b);
  ~MemoryBudgetScope();
  MemoryBudgetScope(const MemoryBudgetScope&) = delete;
  MemoryBudgetScope& operator=(const MemoryBudgetScope&) = delete;

 private:
  std::shared_ptr<MemoryBudget> budget_;
  MemoryBudgetScope* outer_;
  friend std::shared_ptr<MemoryBudget> currentMemoryBudget();
};

// The innermost scope's budget on this thread, or null.
std::shared_ptr<MemoryBudget> currentMemoryBudget();

// The default for runs: half of the machine's physical memory (FLOWBRIDGE_RUN_MEMORY_MB overrides).
uint64_t defaultRunMemoryBytes();

}  // namespace fb::eval
