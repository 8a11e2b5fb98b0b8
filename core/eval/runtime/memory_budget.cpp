#include "eval/runtime/memory_budget.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace fb::eval {

namespace {
thread_local MemoryBudgetScope* tCurrent = nullptr;
}

MemoryBudgetScope::MemoryBudgetScope(std::shared_ptr<MemoryBudget> b) : budget_(std::move(b)), outer_(tCurrent) {
  tCurrent = this;
}

MemoryBudgetScope::~MemoryBudgetScope() { tCurrent = outer_; }

std::shared_ptr<MemoryBudget> currentMemoryBudget() { return tCurrent ? tCurrent->budget_ : nullptr; }

uint64_t defaultRunMemoryBytes() {
  if (const char* e = std::getenv("FLOWBRIDGE_RUN_MEMORY_MB")) {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(e, &end, 10);
    if (end && *end == '\0' && mb > 0 && mb < (1ull << 40)) return mb << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return uint64_t{4} << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2;
}

}  // namespace fb::eval
