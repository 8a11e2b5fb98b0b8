#include "passes/pass_manager.h"

#include <chrono>
#include <stdexcept>

#include "passes/pass_registry.h"

namespace fb::passes {

PassManager::PassManager(const std::vector<std::string>& names, size_t maxIterations) : maxIterations_(maxIterations) {
  registerBuiltinPasses();
  for (const auto& n : names) {
    const PassInfo* info = PassRegistry::instance().find(n);
    if (!info) throw std::invalid_argument("unknown pass '" + n + "' (flowbridge-cli passes lists them)");
    passes_.push_back(info->create());
  }
}

PassManagerResult PassManager::run(ir::Model& m) {
  using Clock = std::chrono::steady_clock;
  PassManagerResult r;
  auto start = Clock::now();
  r.nodesBefore = m.graph().nodeCount();
  for (const auto& p : passes_) r.perPass.push_back({std::string(p->name()), 0, 0, {}});
  r.reachedFixpoint = false;
  while (r.iterations < maxIterations_) {
    ++r.iterations;
    bool any = false;
    for (size_t i = 0; i < passes_.size(); ++i) {
      auto t0 = Clock::now();
      PassChange c = passes_[i]->run(m);
      auto& s = r.perPass[i];
      s.milliseconds += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      ++s.runs;
      s.total.nodesRemoved += c.nodesRemoved;
      s.total.nodesAdded += c.nodesAdded;
      s.total.initializersRemoved += c.initializersRemoved;
      s.total.initializersAdded += c.initializersAdded;
      s.total.other |= c.other;
      any |= c.changed();
    }
    if (!any) {
      r.reachedFixpoint = true;
      break;
    }
  }
  r.nodesAfter = m.graph().nodeCount();
  r.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return r;
}

}  // namespace fb::passes
