#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "code_targets.h"
#include "commands.h"
#include "conversion_verify.h"
#include "eval/verify/provenance.h"
#include "run_values.h"
#include "test_hooks.h"
#include "report_text.h"
#include "convert/convert_report.h"
#include "convert/converter.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/mapped_file.h"
#include "util/printable.h"

namespace fb::cli {
namespace {

void writeReport(const std::string& path, const nlohmann::json& j) {
  AtomicFile f(path);
  f.write(dumpJson(j));
  f.write("\n");
  f.commit();
}

int usageError(const std::invalid_argument& e) {
  std::cerr << "flowbridge-cli: error: " << printable(e.what()) << "\n";
  return int(kUsage);
}

// What the passes left as it was and why (nodes over the constant-folding budget): the first few after the summary
// line, every one in the report.
void printPassWarnings(const convert::ConvertResult& r, bool reportWritten) {
  if (!r.passesRan) return;
  constexpr size_t kShown = 10;
  size_t total = 0;
  for (const auto& p : r.passStats.perPass)
    for (const auto& w : p.total.warnings)
      if (total++ < kShown) std::cout << "  " << printable(p.name + ": " + w) << "\n";
  if (total > kShown)
    std::cout << "  ... and " << total - kShown << " more (" << (reportWritten ? "the report" : "--report")
              << " lists them all)\n";
}

}  // namespace

void registerConvert(CLI::App& app, Runner& run) {
  struct Opts {
    std::string input, output, passes = "default", report, to;
    std::optional<int64_t> opset;
    bool continueOnError = false, externalData = false;
    VerifyOptions verify;
    std::vector<std::string> dims;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "convert",
      "Convert a OneFlow graph to ONNX or retarget an ONNX model (opsets 7-26), run optimizer passes, check, write");
  sub->add_option("IN", o->input, "source model (.onnx, OneFlow job.pb/.prototxt, SavedModel or fixture folder)")
      ->required();
  sub->add_option("-o,--output", o->output,
                  "output model (.onnx), or with --to the folder for the generated code; never the input")
      ->required();
  auto* opsetOpt = sub->add_option("--opset", o->opset, "target ONNX opset (default: the source's; 17 for OneFlow)")
                       ->check(CLI::Range(7, 26));
  sub->add_option("--to", o->to,
                  "generate Python code instead: pytorch or oneflow (model.py, run.py, weights in the -o folder)")
      ->check(CLI::IsMember({"pytorch", "oneflow"}))
      ->excludes(opsetOpt);
  sub->add_option("--passes", o->passes, "optimizer passes: default, none, or a comma-separated list");
  sub->add_option("--report", o->report, "write the JSON report here");
  sub->add_flag("--continue-on-error", o->continueOnError,
                "write the model even with unsupported/failed nodes (kept as they are; exit code 3)");
  sub->add_flag("--external-data", o->externalData, "store tensors of 1 KiB and more in <output>.data");
  sub->add_flag("--verify", o->verify.enabled,
                "run the source and the result on seeded inputs and compare their outputs; exit code 4 (and "
                "nothing written unless --continue-on-error) when one is outside the tolerance");
  sub->add_option("--atol", o->verify.tolerance.atol, "--verify: absolute tolerance")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--rtol", o->verify.tolerance.rtol, "--verify: relative tolerance (of |source value|)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--samples", o->verify.samples, "--verify: how many seeded inputs")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  sub->add_option("--seed", o->verify.seed, "--verify: seed of the first sample")->capture_default_str();
  sub->add_option("--dims", o->dims, "--verify: SYMBOL=N, the size of a symbolic dim (default 1)");
  sub->callback([&run, o] {
    run = [o] {
      currentInput() = o->input;
      o->verify.dims = parseDims(o->dims);
      installCliTestHooks();
      if (!o->to.empty())
        return convertToCode(
            CodeTargetOptions{o->input, o->output, o->to, o->report, o->continueOnError, false, o->verify});
      ensureWritableOutput(o->output, {o->input});
      if (!o->report.empty()) {
        ensureWritableOutput(o->report, {o->input});
        std::error_code ec;
        if (std::filesystem::weakly_canonical(o->report, ec) == std::filesystem::weakly_canonical(o->output, ec))
          throw OutputError(o->report + ": the report and the output model cannot be the same file");
      }
      auto model = loadModel(o->input);
      // Now that every file the model reads is known, none of them may be an output.
      ensureWritableOutput(o->output, model->sourceFiles);
      if (o->externalData) ensureWritableOutput(o->output + ".data", model->sourceFiles);
      if (!o->report.empty()) ensureWritableOutput(o->report, model->sourceFiles);
      convert::ConvertOptions opts;
      opts.direction = convert::directionFor(*model);
      opts.targetOpset = o->opset ? *o->opset : convert::defaultTargetOpset(*model);
      try {
        opts.passes = convert::parsePassList(o->passes);
      } catch (const std::invalid_argument& e) {
        return usageError(e);
      }
      opts.keepUnconverted = o->continueOnError;
      // The conversion edits the model in place; handlers that need the source's shape facts get them from the
      // files read again, as long as they are unchanged.
      std::vector<std::pair<std::string, std::pair<std::uintmax_t, std::filesystem::file_time_type>>> stamps;
      for (const auto& f : model->sourceFiles) {
        std::error_code ec;
        auto size = std::filesystem::file_size(f, ec);
        auto time = std::filesystem::last_write_time(f, ec);
        if (!ec) stamps.push_back({f, {size, time}});
      }
      opts.reloadSource = [input = o->input, stamps] {
        for (const auto& [f, st] : stamps) {
          std::error_code ec;
          if (std::filesystem::file_size(f, ec) != st.first || std::filesystem::last_write_time(f, ec) != st.second ||
              ec)
            throw std::runtime_error(f + " changed during the conversion");
        }
        return loadModel(input);
      };
      const std::string sourcePath = model->sourcePath;
      const std::vector<std::string> sourceFiles = model->sourceFiles;
      // Node ids are all the conversion keeps of where each node comes from; the written model gets names.
      const auto sourceNames = eval::nodeNamesById(*model);
      convert::ConvertResult r;
      currentStep() = "converting the model to opset " + std::to_string(opts.targetOpset);
      try {
        r = convert::convertModel(std::move(model), opts);  // in place: the source is not needed afterwards
      } catch (const std::invalid_argument& e) {
        return usageError(e);
      }
      const bool complete = r.complete();
      if (!complete) printProblems(o->input, r);
      // Weights the conversion read as zeros from a file truncated meanwhile: nothing is written. (The writer
      // checks the maps it reads itself.)
      throwIfMappedFileDamaged();
      if (r.model) eval::recordProvenance(*r.model, sourceNames);
      bool verified = true;
      // Only a result that would be written is verified: an incomplete one is not written anyway (exit 3).
      if (o->verify.enabled && r.model && (complete || o->continueOnError)) {
        if (opts.direction != "onnx")
          std::cout << "verify: the evaluator runs ONNX models; this " << opts.direction << " source is not checked\n";
        else
          verified = verifyConversion(o->input, *r.model, o->verify);
      }
      // The model first, then the report: a write that fails leaves neither behind.
      if (r.model && (complete || o->continueOnError) && (verified || o->continueOnError)) {
        currentStep() = "writing " + o->output;
        onnxfmt::WriteOptions w;
        if (o->externalData) w.externalData = onnxfmt::WriteOptions::ExternalData::SideFile;
        r.model->sourcePath = sourcePath;
        r.model->sourceFiles = sourceFiles;
        onnxfmt::writeOnnxFile(*r.model, o->output, w);
      }
      if (!o->report.empty()) writeReport(o->report, convert::reportJson(r, o->input));
      std::cout << o->input << ": opset " << r.sourceOpset << " -> " << r.targetOpset << ": "
                << r.count(convert::NodeStatus::Unchanged) << " unchanged, " << r.count(convert::NodeStatus::Converted)
                << " converted, " << r.count(convert::NodeStatus::Kept) << " kept, "
                << r.count(convert::NodeStatus::Unsupported) << " unsupported, " << r.count(convert::NodeStatus::Failed)
                << " failed";
      if (r.passesRan)
        std::cout << "; passes: " << r.passStats.nodesBefore << " -> " << r.passStats.nodesAfter << " nodes";
      if (r.passesRan && !r.passStats.reachedFixpoint)
        std::cout << " (stopped at the safety cap of " << r.passStats.iterations << " rounds before a fixpoint)";
      std::cout << "; " << static_cast<int64_t>(r.totalMs + 0.5) << " ms";
      const bool written = r.model && (complete || o->continueOnError) && (verified || o->continueOnError);
      std::cout << (written ? "; written to " + o->output : std::string("; nothing written")) << "\n";
      // The notes say what the written model gained ("output 'y': float[1,1,672,672] (inferred)").
      if (written)
        for (const auto& note : r.notes) std::cout << "  " << printable(note) << "\n";
      printPassWarnings(r, !o->report.empty());
      if (!verified) return int(kDiverged);
      return complete ? int(kOk) : int(kUnconverted);
    };
  });
}

}  // namespace fb::cli
