#include "ir/topo_sort.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>

#include "ir/graph.h"

namespace fb::ir {
namespace {

std::string label(const Node* n) { return n->name.empty() ? n->opType + "#" + std::to_string(n->id()) : n->name; }

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

// True when every node comes after the producers of its inputs and no node holds a subgraph (whose captured
// names would need the full walk): the order files almost always have, checked without building the dependency
// lists. Node ids are unique in a graph.
bool alreadyInOrder(const Graph& g) {
  uint64_t maxId = 0;
  for (const auto& n : g.nodes()) maxId = std::max(maxId, n->id());
  std::vector<bool> placed(maxId + 1, false);
  for (const auto& n : g.nodes()) {
    for (const auto& a : n->attributes)
      if (!a.graphs.empty()) return false;
    for (Value* v : n->inputs()) {
      Node* p = v ? v->producer() : nullptr;
      if (p && p->graph() == &g && !placed[p->id()]) return false;
    }
    placed[n->id()] = true;
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

  if (alreadyInOrder(g)) return result;
  std::vector<Node*> order;
  std::unordered_map<const Node*, size_t> position;
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
    std::unordered_map<size_t, size_t> onPath;
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
    for (size_t k = onPath[cur]; k < path.size(); ++k) result.cycleNodes.push_back(label(order[path[k]]));
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
