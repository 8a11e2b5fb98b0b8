#include <iostream>

#include "commands.h"
#include "util/error.h"

namespace fb::cli {

int reportError(const std::exception& e) {
  if (auto* in = dynamic_cast<const InputError*>(&e)) {
    std::cerr << "flowbridge-cli: error: " << (in->file().empty() ? "" : in->file() + ": ") << in->what() << "\n";
    return kBadInput;
  }
  if (dynamic_cast<const OutputError*>(&e)) {
    std::cerr << "flowbridge-cli: error: " << e.what() << "\n";
    return kBadInput;
  }
  std::cerr << "flowbridge-cli: error: " << e.what() << "\n";
  return kBadInput;
}

}  // namespace fb::cli

int main(int argc, char** argv) {
  using namespace fb::cli;
  CLI::App app{"FlowBridge: inspect and convert ONNX and OneFlow models.", "flowbridge-cli"};
  app.set_version_flag("--version", std::string("flowbridge-cli ") + FLOWBRIDGE_VERSION +
                                        " (ONNX reader/writer on libonnx 1.12, opsets up to 17)");
  app.require_subcommand(1);
  app.footer(
      "Exit codes:\n"
      "  0  success\n"
      "  1  usage error (bad arguments)\n"
      "  2  the input cannot be read or is not a valid model, or the output cannot be written;\n"
      "     one line 'flowbridge-cli: error: <file>: <reason>' goes to stderr and no output file is left\n"
      "  3  a conversion left unsupported or failed nodes (nothing written unless --continue-on-error)");
  Runner run;
  registerInspect(app, run);
  registerPasses(app, run);
  registerConvert(app, run);
  registerCheck(app, run);
  registerOps(app, run);
  registerRender(app, run);
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
  try {
    return run ? run() : kUsage;
  } catch (const std::exception& e) {
    return reportError(e);
  }
}
