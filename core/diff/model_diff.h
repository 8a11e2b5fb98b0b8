#pragma once
// The structural difference of two models: every node paired (graph_matcher.h) and classified, regions rewritten
// as a whole, weights compared by their bytes (read where they are mapped, never copied), the signature (inputs,
// outputs, opsets, IR version, metadata, functions), and the same inside If/Loop/Scan bodies and model-local
// functions.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diff/graph_matcher.h"

namespace fb::ir {
class Model;
}

namespace fb::diff {

enum class Status : uint8_t { Same, Changed, OnlyA, OnlyB };
// "same", "changed", "only_a", "only_b" (the JSON's words).
std::string_view statusName(Status s);

struct NodeDiff {
  const ir::Node* a = nullptr;
  const ir::Node* b = nullptr;
  Status status = Status::Same;
  MatchedBy matchedBy = MatchedBy::None;
  std::vector<std::string> changes;     // what differs, one short sentence each
  std::vector<std::string> attributes;  // names of the attributes that differ
  int32_t region = -1;                  // for a node of a rewritten region: its index in GraphDiff::regions
};

// Nodes of A rewritten as nodes of B (a LayerNormalization against its decomposition), in graph order.
struct RegionDiff {
  std::vector<const ir::Node*> a, b;
};

struct WeightDiff {
  const ir::Tensor* a = nullptr;
  const ir::Tensor* b = nullptr;
  Status status = Status::Same;
  std::string change;                    // "float[64] -> float[128]", "values differ", ...
  std::optional<double> maxAbs, maxRel;  // for pairs of one type and shape whose values differ (numeric types)
  size_t differing = 0;                  // elements that differ
};

struct GraphDiff {
  std::string scope;  // "" for the main graph, "Loop_3:body/If_1:then_branch" for bodies, "function d::f"
  const ir::Graph* a = nullptr;
  const ir::Graph* b = nullptr;
  // Nodes of A in graph order with their partners, then the nodes only in B in graph order.
  std::vector<NodeDiff> nodes;
  std::vector<RegionDiff> regions;
  std::vector<WeightDiff> weights;

  bool same() const;
};

struct SignatureChange {
  std::string what;  // "input 0", "output 1", "opset ai.onnx", "IR version", "metadata key", "function d::f", ...
  std::string a, b;  // as text; empty for absent
};

struct DiffOptions {
  MatchOptions match;
  // Largest absolute and relative difference of weights whose bytes differ (false: only whether they differ).
  bool weightValues = true;
};

struct DiffCounts {
  size_t same = 0, changed = 0, onlyA = 0, onlyB = 0;  // nodes (region nodes not included)
  size_t versionOnly = 0;  // of the changed ones: only the op version (Identity-13 -> Identity-16)
  size_t regions = 0, regionNodesA = 0, regionNodesB = 0;
  size_t nodesA = 0, nodesB = 0, paired = 0;
  size_t weightsSame = 0, weightsChanged = 0, weightsOnlyA = 0, weightsOnlyB = 0;
};

struct ModelDiff {
  std::vector<GraphDiff> graphs;  // the main graph first, then bodies (depth first), then functions
  std::vector<SignatureChange> signature;
  bool cancelled = false;
  double matchMs = 0, totalMs = 0;

  DiffCounts counts() const;
  // No node, weight or signature difference (names of nodes and values may differ).
  bool same() const;
};

// Throws what reading a weight's side file throws (InputError).
ModelDiff diffModels(const ir::Model& a, const ir::Model& b, const DiffOptions& opts = {});

}  // namespace fb::diff
