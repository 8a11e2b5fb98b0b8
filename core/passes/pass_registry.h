#pragma once
// The table of passes is data: the CLI prints it, the GUI lists it, the tests iterate over it.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "passes/pass.h"

namespace fb::passes {

struct PassInfo {
  std::string name;
  std::string description;
  bool inDefaultPipeline = false;
  std::function<std::unique_ptr<Pass>()> create;
};

class PassRegistry {
 public:
  static PassRegistry& instance();
  void add(PassInfo info);
  const std::vector<PassInfo>& all() const { return passes_; }
  const PassInfo* find(const std::string& name) const;
  // Names of the default pipeline, in order.
  std::vector<std::string> defaultPipeline() const;

 private:
  std::vector<PassInfo> passes_;
};

// Registers every built-in pass (idempotent). Explicit, so a static library cannot drop registrations.
void registerBuiltinPasses();

}  // namespace fb::passes
