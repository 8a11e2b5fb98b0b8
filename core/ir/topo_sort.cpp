#include "ir/topo_sort.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <cstdint>
#include <unordered_map>

#include <absl/container/flat_hash_map.h>

#include "ir/graph.h"
#include "ir/node_label.h"

namespace fb::ir {
namespace {

// Producers in `g` that `n` depends on: its inputs, and the values its subgraphs capture from `g`.
std::vector<Node*> dependencies(const Graph& g, const Node* n) {
  std::vector<Node*> deps;
  for (Value* v : n->inputs())
    if (v && v->producer() && v->producer()->graph() == &g) deps.push_back(v->producer());
  for (Graph* sg : n->subgraphs())
    for (const auto& name : sg->capturedNames())
      if (Value* v = g.findValue(name); v && v->producer()) deps.push_back(v->producer());
  return deps;
}

// Node pointers seen so far: open addressing over a power-of-two table, no allocation per node (the check
// below runs on every conversion several times).
class SeenNodes {
 public:
  explicit SeenNodes(size_t n) {
    size_t cap = 16;
    int bits = 4;
    while (cap < 2 * n + 1) cap <<= 1, ++bits;
    slots_.assign(cap, nullptr);
    mask_ = cap - 1;
    shift_ = 64 - bits;
  }
  void insert(const Node* n) {
    size_t i = slot(n);
    while (slots_[i] && slots_[i] != n) i = (i + 1) & mask_;
    slots_[i] = n;
  }
  bool contains(const Node* n) const {
    for (size_t i = slot(n); slots_[i]; i = (i + 1) & mask_)
      if (slots_[i] == n) return true;
    return false;
  }

 private:
  size_t slot(const Node* n) const {
    return static_cast<size_t>((static_cast<uint64_t>(reinterpret_cast<uintptr_t>(n)) * 0x9e3779b97f4a7c15ull) >>
                               shift_);
  }
  std::vector<const Node*> slots_;
  size_t mask_ = 0;
  int shift_ = 60;
};

// Whether every producer `g` holds comes before its consumers already: one sweep, no reordering. Conversions
// sort several times (after reading, before and after the passes), and the graph is almost always in order.
bool inOrder(const Graph& g) {
  SeenNodes seen(g.nodeCount());
  for (const auto& n : g.nodes()) {
    for (const Value* v : n->inputs())
      if (v && v->producer() && v->producer()->graph() == &g && !seen.contains(v->producer())) return false;
    for (const Graph* sg : n->subgraphs())
      for (const auto& name : sg->capturedNames())
        if (const Value* v = g.findValue(name); v && v->producer() && !seen.contains(v->producer())) return false;
    seen.insert(n.get());
  }
  return true;
}

}  // namespace

TopoResult topologicalSort(Graph& g) {
  TopoResult result;
  for (const auto& n : g.nodes())
    for (Graph* sg : n->subgraphs()) {
      TopoResult sub = topologicalSort(*sg);
      if (!sub.ok) return sub;
      result.reordered |= sub.reordered;
    }
  if (inOrder(g)) return result;

  std::vector<Node*> order;
  absl::flat_hash_map<const Node*, size_t> position;  // open addressing: 100k lookups are 100k cache misses, not 200k
  for (const auto& n : g.nodes()) {
    position[n.get()] = order.size();
    order.push_back(n.get());
  }
  std::vector<std::vector<size_t>> consumers(order.size());
  std::vector<size_t> pending(order.size(), 0);
  std::vector<std::vector<Node*>> deps(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    deps[i] = dependencies(g, order[i]);
    std::sort(deps[i].begin(), deps[i].end());
    deps[i].erase(std::unique(deps[i].begin(), deps[i].end()), deps[i].end());
    for (Node* d : deps[i]) {
      consumers[position[d]].push_back(i);
      ++pending[i];
    }
  }
  // Ready nodes leave in their original order, so a sorted graph stays exactly as it was.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < order.size(); ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<size_t> sorted;
  sorted.reserve(order.size());
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    sorted.push_back(i);
    for (size_t c : consumers[i])
      if (--pending[c] == 0) ready.push(c);
  }

  if (sorted.size() != order.size()) {
    // Walk backwards along dependencies from a blocked node until a node repeats: that is a cycle.
    size_t start = 0;
    while (pending[start] == 0) ++start;
    std::vector<size_t> path;
    absl::flat_hash_map<size_t, size_t> onPath;
    size_t cur = start;
    while (!onPath.count(cur)) {
      onPath[cur] = path.size();
      path.push_back(cur);
      for (Node* d : deps[cur])
        if (pending[position[d]] != 0) {
          cur = position[d];
          break;
        }
    }
    result.ok = false;
    for (size_t k = onPath[cur]; k < path.size(); ++k) result.cycleNodes.push_back(nodeLabel(*order[path[k]]));
    std::reverse(result.cycleNodes.begin(), result.cycleNodes.end());
    return result;
  }

  for (size_t k = 0; k < sorted.size(); ++k)
    if (sorted[k] != k) {
      result.reordered = true;
      break;
    }
  if (result.reordered)
    for (size_t i : sorted) g.moveBefore(order[i], nullptr);
  return result;
}

}  // namespace fb::ir
