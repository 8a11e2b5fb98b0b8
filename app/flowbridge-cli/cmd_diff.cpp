#include <iostream>
#include <memory>

#include "commands.h"
#include "diff/diff_report.h"
#include "diff/model_diff.h"
#include "formats/model_io.h"

namespace fb::cli {

// `flowbridge-cli diff A B [--json] [--weights] [--max-rows N]`: the structural difference of two models.
void registerDiff(CLI::App& app, Runner& run) {
  struct Opts {
    std::string a, b;
    bool json = false, weights = false, ignoreNames = false;
    size_t maxRows = 40;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "diff", "Compare two models: nodes paired by structure (names are not trusted), weights, inputs/outputs, opsets");
  sub->add_option("A", o->a, "first model")->required();
  sub->add_option("B", o->b, "second model")->required();
  sub->add_flag("--json", o->json,
                "print one JSON object with every node pair and every weight pair (nodes without a name are "
                "called as FlowBridge shows them: Op#id)");
  sub->add_flag("--weights", o->weights,
                "list every weight that differs with its largest absolute and relative difference");
  sub->add_flag("--ignore-names", o->ignoreNames, "pair nodes and weights by structure and content alone");
  sub->add_option("--max-rows", o->maxRows, "rows of changes the text shows (default 40)")
      ->check(CLI::Range(size_t(0), size_t(1) << 40));
  sub->footer(
      "Nodes without a name are shown under the name FlowBridge gives them everywhere: <Op>#<id>.\n"
      "Exit codes: 0 the models are the same (names of nodes and values aside), 5 they differ, 1 usage error,\n"
      "2 a model cannot be read.");
  sub->callback([&run, o] {
    run = [o] {
      currentInput() = o->a;
      auto a = loadModel(o->a);
      currentInput() = o->b;
      auto b = loadModel(o->b);
      currentInput().clear();
      currentStep() = "comparing the models";
      diff::DiffOptions opts;
      opts.match.useNames = !o->ignoreNames;
      const auto d = diff::diffModels(*a, *b, opts);
      if (o->json)
        std::cout << dumpJson(diff::diffJson(d, o->a, o->b)) << "\n";
      else
        std::cout << diff::diffText(d, o->a, o->b, {o->maxRows, o->weights});  // escaped line by line
      return d.same() ? int(kOk) : int(kModelsDiffer);
    };
  });
}

}  // namespace fb::cli
