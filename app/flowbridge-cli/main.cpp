#include <iostream>
#include <string>

#include "commands.h"
#include "eval/runtime/passive_waits.h"
#include "eval/runtime/run_error.h"
#include "util/error.h"
#include "util/failure_text.h"
#include "util/mapped_file.h"
#include "util/printable.h"
#include "util/protobuf_log.h"

namespace fb::cli {

std::string& currentInput() {
  static std::string input;
  return input;
}

std::string& currentStep() {
  static std::string step = "reading the model";
  return step;
}

int reportError(const std::exception& e, const std::string& input) {
  std::string line;
  int code = kBadInput;
  if (auto* usage = dynamic_cast<const UsageError*>(&e)) {
    std::cerr << "flowbridge-cli: error: " << printable(usage->what()) << "\n";
    return kUsage;
  }
  if (auto* run = dynamic_cast<const eval::RunError*>(&e)) {
    // The evaluator names the node; an op or type it lacks is exit 3, a model or input that cannot run is exit 2.
    line = input.empty() ? std::string() : input + ": ";
    if (!run->node().empty()) line += run->node() + ": ";
    line += run->what();
    code = run->kind() == eval::RunError::Kind::Unsupported ? int(kUnconverted) : int(kBadInput);
  } else if (auto* in = dynamic_cast<const InputError*>(&e)) {
    const std::string& file = in->file();
    if (!input.empty() && file != input) line = input + ": ";
    if (!file.empty()) line += file + ": ";
    line += in->what();
  } else if (dynamic_cast<const OutputError*>(&e)) {
    line = e.what();  // names the output file already
  } else if (isOutOfMemory(e)) {
    line = (input.empty() ? std::string() : input + ": ") + failureText(e, currentStep());
  } else {
    // A failure nothing above anticipated (a library's exception): still one sentence naming the input.
    line = (input.empty() ? std::string() : input + ": ") + "cannot process the model: " + e.what();
  }
  std::cerr << "flowbridge-cli: error: " << printable(line) << "\n";
  return code;
}

}  // namespace fb::cli

namespace {

// Commands that run the evaluator on a whole model (its threads wait passively, passive_waits.h); the others are
// not worth the second start-up.
bool runsTheEvaluator(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string command = argv[1];
  if (command == "run" || command == "compare" || command == "verify") return true;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--verify" || a == "--run" || a == "--with-data") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fb::cli;
  if (runsTheEvaluator(argc, argv)) fb::eval::reexecWithPassiveWaits(argv);
  CLI::App app{"FlowBridge: inspect and convert ONNX and OneFlow models.", "flowbridge-cli"};
  app.set_version_flag("--version",
                       std::string("flowbridge-cli ") + FLOWBRIDGE_VERSION +
                           " (ONNX reader/writer on libonnx 1.12; opsets 7-26, schemas after 17 from its own table)");
  app.require_subcommand(1);
  app.footer(
      "Exit codes:\n"
      "  0  success\n"
      "  1  usage error (bad arguments)\n"
      "  2  the input cannot be read or is not a valid model, or the output cannot be written; edit: an edit does\n"
      "     not apply or the edited model fails the check;\n"
      "     one line 'flowbridge-cli: error: <file>: <reason>' goes to stderr and no output file is left\n"
      "  3  a conversion left unsupported or failed nodes (nothing written unless --continue-on-error), or the\n"
      "     evaluator (run, compare, extract --with-data, convert --verify) has no kernel for a node's op or type\n"
      "  4  values disagree beyond the tolerance: convert --verify (nothing written unless --continue-on-error),\n"
      "     compare (the first divergent node is named)\n"
      "  5  diff: the two models differ\n"
      "Stopped by SIGINT or SIGTERM, it removes its temporary files and folders and dies of the signal (status "
      "128+N).");
  Runner run;
  registerInspect(app, run);
  registerPasses(app, run);
  registerConvert(app, run);
  registerCheck(app, run);
  registerOps(app, run);
  registerRender(app, run);
  registerRun(app, run);
  registerCompare(app, run);
  registerExtract(app, run);
  registerDiff(app, run);
  registerEdit(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }
  fb::installProtobufLogHandler();
  try {
    if (!run) return kUsage;
    const int code = run();
    // A model file truncated while mapped was read as zeros somewhere: what was printed or written is not the model's.
    fb::throwIfMappedFileDamaged();
    return code;
  } catch (const std::exception& e) {
    std::cout.flush();
    return reportError(e, currentInput());
  }
}
