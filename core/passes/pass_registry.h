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
  // The built-in passes are registered on first use of any lookup below.
  static PassRegistry& instance();
  void add(PassInfo info);
  const std::vector<PassInfo>& all() const;
  const PassInfo* find(const std::string& name) const;
  // Names of the default pipeline, in order.
  std::vector<std::string> defaultPipeline() const;

 private:
  std::vector<PassInfo> passes_;
};

// Registers every built-in pass (idempotent). Explicit, so a static library cannot drop registrations.
void registerBuiltinPasses();

}  // namespace fb::passes

namespace fb::passes {

// Registers pass class `P` under its own name and description.
template <class P>
void registerPass(bool inDefaultPipeline) {
  P probe;
  PassRegistry::instance().add({std::string(probe.name()), std::string(probe.description()), inDefaultPipeline,
                                [] { return std::unique_ptr<Pass>(new P()); }});
}

}  // namespace fb::passes
