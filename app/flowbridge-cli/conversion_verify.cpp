#include "conversion_verify.h"

#include <iostream>
#include <vector>

#include "commands.h"
#include "compare_text.h"
#include "eval/verify/model_compare.h"
#include "eval/verify/seeded_inputs.h"
#include "formats/model_io.h"
#include "util/printable.h"

namespace fb::cli {

bool verifyConversion(const std::string& sourcePath, const ir::Model& result, const VerifyOptions& o) {
  currentStep() = "reading the source again to verify";
  auto source = loadModel(sourcePath);
  eval::RunOptions ro;
  ro.threads = o.threads;
  struct Worst {
    std::string name;
    double maxAbs = 0, maxRel = 0;
    bool agree = true;
    std::string mismatch;
  };
  std::vector<Worst> worst;
  int firstFailing = -1;
  std::vector<std::string> notes;
  for (int s = 0; s < o.samples; ++s) {
    currentStep() = "verifying on sample " + std::to_string(s + 1);
    const auto inputs = eval::makeInputs(*source, {}, o.dims, o.seed + static_cast<uint64_t>(s));
    if (s == 0) notes = inputs.notes;
    const auto outs = eval::compareOutputs(*source, result, inputs.values, o.tolerance, ro);
    if (worst.size() < outs.size()) worst.resize(outs.size());
    for (size_t k = 0; k < outs.size(); ++k) {
      Worst& w = worst[k];
      w.name = outs[k].bValue;
      w.maxAbs = std::max(w.maxAbs, outs[k].diff.maxAbs);
      w.maxRel = std::max(w.maxRel, outs[k].diff.maxRel);
      if (!outs[k].diff.agree) {
        w.agree = false;
        if (w.mismatch.empty()) w.mismatch = outs[k].diff.mismatch;
        if (firstFailing < 0) firstFailing = s;
      }
    }
  }
  std::cout << "verify: " << o.samples << " seeded samples (seed " << o.seed << (o.samples > 1 ? "+" : "")
            << "), every element within " << o.tolerance.atol << " + " << o.tolerance.rtol << " * |source|\n";
  for (const auto& n : notes) std::cout << "  " << n << "\n";
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
  if (firstFailing >= 0) {
    // Where the two part, on the first sample that showed it: every value is kept for this run only.
    currentStep() = "locating the first divergent node";
    const auto inputs = eval::makeInputs(*source, {}, o.dims, o.seed + static_cast<uint64_t>(firstFailing));
    const auto cmp = eval::compareModels(*source, result, inputs.values, o.tolerance, ro);
    if (cmp.firstDivergence) printDivergence(*cmp.firstDivergence, std::cout);
    std::cout << "verify: " << outside << " of " << worst.size() << " outputs outside the tolerance\n";
    return false;
  }
  std::cout << "verify: all " << worst.size() << " outputs agree\n";
  return true;
}

}  // namespace fb::cli
