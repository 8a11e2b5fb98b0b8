#include "ui/collapse_state.h"

#include "ir/node.h"
#include "layout/hierarchical_layout.h"

namespace fb::ui {

CollapseState collapseStateOf(const layout::HierarchicalLayout& layout) {
  CollapseState out;
  const auto& tree = layout.tree();
  const size_t blocks = tree.blocks.size();
  out.expanded.resize(blocks);
  out.parent.resize(blocks);
  out.depth.resize(blocks);
  out.blockByPath.reserve(blocks);
  for (int b = 0; b < int(blocks); ++b) {
    out.expanded[size_t(b)] = layout.isExpanded(b) ? 1 : 0;
    out.parent[size_t(b)] = tree.blocks[size_t(b)].parent;
    out.depth[size_t(b)] = tree.blocks[size_t(b)].depth;
    if (b == 0) continue;
    // A path two blocks share (groups of consecutive nodes named alike) names neither.
    auto [it, added] = out.blockByPath.emplace(tree.path(b), b);
    if (!added) it->second = -1;
    out.allExpanded = out.allExpanded && layout.isExpanded(b);
  }
  out.nodeIds.reserve(tree.nodes.size());
  for (const ir::Node* n : tree.nodes) out.nodeIds.push_back(n->id());
  out.blockOfNode = tree.blockOfNode;
  return out;
}

void applyCollapseState(layout::HierarchicalLayout& layout, const CollapseState& state) {
  const auto& tree = layout.tree();
  std::unordered_map<uint64_t, int> sourceNode;
  sourceNode.reserve(state.nodeIds.size());
  for (size_t i = 0; i < state.nodeIds.size(); ++i) sourceNode.emplace(state.nodeIds[i], int(i));
  // The source block at `depth` around the source node `id` came from (-1 when there is none).
  auto aroundSource = [&](uint64_t id, int depth) {
    auto it = sourceNode.find(id);
    if (it == sourceNode.end()) return -1;
    int b = state.blockOfNode[size_t(it->second)];
    while (b > 0 && state.depth[size_t(b)] > depth) b = state.parent[size_t(b)];
    return b;
  };
  for (int b = 1; b < int(tree.blocks.size()); ++b) {
    const auto& block = tree.blocks[size_t(b)];
    int source = -1;
    if (auto it = state.blockByPath.find(tree.path(b)); it != state.blockByPath.end()) source = it->second;
    std::vector<int> candidates{block.firstNode};
    candidates.insert(candidates.end(), block.nodes.begin(), block.nodes.end());
    for (size_t i = 0; source < 0 && i < candidates.size(); ++i) {
      const ir::Node* n = tree.nodes[size_t(candidates[i])];
      if (n->origins.empty()) source = aroundSource(n->id(), block.depth);
      for (size_t k = 0; source < 0 && k < n->origins.size(); ++k) source = aroundSource(n->origins[k], block.depth);
    }
    layout.setExpanded(b, source > 0 ? state.expanded[size_t(source)] != 0 : state.allExpanded);
  }
}

}  // namespace fb::ui
