#pragma once
// Which blocks of a laid-out graph are open, so that another version of the same model opens the way the user left
// this one: a preview shows the converted graph with its source's blocks open and collapsed. A block of the other
// graph takes the state of the one source block with its path ("encoder/layer.3/attn": scopes survive conversion);
// failing that (groups of consecutive nodes are named by the ops they hold, names that repeat and that conversion
// changes), of the source block at its depth around the source node its first node came from (provenance: id or
// origins); blocks with neither stay collapsed unless the source was open everywhere. Captured on the UI thread,
// applied on a worker: it holds copies, no pointers into the source.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace fb::layout {
class HierarchicalLayout;
}

namespace fb::ui {

struct CollapseState {
  // Per block of the source's tree (0 is the root).
  std::vector<char> expanded;
  std::vector<int> parent, depth;
  std::unordered_map<std::string, int> blockByPath;  // -1: a path several blocks share
  // Per node of the source's tree: its id and innermost block.
  std::vector<uint64_t> nodeIds;
  std::vector<int> blockOfNode;
  bool allExpanded = true;
};

CollapseState collapseStateOf(const layout::HierarchicalLayout& layout);
void applyCollapseState(layout::HierarchicalLayout& layout, const CollapseState& state);

}  // namespace fb::ui
