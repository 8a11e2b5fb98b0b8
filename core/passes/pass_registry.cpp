#include "passes/pass_registry.h"

namespace fb::passes {

PassRegistry& PassRegistry::instance() {
  static PassRegistry r;
  return r;
}

void PassRegistry::add(PassInfo info) {
  for (auto& p : passes_)
    if (p.name == info.name) {
      p = std::move(info);
      return;
    }
  passes_.push_back(std::move(info));
}

const std::vector<PassInfo>& PassRegistry::all() const {
  registerBuiltinPasses();
  return passes_;
}

const PassInfo* PassRegistry::find(const std::string& name) const {
  registerBuiltinPasses();
  for (const auto& p : passes_)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> PassRegistry::defaultPipeline() const {
  registerBuiltinPasses();
  std::vector<std::string> out;
  for (const auto& p : passes_)
    if (p.inDefaultPipeline) out.push_back(p.name);
  return out;
}

}  // namespace fb::passes
