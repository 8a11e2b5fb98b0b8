#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

void collectInnermostFirst(ir::Graph& g, std::vector<ir::Graph*>& out) {
  for (const auto& n : g.nodes())
    for (ir::Graph* sg : n->subgraphs()) collectInnermostFirst(*sg, out);
  out.push_back(&g);
}

}  // namespace

std::vector<ir::Graph*> graphsInnermostFirst(ir::Graph& main) {
  std::vector<ir::Graph*> graphs;
  collectInnermostFirst(main, graphs);
  return graphs;
}

PassChange GraphPass::run(ir::Model& m) { return runOnGraphs(m, graphsInnermostFirst(m.graph())); }

std::vector<ir::Node*> GraphPass::nodesToVisit(const ir::Graph& g) const {
  return &g == limitedGraph_ ? limitedTo_ : nodeList(g);
}

PassChange GraphPass::runOnGraphs(ir::Model& m, const std::vector<ir::Graph*>& graphs, bool* bodiesChanged) {
  PassChange total;
  if (bodiesChanged) *bodiesChanged = false;
  for (ir::Graph* g : graphs) {
    PassChange c = runOnGraph(m, *g);
    if (bodiesChanged && g != graphs.back() && c.changed()) *bodiesChanged = true;
    total.nodesRemoved += c.nodesRemoved;
    total.nodesAdded += c.nodesAdded;
    total.initializersRemoved += c.initializersRemoved;
    total.initializersAdded += c.initializersAdded;
    total.other |= c.other;
    total.warnings.insert(total.warnings.end(), c.warnings.begin(), c.warnings.end());
  }
  return total;
}

}  // namespace fb::passes
