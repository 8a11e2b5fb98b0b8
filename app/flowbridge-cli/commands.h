#pragma once
// Each subcommand lives in its own file and registers itself here; main() only dispatches.
#include <functional>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "util/json_dump.h"

namespace fb::cli {

// Exit codes, documented in --help and the README.
enum ExitCode : int {
  kOk = 0,
  kUsage = 1,         // bad arguments
  kBadInput = 2,      // the input cannot be read or is not a valid model; or the output cannot be written
  kUnconverted = 3,   // a conversion left unsupported or failed nodes; the evaluator lacks a kernel
  kDiverged = 4,      // values disagree beyond the tolerance (convert --verify, compare)
  kModelsDiffer = 5,  // `diff`: the two models differ
};

// A bad argument found after parsing (an unknown value name, NAME=FILE without '='): exit 1.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A registrar adds its subcommand to `app`; when the subcommand is chosen, it stores what to run in `run`.
using Runner = std::function<int()>;
void registerInspect(CLI::App& app, Runner& run);
void registerPasses(CLI::App& app, Runner& run);
void registerConvert(CLI::App& app, Runner& run);
void registerCheck(CLI::App& app, Runner& run);
void registerOps(CLI::App& app, Runner& run);
void registerRender(CLI::App& app, Runner& run);
void registerRun(CLI::App& app, Runner& run);
void registerCompare(CLI::App& app, Runner& run);
void registerExtract(CLI::App& app, Runner& run);
void registerDiff(CLI::App& app, Runner& run);
void registerEdit(CLI::App& app, Runner& run);

// Prints "flowbridge-cli: error: <file>: <reason>" (control characters escaped) and returns the exit code for it.
// `input` is the model named on the command line: errors about other files (side files, weights) name it first.
int reportError(const std::exception& e, const std::string& input);

// The model file named on the command line by the chosen subcommand (for error messages).
std::string& currentInput();
// What the subcommand is doing now ("reading the model", "writing out/"), for "out of memory while ...".
std::string& currentStep();

}  // namespace fb::cli
