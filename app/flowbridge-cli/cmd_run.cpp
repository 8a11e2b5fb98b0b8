#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "eval/io/npy_file.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "run_values.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::cli {

void registerRun(CLI::App& app, Runner& run) {
  struct Opts {
    std::string model, saveOutputs;
    std::vector<std::string> inputs, dims, keep;
    uint64_t seed = 1;
    int threads = 0;
    int64_t maxIterations = 1 << 24;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "run", "Run a model on FlowBridge's own evaluator: each output's type, shape and min/max/mean");
  sub->add_option("MODEL", o->model, "model (.onnx)")->required();
  sub->add_option("--input", o->inputs, "NAME=FILE.npy or NAME=FILE.pb (ONNX TensorProto); others are random");
  sub->add_option("--dims", o->dims, "SYMBOL=N: the size of a symbolic dim in random inputs (default 1)");
  sub->add_option("--seed", o->seed, "seed of the random inputs")->capture_default_str();
  sub->add_option("--save-outputs", o->saveOutputs, "write each output (and kept value) as DIR/<value name>.npy");
  sub->add_option("--keep", o->keep, "also keep, print and save this intermediate value");
  sub->add_option("--threads", o->threads, "threads (0: every core)")->check(CLI::Range(0, 1024));
  sub->add_option("--max-iterations", o->maxIterations, "a Loop running longer than this is an error")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  sub->callback([&run, o] {
    run = [o] {
      currentInput() = o->model;
      const auto dims = parseDims(o->dims);
      auto model = loadModel(o->model);
      for (const auto& k : o->keep)
        if (!model->graph().findValue(k) || model->graph().findValue(k)->isUndefined())
          throw UsageError("--keep " + k + ": the model has no value '" + k + "'");
      // Every file is checked before the run, so a run that fails or an output that cannot go there leaves nothing.
      if (!o->saveOutputs.empty()) {
        std::error_code ec;
        if (std::filesystem::exists(o->saveOutputs, ec) && !std::filesystem::is_directory(o->saveOutputs, ec))
          throw OutputError(o->saveOutputs + ": --save-outputs must be a folder");
      }
      currentStep() = "reading the inputs";
      const auto given = readInputSpecs(*model, o->inputs);
      const auto inputs = eval::makeInputs(*model, given, dims, o->seed);
      eval::RunOptions ro;
      ro.threads = o->threads;
      ro.maxLoopIterations = o->maxIterations;
      if (!o->keep.empty()) {
        ro.keep = eval::RunOptions::Keep::Listed;
        ro.keepValues.insert(o->keep.begin(), o->keep.end());
      }
      currentStep() = "running the model";
      const auto start = std::chrono::steady_clock::now();
      const auto result = eval::runModel(*model, inputs.values, ro);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::cout << printable(o->model) << ": " << inputs.values.size() << " inputs (" << given.size()
                << " given, the others random with seed " << o->seed << "), " << static_cast<int64_t>(ms + 0.5)
                << " ms, peak " << ((result.peakBytes + (1 << 20) - 1) >> 20) << " MiB\n";
      for (const auto& note : inputs.notes) std::cout << "  " << note << "\n";
      for (const auto& [name, value] : result.outputs) std::cout << valueLine(name, value) << "\n";
      for (const auto& [name, value] : result.kept) std::cout << "kept " << valueLine(name, value) << "\n";
      if (o->saveOutputs.empty()) return int(kOk);

      currentStep() = "writing " + o->saveOutputs;
      std::filesystem::create_directories(o->saveOutputs);
      std::map<std::string, int> taken;
      std::vector<std::pair<std::string, const eval::Value*>> files;
      for (const auto* list : {&result.outputs, &result.kept})
        for (const auto& [name, value] : *list) {
          const std::string file = valueFileName(name, taken) + ".npy";
          const std::string path = (std::filesystem::path(o->saveOutputs) / file).string();
          ensureWritableOutput(path, model->sourceFiles);
          if (!value.isTensor())
            throw OutputError(path + ": '" + name + "' is a " + eval::describe(value) + ", not a tensor .npy holds");
          files.emplace_back(path, &value);
          if (file != name + ".npy") std::cout << "  " << printable(name) << " -> " << printable(file) << "\n";
        }
      for (size_t k = 0; k < files.size(); ++k) {
        const std::string note = eval::writeNpyFile(files[k].first, files[k].second->tensor());
        if (!note.empty()) std::cout << "  " << printable(files[k].first) << ": " << note << "\n";
      }
      std::cout << "wrote " << files.size() << " .npy files to " << printable(o->saveOutputs) << "\n";
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
