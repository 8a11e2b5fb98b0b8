#pragma once
// Pairs the nodes of two graphs without trusting names. Names that agree and whose neighbourhood agrees anchor
// first; then structure, most specific first: the whole cone above a node (and below it), then Weisfeiler-Lehman
// colours of shrinking radius, each kept only where it is unique on both sides; every new pair spreads to its
// producers and consumers. Weights pair by name, then by content, and stand for themselves in the structure, so
// layers that look alike but read different weights stay apart. Nodes left over on both sides that touch the same
// pairs become region pairs (a LayerNormalization against its decomposition). Every step is a linear sweep over
// hash maps: two 100k-node graphs match in seconds.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fb::ir {
class Graph;
class Node;
class Tensor;
class Value;
}  // namespace fb::ir

namespace fb::diff {

// How a node pair was found.
enum class MatchedBy : uint8_t { None, Name, Structure, Neighbours };
std::string_view matchedByName(MatchedBy m);

struct MatchOptions {
  bool useNames = true;  // false: names play no part at all (tests that measure the structure alone)
  const std::atomic<bool>* cancel = nullptr;
  // Called between steps with the share done (0..1).
  std::function<void(double)> progress;
};

struct RegionPair {
  std::vector<int32_t> a, b;  // node indexes on each side (GraphMatch::nodesA / nodesB), in graph order
};

struct GraphMatch {
  std::vector<const ir::Node*> nodesA, nodesB;  // in graph order
  std::vector<int32_t> aToB, bToA;              // partner index, -1 for none
  std::vector<MatchedBy> how;                   // per node of A
  std::vector<RegionPair> regions;
  std::vector<int32_t> regionOfA, regionOfB;  // region index, -1 for none
  // Initializers (and graph inputs) paired; a value of A with no partner is absent.
  std::vector<std::pair<const ir::Value*, const ir::Value*>> valuePairs;
  bool cancelled = false;

  size_t pairCount() const;
};

// `a` and `b` are not changed. Throws what Tensor::bytes() throws when a weight's side file cannot be read.
GraphMatch matchGraphs(const ir::Graph& a, const ir::Graph& b, const MatchOptions& opts = {});

}  // namespace fb::diff
