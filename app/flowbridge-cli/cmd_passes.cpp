#include <iomanip>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "passes/pass_registry.h"
#include "util/json_dump.h"

namespace fb::cli {

// `flowbridge-cli passes [--json]`: the optimizer passes, their one-line descriptions, and which of them
// make up the default pipeline (in its order).
void registerPasses(CLI::App& app, Runner& run) {
  struct Opts {
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("passes", "List the optimizer passes and the default pipeline");
  sub->add_flag("--json", opts->json, "print one JSON object instead of text");
  sub->callback([&run, opts] {
    run = [opts] {
      const auto& reg = passes::PassRegistry::instance();
      if (opts->json) {
        nlohmann::json j;
        j["passes"] = nlohmann::json::array();
        for (const auto& p : reg.all())
          j["passes"].push_back({{"name", p.name}, {"description", p.description}, {"default", p.inDefaultPipeline}});
        j["default_pipeline"] = reg.defaultPipeline();
        std::cout << dumpJson(j) << "\n";
        return kOk;
      }
      size_t width = 0;
      for (const auto& p : reg.all()) width = std::max(width, p.name.size());
      for (const auto& p : reg.all())
        std::cout << (p.inDefaultPipeline ? "* " : "  ") << std::left << std::setw(static_cast<int>(width) + 2)
                  << p.name << p.description << "\n";
      std::cout << "\n* in the default pipeline, which runs in this order until nothing changes\n";
      return kOk;
    };
  });
}

}  // namespace fb::cli
