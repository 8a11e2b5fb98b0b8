#pragma once
// Runs a list of passes over a model repeatedly until none changes anything, with statistics. The round cap is
// a safety net against passes that undo each other (reachedFixpoint says when it was hit). Value types come
// from whole-graph shape inference before the first round, so passes can ask for static shapes; later rounds infer
// only the nodes the rewrites created or rewired (value_types.h). A journal on the main graph (change_journal.h)
// notes those nodes, and a pass called again is handed only the nodes near them (Pass::worklistRadius).
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "passes/fold_budget.h"
#include "passes/pass.h"

namespace fb::passes {

struct PassStats {
  std::string name;
  size_t runs = 0;                // rounds it took part in
  size_t notCalled = 0;           // of those, rounds it was not called: the model held none of its anchorOps, or
  size_t notCalledUnchanged = 0;  // (of notCalled) nothing had changed since a call of it last found nothing to do
  size_t worklistCalls = 0;       // calls handed only the main-graph nodes near a change (Pass::worklistRadius)
  size_t nodesOffered = 0;        // main-graph nodes its calls were handed: the whole graph, or a worklist
  double milliseconds = 0;
  PassChange total{};
};

// One pass run that changed the model, with a copy of the model as that run left it: what the app steps through
// to show the pipeline pass by pass. Copies share the tensors' bytes, so a step costs the graph structure only.
struct PassStep {
  std::string pass;
  size_t iteration = 0;  // 1-based round of the pipeline
  double milliseconds = 0;
  PassChange change;
  std::shared_ptr<const ir::Model> after;
};

struct PassManagerResult {
  std::vector<PassStats> perPass;  // in pipeline order
  size_t iterations = 0;
  bool reachedFixpoint = true;
  size_t nodesBefore = 0, nodesAfter = 0;
  double milliseconds = 0;
  double typeInferenceMilliseconds = 0;  // libonnx shape inference between rounds (part of the total)
  size_t typeInferenceRuns = 0;          // whole-graph inference
  size_t localTypeInferenceRuns = 0;  // rounds after the first: inference on the nodes changed since (also in the ms)
  // What constant folding used of the run's budget for the whole model (fold_budget.h), and its limits.
  uint64_t foldedBytes = 0, foldedLimit = 0, foldAddedBytes = 0, foldAddedLimit = 0;
  // Only when recordSteps(true): the model before the first pass, and each run that changed it, in order.
  std::shared_ptr<const ir::Model> initial;
  std::vector<PassStep> steps;
};

class PassManager {
 public:
  // Throws std::invalid_argument naming an unknown pass.
  explicit PassManager(const std::vector<std::string>& passNames, size_t maxIterations = kDefaultMaxIterations);
  static constexpr size_t kDefaultMaxIterations = 100;
  PassManagerResult run(ir::Model& m);
  // Keep a copy of the model after every run that changed it (PassManagerResult::steps); off by default.
  void recordSteps(bool on) { recordSteps_ = on; }
  // Call every pass every round on every node, whatever ops the model holds (Pass::anchorOps ignored), whether or
  // not the model changed since its last call and wherever it changed (no worklists): for tests that the skipping
  // changes no result.
  void callEveryPass(bool on) { callEveryPass_ = on; }
  // What constant folding may do to the model in one run, all rounds and bodies together (fold_budget.h); by
  // default FoldLimits::fromEnvironment().
  void setFoldLimits(const FoldLimits& limits) { foldLimits_ = limits; }

 private:
  // One run(): a round calls the passes in order; between rounds and after each change, types are refreshed.
  struct Run;
  bool runRound(Run& run);
  void inferTypesBeforeRound(Run& run);
  bool skipsCall(Run& run, size_t i);  // nothing a call could find: counted, not called
  PassChange callPass(Run& run, size_t i);

  bool typesReadAnywhere_ = false;
  std::vector<std::string> opsReadingTypes_;
  // Whether some node of any graph is one a pass reads types for (inference types the main graph, and bodies read
  // its values).
  bool needsTypes(const std::unordered_set<std::string>& ops) const;
  std::vector<std::unique_ptr<Pass>> passes_;
  size_t maxIterations_;
  bool recordSteps_ = false;
  bool callEveryPass_ = false;
  FoldLimits foldLimits_ = FoldLimits::fromEnvironment();
};

}  // namespace fb::passes
