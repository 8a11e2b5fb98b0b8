#include <iostream>
#include <memory>

#include "commands.h"
#include "diff/diff_report.h"
#include "diff/model_diff.h"
#include "eval/verify/model_compare.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "util/printable.h"

namespace fb::cli {

// `flowbridge-cli diff A B [--json] [--weights] [--max-rows N]`: the structural difference of two models.
void registerDiff(CLI::App& app, Runner& run) {
  struct Opts {
    std::string a, b;
    bool json = false, weights = false, ignoreNames = false, runBoth = false;
    size_t maxRows = 40;
    uint64_t seed = 1;
    double atol = 1e-4, rtol = 1e-3;
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
  sub->add_flag("--run", o->runBoth,
                "also run both models on FlowBridge's evaluator on the same seeded inputs and compare their outputs "
                "by position (largest absolute and relative difference per output)");
  sub->add_option("--seed", o->seed, "with --run: seed of the random inputs")->capture_default_str();
  sub->add_option("--atol", o->atol, "with --run: absolute tolerance")->capture_default_str();
  sub->add_option("--rtol", o->rtol, "with --run: relative tolerance")->capture_default_str();
  sub->footer(
      "Nodes without a name are shown under the name FlowBridge gives them everywhere: <Op>#<id>.\n"
      "Exit codes: 0 the models are the same (names of nodes and values aside; with --run, and their outputs agree),\n"
      "5 they differ, 1 usage error, 2 a model cannot be read (or, with --run, cannot run), 3 the evaluator lacks a\n"
      "kernel for a node of one of them.");
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
      std::vector<eval::ComparedValue> outputs;
      if (o->runBoth) {
        currentStep() = "running both models";
        auto inputs = eval::makeInputs(*a, {}, {}, o->seed).values;
        for (auto& [name, value] : eval::makeInputs(*b, {}, {}, o->seed).values) inputs.emplace(name, value);
        outputs = eval::compareOutputs(*a, *b, inputs, eval::Tolerance{o->atol, o->rtol}, {}, o->a, o->b);
      }
      bool outputsAgree = true;
      for (const auto& c : outputs) outputsAgree = outputsAgree && c.diff.agree;
      if (o->json) {
        auto j = diff::diffJson(d, o->a, o->b);
        if (o->runBoth) {
          auto& run = j["run"] = nlohmann::json::array();
          for (const auto& c : outputs)
            run.push_back({{"a", c.aValue},
                           {"b", c.bValue},
                           {"agree", c.diff.agree},
                           {"max_abs_diff", c.diff.maxAbs},
                           {"max_rel_diff", c.diff.maxRel},
                           {"mismatch", c.diff.mismatch}});
        }
        std::cout << dumpJson(j) << "\n";
      } else {
        std::cout << diff::diffText(d, o->a, o->b, {o->maxRows, o->weights});  // escaped line by line
        if (o->runBoth) {
          std::cout << "run on the same seeded inputs (seed " << o->seed << "): outputs "
                    << (outputsAgree ? "agree" : "differ") << "\n";
          for (const auto& c : outputs)
            std::cout << "  " << printable(c.aValue) << " / " << printable(c.bValue) << ": " << eval::toText(c.diff)
                      << (c.diff.agree ? "" : "  (outside the tolerance)") << "\n";
        }
      }
      return d.same() && outputsAgree ? int(kOk) : int(kModelsDiffer);
    };
  });
}

}  // namespace fb::cli
