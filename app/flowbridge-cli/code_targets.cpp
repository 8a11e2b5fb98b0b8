#include "code_targets.h"

#include <filesystem>
#include <iostream>
#include <optional>

#include "code_verify.h"
#include "codegen/code_generator.h"
#include "commands.h"
#include "report_text.h"
#include "convert/convert_report.h"
#include "formats/model_io.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::cli {
namespace {
namespace fs = std::filesystem;

std::unique_ptr<ir::Model> loadOnnxForCode(const std::string& input) {
  currentStep() = "reading the model";
  auto model = loadModel(input);
  if (convert::directionFor(*model) != "onnx")
    throw InputError(input, "code generation reads ONNX models; convert this OneFlow graph to ONNX first");
  return model;
}

bool isSameOrInside(const fs::path& p, const fs::path& dir) {
  for (fs::path q = p; !q.empty(); q = q.parent_path()) {
    if (q == dir) return true;
    if (q == q.parent_path()) break;
  }
  return false;
}

// The generated folder replaces its target as a whole: it must not be, or hold, a file the model reads.
void refuseFolderHoldingInputs(const std::string& outDir, const std::vector<std::string>& inputs) {
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(codegen::generatedFolderTarget(outDir), ec);
  for (const auto& input : inputs) {
    const fs::path in = fs::weakly_canonical(input, ec);
    if (isSameOrInside(in, dir)) throw OutputError(outDir + ": the output folder holds the input " + input);
  }
}

// The report is checked, and its temporary file created, before anything is generated: a report that cannot be
// written stops the command before the folder is touched.
std::optional<AtomicFile> openReport(const CodeTargetOptions& o, const std::vector<std::string>& inputs) {
  if (o.report.empty()) return std::nullopt;
  std::error_code ec;
  const fs::path report = fs::weakly_canonical(fs::absolute(o.report), ec);
  const fs::path dir = fs::weakly_canonical(codegen::generatedFolderTarget(o.outDir), ec);
  if (isSameOrInside(report, dir))
    throw OutputError(o.report + ": the report cannot go into the output folder " + o.outDir +
                      ", which is replaced as a whole");
  ensureWritableOutput(o.report, inputs);
  return std::optional<AtomicFile>(std::in_place, o.report);
}

}  // namespace

int convertToCode(const CodeTargetOptions& o) {
  const codegen::Flavour flavour = codegen::flavourFromName(o.to);
  std::vector<std::string> inputs{o.input};
  refuseFolderHoldingInputs(o.outDir, inputs);
  codegen::ensureGeneratedFolderWritable(o.outDir);
  auto report = openReport(o, inputs);
  auto model = loadOnnxForCode(o.input);
  // Now that every file the model reads (external data) is known, none of them may be replaced.
  inputs.insert(inputs.end(), model->sourceFiles.begin(), model->sourceFiles.end());
  refuseFolderHoldingInputs(o.outDir, inputs);
  if (report) ensureWritableOutput(o.report, inputs);

  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  opts.keepUnconverted = o.continueOnError;
  currentStep() = "generating " + std::string(codegen::flavourName(flavour)) + " code";
  auto r = codegen::generatePython(*model, opts);
  const bool complete = r.conversion.complete();
  if (!complete) printProblems(o.input, r.conversion);
  bool verified = true;
  if (o.verify.enabled && r.code && (complete || o.continueOnError))
    verified = verifyGeneratedCode(*model, *r.code, flavour, o.outDir, o.verify) != CodeVerdict::Disagree;
  const bool write = r.code && (complete || o.continueOnError) && (verified || o.continueOnError);
  // The report's bytes are written before the folder, so that after the folder only its rename is left to fail.
  if (report) report->write(dumpJson(convert::reportJson(r.conversion, o.input)) + "\n");
  if (write) {
    currentStep() = "writing " + o.outDir;
    codegen::writeGeneratedFolder(*r.code, flavour, o.outDir);
  }
  if (report) report->commit();
  std::cout << printable(o.input) << ": ONNX opset " << r.conversion.sourceOpset << " -> "
            << codegen::flavourName(flavour) << ": " << r.conversion.count(convert::NodeStatus::Converted)
            << " converted, " << r.conversion.count(convert::NodeStatus::Unsupported) << " unsupported, "
            << r.conversion.count(convert::NodeStatus::Failed) << " failed; "
            << (write ? std::to_string(r.code->weights.size()) + " weights; written to " + o.outDir
                      : std::string("nothing written"))
            << "; " << static_cast<int64_t>(r.conversion.totalMs + 0.5) << " ms\n";
  if (!verified) return int(kDiverged);
  return complete ? int(kOk) : int(kUnconverted);
}

int checkToCode(const CodeTargetOptions& o) {
  const codegen::Flavour flavour = codegen::flavourFromName(o.to);
  auto model = loadOnnxForCode(o.input);
  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  currentStep() = "checking " + std::string(codegen::flavourName(flavour)) + " code generation";
  auto r = codegen::dryRunPython(*model, opts);
  const auto& c = r.conversion;
  const bool ok = c.count(convert::NodeStatus::Unsupported) + c.count(convert::NodeStatus::Failed) == 0;
  if (o.json) {
    std::cout << dumpJson(convert::reportJson(c, o.input)) << "\n";
    return ok ? int(kOk) : int(kUnconverted);
  }
  std::cout << printable(o.input) << ": ONNX opset " << c.sourceOpset << " -> " << codegen::flavourName(flavour)
            << " code (dry run, " << c.handlersMs << " ms)\n";
  printDryRun(c, ok);
  return ok ? int(kOk) : int(kUnconverted);
}

}  // namespace fb::cli
