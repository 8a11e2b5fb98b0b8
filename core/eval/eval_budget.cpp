#include "eval/eval_budget.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace fb::eval {
namespace {

thread_local BudgetScope* current = nullptr;
constexpr uint64_t kBytesPerElement = 8;  // arrays hold double or int64

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

uint64_t saturatingProduct(uint64_t a, uint64_t b) {
  uint64_t p = 0;
  return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

EvalBudget defaultEvalBudget() {
  EvalBudget b;
  const char* env = std::getenv("FLOWBRIDGE_FOLD_BUDGET_MB");
  if (!env || !*env) return b;
  char* end = nullptr;
  const unsigned long long first = std::strtoull(env, &end, 10);
  unsigned long long second = first;
  if (*end == ',') second = std::strtoull(end + 1, &end, 10);
  if (*end != '\0' || first > (1ull << 30) || second > (1ull << 30)) return b;  // not a budget: keep the defaults
  b.maxArrayBytes = static_cast<uint64_t>(first) << 20;
  b.maxTotalBytes = static_cast<uint64_t>(second) << 20;
  return b;
}

BudgetScope::BudgetScope(EvalBudget b) : budget_(std::move(b)), outer_(current) { current = this; }
BudgetScope::~BudgetScope() { current = outer_; }

void chargeArray(uint64_t elements) {
  BudgetScope* s = current;
  if (!s) return;
  if (elements > s->budget_.maxArrayElements)
    throw OverBudget("a " + std::to_string(elements) + "-element array is over this fold's budget of " +
                     std::to_string(s->budget_.maxArrayElements) + " elements per array");
  const uint64_t bytes = saturatingProduct(elements, kBytesPerElement);
  if (bytes > s->budget_.maxArrayBytes)
    throw OverBudget("a " + std::to_string(elements) + "-element array is over the constant-folding budget of " +
                     mib(s->budget_.maxArrayBytes) + " per array (FLOWBRIDGE_FOLD_BUDGET_MB)");
  if (bytes > s->budget_.maxTotalBytes - std::min(s->used_, s->budget_.maxTotalBytes))
    throw OverBudget("evaluating this node needs more than the constant-folding budget of " +
                     mib(s->budget_.maxTotalBytes) + " (FLOWBRIDGE_FOLD_BUDGET_MB)");
  s->used_ += bytes;
}

void chargeOperations(uint64_t operations) {
  BudgetScope* s = current;
  if (!s) return;
  if (operations > s->budget_.maxOperations - std::min(s->operations_, s->budget_.maxOperations))
    throw OverBudget("evaluating this node takes more than the constant-folding budget of " +
                     std::to_string(s->budget_.maxOperations) + " operations");
  s->operations_ += operations;
}

}  // namespace fb::eval
