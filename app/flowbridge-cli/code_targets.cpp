#include "code_targets.h"

#include <filesystem>
#include <iostream>

#include "codegen/code_generator.h"
#include "commands.h"
#include "convert/convert_report.h"
#include "formats/model_io.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/printable.h"

namespace fb::cli {
namespace {

std::unique_ptr<ir::Model> loadOnnxForCode(const std::string& input) {
  auto model = loadModel(input);
  if (convert::directionFor(*model) != "onnx")
    throw InputError(input, "code generation reads ONNX models; convert this OneFlow graph to ONNX first");
  return model;
}

void printStatuses(const std::string& file, const convert::ConvertResult& r) {
  for (const auto& n : r.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
      std::cerr << "flowbridge-cli: "
                << printable(file + ": node " + n.nodeName + " (" + n.opType + "): " + std::string(convert::statusName(n.status)) + ": " + n.message)
                << "\n";
}

void refuseFolderHoldingInput(const std::string& outDir, const std::string& input) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(outDir, ec), in = fs::weakly_canonical(input, ec);
  for (fs::path p = in; !p.empty() && p != p.parent_path(); p = p.parent_path())
    if (p == dir) throw OutputError(outDir + ": the output folder holds the input model");
}

}  // namespace

int convertToCode(const CodeTargetOptions& o) {
  const codegen::Flavour flavour = codegen::flavourFromName(o.to);
  ensureNotOverwritingInput(o.outDir, o.input);
  refuseFolderHoldingInput(o.outDir, o.input);
  if (!o.report.empty()) ensureNotOverwritingInput(o.report, o.input);
  auto model = loadOnnxForCode(o.input);
  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  opts.keepUnconverted = o.continueOnError;
  auto r = codegen::generatePython(*model, opts);
  const bool complete = r.conversion.complete();
  if (!complete) printStatuses(o.input, r.conversion);
  const bool write = r.code && (complete || o.continueOnError);
  if (write) codegen::writeGeneratedFolder(*r.code, flavour, o.outDir);
  if (!o.report.empty()) {
    AtomicFile f(o.report);
    f.write(dumpJson(convert::reportJson(r.conversion, o.input)) + "\n");
    f.commit();
  }
  std::cout << printable(o.input) << ": ONNX opset " << r.conversion.sourceOpset << " -> " << codegen::flavourName(flavour) << ": "
            << r.conversion.count(convert::NodeStatus::Converted) << " converted, "
            << r.conversion.count(convert::NodeStatus::Unsupported) << " unsupported, "
            << r.conversion.count(convert::NodeStatus::Failed) << " failed; "
            << (write ? std::to_string(r.code->weights.size()) + " weights; written to " + o.outDir : std::string("nothing written"))
            << "; " << static_cast<int64_t>(r.conversion.totalMs + 0.5) << " ms\n";
  return complete ? int(kOk) : int(kUnconverted);
}

int checkToCode(const CodeTargetOptions& o) {
  const codegen::Flavour flavour = codegen::flavourFromName(o.to);
  auto model = loadOnnxForCode(o.input);
  codegen::CodegenOptions opts;
  opts.flavour = flavour;
  auto r = codegen::dryRunPython(*model, opts);
  const auto& c = r.conversion;
  const bool ok = c.count(convert::NodeStatus::Unsupported) + c.count(convert::NodeStatus::Failed) == 0;
  if (o.json) {
    std::cout << dumpJson(convert::reportJson(c, o.input)) << "\n";
    return ok ? int(kOk) : int(kUnconverted);
  }
  std::cout << printable(o.input) << ": ONNX opset " << c.sourceOpset << " -> " << codegen::flavourName(flavour) << " code (dry run, "
            << c.handlersMs << " ms)\n";
  for (const auto& [op, counts] : c.countsByOp()) {
    std::cout << "  " << printable(op) << ":";
    for (const auto& [status, n] : counts) std::cout << " " << status << "=" << n;
    std::cout << "\n";
  }
  for (const auto& n : c.nodes)
    if (n.status == convert::NodeStatus::Unsupported || n.status == convert::NodeStatus::Failed)
      std::cout << "  " << printable(std::string(convert::statusName(n.status)) + ": " + n.nodeName + " (" + n.opType + "): " + n.message)
                << "\n";
  std::cout << (ok ? "convertible" : "not convertible") << "\n";
  return ok ? int(kOk) : int(kUnconverted);
}

}  // namespace fb::cli
