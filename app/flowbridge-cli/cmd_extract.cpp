#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.h"
#include "check/onnx_check.h"
#include "convert/convert_report.h"
#include "eval/io/proto_value_file.h"
#include "eval/runtime/run.h"
#include "eval/verify/extract_subgraph.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "passes/value_types.h"
#include "run_values.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/structure_check.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/printable.h"
#include "util/temp_folder.h"

namespace fb::cli {

namespace {

namespace fs = std::filesystem;

// A value's type as a run computed it, for a cut input or output that inference could not type.
ir::TypeInfo typeOfRunValue(const eval::Value& v) {
  if (!v.isTensor()) return {};
  std::vector<ir::Dim> dims;
  for (int64_t d : v.tensor().dims()) dims.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(v.tensor().dtype(), dims);
}

bool untyped(const ir::TypeInfo& t) { return t.kind == ir::TypeInfo::Kind::None || (t.isTensor() && !t.shape); }

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
        ro.keep = eval::RunOptions::Keep::Listed;
        ro.keepValues.insert(o->outputs.begin(), o->outputs.end());
        ro.keepValues.insert(o->inputs.begin(), o->inputs.end());
        currentStep() = "running the model";
        auto result = eval::runModel(*model, inputs.values, ro);
        values = std::move(inputs.values);
        for (auto& [n, v] : result.kept) values[n] = std::move(v);
        for (auto& [n, v] : result.outputs) values[n] = std::move(v);
        for (const auto* list : {&o->outputs, &o->inputs})
          for (const auto& name : *list) {
            ir::Value* v = model->graph().findValue(name);
            auto it = values.find(name);
            if (untyped(v->type) && it != values.end()) v->type = typeOfRunValue(it->second);
          }
      }

      currentStep() = "extracting the subgraph";
      std::unique_ptr<ir::Model> cut;
      try {
        cut = eval::extractSubgraph(*model, o->outputs, o->inputs);
      } catch (const std::invalid_argument& e) {
        throw UsageError(o->model + ": " + e.what());
      }
      // The reproducer must stand on its own: the same check a conversion's result passes.
      const int64_t opset = cut->opsetVersion("");
      const CheckResult check =
          opset > schema::kLibonnxMaxOpset ? schema::opsets_18_26::checkStructure(*cut) : checkModel(*cut);
      if (!check.ok) {
        for (const auto& line : convert::checkLines(check, o->output, "subgraph check"))
          std::cerr << "flowbridge-cli: " << printable(line) << "\n";
        throw InputError(o->model, "the cut subgraph does not pass the check; nothing written");
      }
      // The data folder is written beside its place and moved in after the model, so a failure leaves neither.
      size_t files = 0;
      const fs::path set =
          o->withData.empty() ? fs::path() : outputFolderPath((fs::path(o->withData) / "test_data_set_0").string());
      std::optional<CreatedParents> parents;
      std::optional<TempFolder> data;
      if (!o->withData.empty()) {
        currentStep() = "writing " + o->withData;
        std::vector<std::string> mustStay = model->sourceFiles;
        mustStay.push_back(o->output);
        for (const auto& f : mustStay) {
          std::error_code ec;
          const fs::path p = fs::weakly_canonical(fs::absolute(f), ec);
          const auto rel = p.lexically_relative(fs::weakly_canonical(set, ec));
          if (!rel.empty() && *rel.begin() != "..")
            throw OutputError(set.string() + ": --with-data would replace a folder holding " + f);
        }
        parents.emplace(set, o->withData);
        data.emplace(set, o->withData);
        auto write = [&](const char* kind, size_t k, const ir::Value* v) {
          auto it = values.find(v->name());
          if (it == values.end()) throw InputError(o->model, "the run computed no value '" + v->name() + "'");
          const fs::path path = data->path() / (std::string(kind) + "_" + std::to_string(k) + ".pb");
          eval::writeProtoValueFile(path.string(), it->second, v->name());
          ++files;
        };
        for (size_t k = 0; k < cut->graph().inputs().size(); ++k) write("input", k, cut->graph().inputs()[k]);
        for (size_t k = 0; k < cut->graph().outputs().size(); ++k) write("output", k, cut->graph().outputs()[k]);
      }
      currentStep() = "writing " + o->output;
      cut->sourcePath = model->sourcePath;
      cut->sourceFiles = model->sourceFiles;
      onnxfmt::writeOnnxFile(*cut, o->output);
      if (data) {
        data->placeAt(set);
        parents->keep();
      }
      std::cout << printable(o->model) << ": " << cut->graph().nodeCount() << " of " << model->graph().nodeCount()
                << " nodes, " << cut->graph().inputs().size() << " inputs, " << cut->graph().outputs().size()
                << " outputs; written to " << printable(o->output);
      if (files)
        std::cout << " and " << files << " .pb files to "
                  << printable((fs::path(o->withData) / "test_data_set_0").string());
      std::cout << "\n";
      return int(kOk);
    };
  });
}

}  // namespace fb::cli
