#pragma once
// Runs two models on the same inputs and finds where they part: every value both compute (paired through the
// provenance B records of A, else by value name) is compared in B's topological order, and the first node whose
// outputs disagree is named. What `compare` and `convert --verify` report.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/runtime/run.h"
#include "eval/verify/value_diff.h"
#include "eval/verify/value_stats.h"
#include "ir/model.h"

namespace fb::eval {

struct ComparedValue {
  std::string bNode;   // the node of B that computes it (empty for a graph output paired by position)
  std::string aNode;   // its source node in A
  std::string op;      // B node's op
  std::string aOp;     // A node's op
  std::string bValue;  // the value's name in B
  std::string aValue;  // and in A
  ValueDiff diff;
  ValueStats aStats, bStats;  // of the first tensor (the value itself, or a sequence's first item)
};

struct ModelComparison {
  bool provenance = false;                       // pairs came from provenance B records
  size_t compared = 0;                           // values compared (graph outputs included)
  size_t disagreeing = 0;                        // of them, outside the tolerance
  std::vector<ComparedValue> outputs;            // B's graph outputs against A's, by position
  std::vector<ComparedValue> values;             // every paired value, in B's node order
  std::optional<ComparedValue> firstDivergence;  // in B's node order
};

// The values of B paired with values of A: B value name -> A value name, and the B node that computes it.
struct ValuePairing {
  struct Pair {
    std::string aValue, bValue, aNode, bNode, op, aOp;
  };
  std::vector<Pair> pairs;  // in B's node order
  bool provenance = false;
};
ValuePairing pairValues(const ir::Model& a, const ir::Model& b);
// The same pairing for a conversion still in memory (the app's preview): B's nodes name their source nodes in A by
// id (`origins`), so no recorded names are needed and unnamed nodes pair too.
ValuePairing pairValuesByOrigins(const ir::Model& a, const ir::Model& b);

// Runs `a` and `b` on `inputs` (the same for both; inputs one of them lacks are left out of its run) keeping every
// value, and compares. Throws RunError as runModel does, its node() prefixed with the label of the model that
// failed ("source: node 'x' (Conv)").
ModelComparison compareModels(const ir::Model& a, const ir::Model& b, const std::map<std::string, Value>& inputs,
                              const Tolerance& tol, const RunOptions& options = {},
                              const std::string& aLabel = "source", const std::string& bLabel = "converted");

// Compares two runs already made (`ra` of `a`, `rb` of `b`, keeping every value) through `pairing`.
ModelComparison compareRuns(const RunResult& ra, const RunResult& rb, const std::map<std::string, Value>& inputs,
                            const ValuePairing& pairing, const Tolerance& tol);

// Only the graph outputs, by position: B's run keeps nothing (the cheap check `convert --verify` makes per sample).
std::vector<ComparedValue> compareOutputs(const ir::Model& a, const ir::Model& b,
                                          const std::map<std::string, Value>& inputs, const Tolerance& tol,
                                          const RunOptions& options = {}, const std::string& aLabel = "source",
                                          const std::string& bLabel = "converted");

}  // namespace fb::eval
