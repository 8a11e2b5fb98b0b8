#include <iostream>
#include <map>
#include <memory>

#include "code_targets.h"
#include "commands.h"
#include "report_text.h"
#include "convert/convert_report.h"
#include "convert/converter.h"
#include "check/onnx_check.h"
#include "formats/model_io.h"
#include "util/printable.h"

namespace fb::cli {

void registerCheck(CLI::App& app, Runner& run) {
  struct Opts {
    std::string input, to;
    int64_t opset = 17;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub =
      app.add_subcommand("check", "Dry run: what converting to an opset would do to each node, without building it");
  sub->add_option("IN", o->input, "model (.onnx, or a OneFlow job / SavedModel / fixture folder)")->required();
  auto* opsetOpt = sub->add_option("--opset", o->opset, "target ONNX opset")->check(CLI::Range(7, 26));
  auto* toOpt = sub->add_option("--to", o->to, "check Python code generation instead: pytorch or oneflow")
                    ->check(CLI::IsMember({"pytorch", "oneflow"}))
                    ->excludes(opsetOpt);
  opsetOpt->excludes(toOpt);
  sub->add_flag("--json", o->json, "print the report as JSON");
  sub->callback([&run, o, opsetOpt] {
    if (o->to.empty() && opsetOpt->count() == 0) throw CLI::RequiredError("--opset or --to");
    run = [o] {
      currentInput() = o->input;
      if (!o->to.empty()) return checkToCode(CodeTargetOptions{o->input, "", o->to, "", false, o->json, {}});
      auto model = loadModel(o->input);
      convert::ConvertOptions opts;
      opts.targetOpset = o->opset;
      opts.direction = convert::directionFor(*model);
      currentStep() = "checking the conversion to opset " + std::to_string(o->opset);
      auto r = convert::dryRun(*model, opts);
      bool ok = r.count(convert::NodeStatus::Unsupported) + r.count(convert::NodeStatus::Failed) == 0;
      // The dry run looks at one node at a time; a source that fails the ONNX checker or strict shape inference
      // would fail the check at the end of `convert` however its nodes convert: say so now (exit 3).
      if (opts.direction == "onnx") {
        auto sourceCheck = checkModelAtItsOpset(*model);
        for (const auto& line : convert::checkLines(sourceCheck, o->input, "source check"))
          std::cerr << "flowbridge-cli: " << line << "\n";
        ok = ok && sourceCheck.ok;
      } else if (ok) {
        // A OneFlow source has no checker of its own, and some attributes (a pool stride of 0, a perm of the
        // wrong length, an axis past the rank) only show in the nodes built from them, which fail the result's
        // check at the end of `convert`. Build the result as `convert` would, without writing it, so that both
        // commands give the same answer.
        auto built = convert::convertModel(*model, opts);
        if (!built.error.empty()) std::cerr << "flowbridge-cli: " << printable(o->input + ": " + built.error) << "\n";
        for (const auto& line : convert::checkLines(built.check, o->input, "result check"))
          std::cerr << "flowbridge-cli: " << line << "\n";
        ok = built.error.empty() && built.check.ok;
      }
      if (o->json) {
        std::cout << dumpJson(convert::reportJson(r, o->input)) << "\n";
        return ok ? int(kOk) : int(kUnconverted);
      }
      std::cout << o->input << ": opset " << r.sourceOpset << " -> " << r.targetOpset << " (dry run, " << r.handlersMs
                << " ms)\n";
      printDryRun(r, ok);
      return ok ? int(kOk) : int(kUnconverted);
    };
  });
}

}  // namespace fb::cli
