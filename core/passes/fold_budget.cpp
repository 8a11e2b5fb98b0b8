#include "passes/fold_budget.h"

#include <algorithm>
#include <cstdlib>

#include "passes/pass.h"

namespace fb::passes {
namespace {

thread_local ModelFoldBudget* currentBudget = nullptr;

std::string mib(uint64_t bytes) {
  // Tenths, so that a limit of 64 MiB plus a 62 KB model does not read as a full 64 MiB.
  const uint64_t tenths = bytes / ((uint64_t{1} << 20) / 10);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

uint64_t saturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

FoldLimits FoldLimits::fromEnvironment() {
  FoldLimits l;
  const char* env = std::getenv("FLOWBRIDGE_FOLD_MODEL_BUDGET_MB");
  if (!env || !*env) return l;
  char* end = nullptr;
  const unsigned long long folded = std::strtoull(env, &end, 10);
  if (*end != ',') return l;
  const unsigned long long added = std::strtoull(end + 1, &end, 10);
  if (*end != '\0' || folded > (1ull << 30) || added > (1ull << 30)) return l;  // not a budget: the defaults
  l.foldedBytes = static_cast<uint64_t>(folded) << 20;
  l.addedBytes = static_cast<uint64_t>(added) << 20;
  return l;
}

uint64_t modelTensorBytes(const ir::Model& m) {
  uint64_t total = 0;
  // graphsInnermostFirst wants a mutable graph; nothing here writes to it.
  for (const ir::Graph* g : graphsInnermostFirst(const_cast<ir::Graph&>(m.graph()))) {
    for (const auto& t : g->initializers()) total = saturatingAdd(total, t->expectedBytes());
    for (const auto& n : g->nodes())
      if (n->opType == "Constant")
        if (const ir::Attribute* a = n->attr("value"); a && !a->tensors.empty())
          total = saturatingAdd(total, a->tensors[0].expectedBytes());
  }
  return total;
}

ModelFoldBudget::ModelFoldBudget(const ir::Model& m, const FoldLimits& limits) {
  const uint64_t own = modelTensorBytes(m);
  foldedLimit_ = saturatingAdd(limits.foldedBytes, own);
  addedLimit_ = saturatingAdd(limits.addedBytes, own);
}

uint64_t ModelFoldBudget::elementsLeft(uint64_t inputBytes) const {
  return std::min(foldedLimit_ - folded_, saturatingAdd(addedLimit_ - added_, inputBytes));
}

// The texts name no running totals: a node refused in two rounds gets the same warning, which the report keeps once.
std::string ModelFoldBudget::refusal(uint64_t resultBytes, uint64_t inputBytes) const {
  const uint64_t grows = resultBytes > inputBytes ? resultBytes - inputBytes : 0;
  if (grows > addedLimit_ - added_)
    return "its result (" + mib(resultBytes) + ") would take the model past the " + mib(addedLimit_) +
           " the folds may add to it (the model's constant-folding budget, FLOWBRIDGE_FOLD_MODEL_BUDGET_MB)";
  if (resultBytes > foldedLimit_ - folded_)
    return "its result (" + mib(resultBytes) + ") would take the folds past the " + mib(foldedLimit_) +
           " they may create in this model (the model's constant-folding budget, FLOWBRIDGE_FOLD_MODEL_BUDGET_MB)";
  return {};
}

std::string ModelFoldBudget::spent() const {
  return "its arrays would be larger than what is left of the model's constant-folding budget (" + mib(addedLimit_) +
         " the folds may add to the model, " + mib(foldedLimit_) + " they may create; FLOWBRIDGE_FOLD_MODEL_BUDGET_MB)";
}

void ModelFoldBudget::charge(uint64_t resultBytes, uint64_t inputBytes) {
  folded_ = saturatingAdd(folded_, resultBytes);
  added_ = saturatingAdd(added_, resultBytes > inputBytes ? resultBytes - inputBytes : 0);
}

ModelFoldBudget* ModelFoldBudget::current() { return currentBudget; }

ModelFoldBudget::Scope::Scope(ModelFoldBudget& b) : outer_(currentBudget) { currentBudget = &b; }
ModelFoldBudget::Scope::~Scope() { currentBudget = outer_; }

}  // namespace fb::passes
