#pragma once
// Groups a graph's nodes into nested blocks so that no single layout call sees a big graph.
// Blocks come from the name scopes exporters write ("/encoder/layer.3/attn/MatMul" lies in
// encoder > layer.3 > attn); where names give nothing, runs of consecutive nodes (in graph order,
// which is topological for valid models) become blocks, so every block has a bounded number of children.
#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

namespace fb::ir {
class Graph;
class Node;
}  // namespace fb::ir

namespace fb::layout {

struct Block {
  std::string label;  // "layer.3", "attn", or what a structural group holds: "MatMul ×12, Add ×8, +3 ops"
  int parent = -1;    // -1 for the root
  int depth = 0;
  std::vector<int> childBlocks{};
  std::vector<int> nodes{};  // indices into BlockTree::nodes of the nodes directly inside
  size_t totalNodes = 0;     // nodes inside, at any depth
  int firstNode = 0;         // smallest node index inside, to order siblings
};

struct BlockTree {
  std::vector<Block> blocks;           // blocks[0] is the root (the whole graph)
  std::vector<const ir::Node*> nodes;  // graph order
  std::vector<int> blockOfNode;        // the innermost block holding each node

  // The child of `ancestor` that holds `block` (itself when `block` is a direct child); -1 if not below it.
  int childTowards(int ancestor, int block) const;
  // A readable path: "encoder/layer.3/attn".
  std::string path(int block) const;
};

// Name scopes of a node name: "/a/b/Conv" -> {"a", "b"}; names without '/' have none.
std::vector<std::string> nameScopes(const std::string& nodeName);

// Nodes in `leaveOut` (folded into their consumers for display) get no place in the tree.
BlockTree buildBlockTree(const ir::Graph& g, size_t maxChildren = 40,
                         const std::unordered_set<const ir::Node*>* leaveOut = nullptr);

// The label of a structural group: its most frequent op types, "MatMul ×12, Add ×8, +3 ops".
std::string opSummaryLabel(const std::vector<const ir::Node*>& nodes);

}  // namespace fb::layout
