#include "code_verify.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "eval/io/npy_file.h"
#include "eval/runtime/run.h"
#include "eval/verify/seeded_inputs.h"
#include "eval/verify/value_diff.h"
#include "util/error.h"
#include "util/printable.h"
#include "util/temp_folder.h"

extern char** environ;

namespace fb::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPython = "/usr/bin/python3";

// Runs argv[0] with stdout and stderr into `log`; the exit status, or -1 when it could not start or was killed.
int runLogged(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string lastLine(const fs::path& log) {
  std::ifstream f(log);
  std::string line, last;
  while (std::getline(f, line))
    if (!line.empty()) last = line;
  return last;
}

}  // namespace

CodeVerdict verifyGeneratedCode(const ir::Model& source, const codegen::GeneratedCode& code, codegen::Flavour flavour,
                                const std::string& outDir, const VerifyOptions& o) {
  const std::string library = flavour == codegen::Flavour::OneFlow ? "oneflow" : "torch";
  TempFolder scratch(outputFolderPath(outDir), outDir);
  const fs::path log = scratch.path() / "python.log";
  if (runLogged({kPython, "-c", "import " + library}, log) != 0) {
    std::cout << "verify: " << library << " does not import in " << kPython << ": the generated code is not checked\n";
    return CodeVerdict::NotChecked;
  }
  currentStep() = "writing the code to verify it";
  const fs::path folder = scratch.path() / "code";
  codegen::writeGeneratedFolder(code, flavour, folder.string());
  eval::RunOptions ro;
  ro.threads = o.threads;
  struct Worst {
    std::string name;
    double maxAbs = 0, maxRel = 0;
    bool agree = true;
    std::string mismatch;
  };
  std::vector<Worst> worst;
  for (int s = 0; s < o.samples; ++s) {
    currentStep() = "verifying the generated code on sample " + std::to_string(s + 1);
    const auto inputs = eval::makeInputs(source, {}, o.dims, o.seed + static_cast<uint64_t>(s));
    std::vector<std::string> args{kPython, (folder / "run.py").string()};
    const auto names = eval::requiredInputs(source);
    for (size_t k = 0; k < names.size(); ++k) {
      const fs::path npy = scratch.path() / ("input_" + std::to_string(k) + ".npy");
      eval::writeNpyFile(npy.string(), inputs.values.at(names[k]).tensor());
      args.push_back(npy.string());
    }
    const fs::path outs = scratch.path() / ("outputs_" + std::to_string(s));
    args.push_back("--save-outputs");
    args.push_back(outs.string());
    if (runLogged(args, log) != 0)
      throw InputError(outDir, "the generated run.py failed under " + std::string(kPython) + ": " + lastLine(log));
    const auto reference = eval::runModel(source, inputs.values, ro);
    if (worst.size() < reference.outputs.size()) worst.resize(reference.outputs.size());
    for (size_t k = 0; k < reference.outputs.size(); ++k) {
      Worst& w = worst[k];
      w.name = reference.outputs[k].first;
      const fs::path file = outs / (std::to_string(k) + ".npy");
      if (!fs::exists(file)) throw InputError(outDir, "the generated run.py wrote no output " + std::to_string(k));
      const auto d =
          eval::diffValues(reference.outputs[k].second, eval::Value(eval::readNpyFile(file.string())), o.tolerance);
      w.maxAbs = std::max(w.maxAbs, d.maxAbs);
      w.maxRel = std::max(w.maxRel, d.maxRel);
      if (!d.agree) {
        w.agree = false;
        if (w.mismatch.empty()) w.mismatch = d.mismatch;
      }
    }
  }
  std::cout << "verify: run.py (" << library << ") against the evaluator on " << o.samples
            << " seeded samples, every element within " << o.tolerance.atol << " + " << o.tolerance.rtol
            << " * |evaluator|\n";
  size_t outside = 0;
  for (const auto& w : worst) {
    std::cout << "  output " << printable(w.name) << ": ";
    if (!w.mismatch.empty())
      std::cout << w.mismatch;
    else
      std::cout << "max abs " << w.maxAbs << ", max rel " << w.maxRel;
    std::cout << (w.agree ? "" : "  OUTSIDE THE TOLERANCE") << "\n";
    outside += !w.agree;
  }
  if (outside) {
    std::cout << "verify: " << outside << " of " << worst.size() << " outputs outside the tolerance\n";
    return CodeVerdict::Disagree;
  }
  std::cout << "verify: all " << worst.size() << " outputs agree\n";
  return CodeVerdict::Agree;
}

}  // namespace fb::cli
