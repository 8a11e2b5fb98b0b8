#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "eval/runtime/run.h"
#include "eval/verify/reproducer.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "passes/value_types.h"
#include "run_values.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::cli {

namespace {

namespace fs = std::filesystem;

}  // namespace

void registerExtract(CLI::App& app, Runner& run) {
  struct Opts {
    std::string model, output, withData;
    std::vector<std::string> outputs, inputs, runInputs, dims;
    uint64_t seed = 1;
    int threads = 0;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "extract", "Cut the subgraph computing some values from others into a model of its own (a reproducer)");
  sub->add_option("MODEL", o->model, "model (.onnx)")->required();
  sub->add_option("--outputs", o->outputs, "values the subgraph computes (comma-separated)")
      ->required()
      ->delimiter(',');
  sub->add_option("--inputs", o->inputs, "values it starts from (comma-separated; default: the graph inputs needed)")
      ->delimiter(',');
  sub->add_option("-o,--output", o->output, "the subgraph (.onnx); never the input")->required();
  sub->add_option("--with-data", o->withData,
                  "run the model and write the subgraph's inputs and expected outputs as "
                  "DIR/test_data_set_0/input_<k>.pb and output_<k>.pb");
  sub->add_option("--input", o->runInputs, "for --with-data: NAME=FILE.npy|.pb for a model input; others random");
  sub->add_option("--dims", o->dims, "for --with-data: SYMBOL=N, the size of a symbolic dim (default 1)");
  sub->add_option("--seed", o->seed, "for --with-data: seed of the random inputs")->capture_default_str();
  sub->add_option("--threads", o->threads, "threads (0: every core)")->check(CLI::Range(0, 1024));
  sub->callback([&run, o] {
    run = [o] {
      currentInput() = o->model;
      const auto dims = parseDims(o->dims);
      ensureWritableOutput(o->output, {o->model});
      auto model = loadModel(o->model);
      ensureWritableOutput(o->output, model->sourceFiles);
      for (const auto* list : {&o->outputs, &o->inputs})
        for (const auto& name : *list) {
          const ir::Value* v = model->graph().findValue(name);
          if (!v || v->isUndefined())
            throw UsageError(o->model + ": the model has no value '" + name + "' (--outputs/--inputs)");
        }
      currentStep() = "inferring the types of the values";
      passes::refreshValueTypes(*model);

      std::map<std::string, eval::Value> values;
      std::vector<std::string> ends = o->outputs;
      ends.insert(ends.end(), o->inputs.begin(), o->inputs.end());
      if (!o->withData.empty()) {
        std::error_code ec;
        if (fs::exists(o->withData, ec) && !fs::is_directory(o->withData, ec))
          throw OutputError(o->withData + ": --with-data must be a folder");
        currentStep() = "reading the inputs";
        const auto given = readInputSpecs(*model, o->runInputs);
        auto inputs = eval::makeInputs(*model, given, dims, o->seed);
        for (const auto& note : inputs.notes) std::cout << "  " << note << "\n";
        eval::RunOptions ro;
        ro.threads = o->threads;
        currentStep() = "running the model";
        values = eval::runKeeping(*model, std::move(inputs.values), ends, ro);
        eval::typeFromRun(*model, ends, values);
      }

      currentStep() = "extracting the subgraph";
      std::unique_ptr<ir::Model> cut;
      try {
        cut = eval::cutReproducer(*model, o->outputs, o->inputs, o->output);
      } catch (const std::invalid_argument& e) {
        throw UsageError(o->model + ": " + e.what());
      } catch (const eval::ReproducerCheckFailed& e) {
        for (const auto& line : e.lines()) std::cerr << "flowbridge-cli: " << printable(line) << "\n";
        throw InputError(o->model, e.what());
      }
      currentStep() = "writing " + o->output + (o->withData.empty() ? "" : " and " + o->withData);
      const eval::ReproducerFiles files = eval::writeReproducer(*model, *cut, values, o->output, o->withData);
      std::cout << printable(o->model) << ": " << cut->graph().nodeCount() << " of " << model->graph().nodeCount()
                << " nodes, " << cut->graph().inputs().size() << " inputs, " << cut->graph().outputs().size()
                << " outputs; written to " << printable(o->output);
      if (files.pbFiles)
        std::cout << " and " << files.pbFiles << " .pb files to "
                  << printable((fs::path(o->withData) / "test_data_set_0").string());
      std::cout << "\n";
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
