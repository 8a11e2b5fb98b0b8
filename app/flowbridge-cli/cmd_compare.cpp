#include <iostream>
#include <memory>

#include "commands.h"
#include "compare_text.h"
#include "eval/runtime/run.h"
#include "eval/verify/model_compare.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "run_values.h"
#include "util/printable.h"

namespace fb::cli {

void registerCompare(CLI::App& app, Runner& run) {
  struct Opts {
    std::string a, b, inputs;
    std::vector<std::string> dims;
    uint64_t seed = 1;
    double atol = 1e-4, rtol = 1e-3;
    bool json = false;
    int threads = 0;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "compare",
      "Run two models (a source and its conversion) on the same inputs, compare every value both compute, name the "
      "first node whose outputs diverge");
  sub->add_option("A", o->a, "reference model (.onnx)")->required();
  sub->add_option("B", o->b, "model to check (.onnx), e.g. A converted by flowbridge-cli convert")->required();
  sub->add_option("--inputs", o->inputs,
                  "folder of inputs: <input name>.npy or .pb, or input_<k>.pb (ONNX test_data_set layout); others "
                  "are random");
  sub->add_option("--dims", o->dims, "SYMBOL=N: the size of a symbolic dim in random inputs (default 1)");
  sub->add_option("--seed", o->seed, "seed of the random inputs")->capture_default_str();
  sub->add_option("--atol", o->atol, "absolute tolerance")->capture_default_str()->check(CLI::NonNegativeNumber);
  sub->add_option("--rtol", o->rtol, "relative tolerance (of |A's value|)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--threads", o->threads, "threads (0: every core)")->check(CLI::Range(0, 1024));
  sub->add_flag("--json", o->json, "print one JSON object");
  sub->callback([&run, o] {
    run = [o] {
      const auto dims = parseDims(o->dims);
      currentInput() = o->a;
      auto a = loadModel(o->a);
      currentInput() = o->b;
      auto b = loadModel(o->b);
      currentInput() = o->a;
      currentStep() = "reading the inputs";
      std::map<std::string, eval::Value> given;
      if (!o->inputs.empty()) given = readInputFolder(*a, o->inputs);
      auto inputs = eval::makeInputs(*a, given, dims, o->seed).values;
      // B may need inputs A does not (a conversion adds none, but any two models can be compared).
      for (auto& [name, value] : eval::makeInputs(*b, {}, dims, o->seed).values) inputs.emplace(name, value);
      eval::RunOptions ro;
      ro.threads = o->threads;
      currentInput().clear();  // the evaluator's errors name the model themselves
      currentStep() = "running both models";
      const auto cmp = eval::compareModels(*a, *b, inputs, eval::Tolerance{o->atol, o->rtol}, ro, o->a, o->b);
      const bool agree = cmp.disagreeing == 0;
      if (o->json) {
        std::cout << dumpJson(comparisonJson(cmp, o->a, o->b, eval::Tolerance{o->atol, o->rtol})) << "\n";
      } else {
        std::cout << printable(o->a) << " vs " << printable(o->b) << ": " << cmp.compared << " values compared ("
                  << (cmp.provenance ? "paired through the provenance B records" : "paired by value name") << "), "
                  << cmp.disagreeing << " outside atol " << o->atol << " + rtol " << o->rtol << " * |A|\n";
        for (const auto& out : cmp.outputs)
          std::cout << "  output " << printable(out.bValue) << ": " << eval::toText(out.diff) << "\n";
        if (cmp.firstDivergence) printDivergence(*cmp.firstDivergence, std::cout);
      }
      return agree ? int(kOk) : int(kDiverged);
    };
  });
}

}  // namespace fb::cli
