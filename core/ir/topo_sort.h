#pragma once
// Orders nodes so every value is produced before it is used; reports cycles by the nodes in them.
#include <string>
#include <vector>

namespace fb::ir {

class Graph;

struct TopoResult {
  bool ok = true;
  bool reordered = false;               // nodes were stored out of order and have been sorted
  std::vector<std::string> cycleNodes;  // names (or op#index) of the nodes on one cycle
};

// Sorts `g` in place (stable: an already sorted graph keeps its order). Subgraphs are sorted too.
// On a cycle the graph is left as it was and the result names the cycle.
TopoResult topologicalSort(Graph& g);

}  // namespace fb::ir
