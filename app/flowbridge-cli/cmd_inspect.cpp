#include <iostream>
#include <memory>

#include "commands.h"
#include "formats/model_io.h"
#include "inspect/model_summary.h"
#include "util/printable.h"

namespace fb::cli {

void registerInspect(CLI::App& app, Runner& run) {
  struct Opts {
    std::string model;
    bool json = false;
  };
  auto opts = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("inspect", "Summarize a model: metadata, inputs/outputs, operator counts, parameters");
  sub->add_option("MODEL", opts->model, "model file (.onnx)")->required();
  sub->add_flag("--json", opts->json, "print one JSON object instead of text");
  sub->callback([&run, opts] {
    run = [opts] {
      currentInput() = opts->model;
      auto model = loadModel(opts->model);
      currentStep() = "summarizing the model";
      auto summary = summarize(*model);
      if (opts->json)
        std::cout << dumpJson(toJson(summary)) << "\n";
      else
        std::cout << printableLines(toText(summary));
      return kOk;
    };
  });
}

}  // namespace fb::cli
