#include "eval/eval_budget.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "eval/array.h"

namespace fb::eval {
namespace {

thread_local BudgetScope* current = nullptr;
constexpr uint64_t kBytesPerElement = 8;  // arrays hold double or int64

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

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

BudgetScope::BudgetScope(EvalBudget b) : budget_(b), outer_(current) { current = this; }
BudgetScope::~BudgetScope() { current = outer_; }

void chargeArray(uint64_t elements) {
  BudgetScope* s = current;
  if (!s) return;
  const uint64_t bytes = elements > UINT64_MAX / kBytesPerElement ? UINT64_MAX : elements * kBytesPerElement;
  if (bytes > s->budget_.maxArrayBytes)
    throw Unsupported("a " + std::to_string(elements) + "-element array is over the constant-folding budget of " +
                      mib(s->budget_.maxArrayBytes) + " per array (FLOWBRIDGE_FOLD_BUDGET_MB)");
  if (bytes > s->budget_.maxTotalBytes - std::min(s->used_, s->budget_.maxTotalBytes))
    throw Unsupported("evaluating this node needs more than the constant-folding budget of " +
                      mib(s->budget_.maxTotalBytes) + " (FLOWBRIDGE_FOLD_BUDGET_MB)");
  s->used_ += bytes;
}

}  // namespace fb::eval
