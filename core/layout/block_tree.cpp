#include "layout/block_tree.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/graph.h"

namespace fb::layout {

std::vector<std::string> nameScopes(const std::string& nodeName) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= nodeName.size()) {
    size_t slash = nodeName.find('/', start);
    if (slash == std::string::npos) break;  // the last part is the node's own name
    if (slash > start) parts.push_back(nodeName.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

int BlockTree::childTowards(int ancestor, int block) const {
  while (block >= 0) {
    int p = blocks[block].parent;
    if (p == ancestor) return block;
    block = p;
  }
  return -1;
}

std::string BlockTree::path(int block) const {
  std::string out;
  for (int b = block; b > 0; b = blocks[b].parent) out = blocks[b].label + (out.empty() ? "" : "/" + out);
  return out;
}

namespace {

struct Builder {
  BlockTree& t;
  size_t maxChildren;
  std::vector<std::map<std::string, int>> childByName;
  // Per structural group: the first and last name scope it holds (nested groups included); absent for groups that
  // hold nodes only.
  std::map<int, std::pair<std::string, std::string>> scopeRange{};
  std::set<int> opGroups{};  // structural groups of nodes only (named by their ops, not a scope)

  // The first and last scope under child `c` of a group: its own name, or the range of a group within the group.
  std::pair<std::string, std::string> rangeOf(int c) const {
    auto it = scopeRange.find(c);
    return it != scopeRange.end() ? it->second : std::pair{t.blocks[c].label, t.blocks[c].label};
  }

  // A group holding scopes (a run of repeated layers) is named by the first and last of them: "layer.0 - layer.9",
  // with the nodes it holds beside them counted; a group of nodes only, by its most frequent ops.
  std::string groupLabel(int gid) {
    const Block& g = t.blocks[gid];
    std::vector<int> scoped;
    for (int c : g.childBlocks)
      if (!opGroups.count(c)) scoped.push_back(c);
    if (scoped.empty()) {
      opGroups.insert(gid);
      return opSummaryLabel(nodesUnder(gid));
    }
    const std::string first = rangeOf(scoped.front()).first, last = rangeOf(scoped.back()).second;
    scopeRange[gid] = {first, last};
    std::string out = first == last ? first : first + " - " + last;
    if (!g.nodes.empty()) out += " (+" + std::to_string(g.nodes.size()) + (g.nodes.size() == 1 ? " node)" : " nodes)");
    return out;
  }

  int child(int parent, const std::string& label) {
    auto it = childByName[parent].find(label);
    if (it != childByName[parent].end()) return it->second;
    Block b;
    b.label = label;
    b.parent = parent;
    t.blocks.push_back(b);
    childByName.emplace_back();
    int id = int(t.blocks.size()) - 1;
    t.blocks[parent].childBlocks.push_back(id);
    childByName[parent].emplace(label, id);
    return id;
  }

  // A scope holding just one sub-scope and no node adds a level without telling anything: merge it
  // into its child ("features.1" > "conv" becomes "features.1/conv").
  void mergeChains(int b) {
    for (int c : t.blocks[b].childBlocks) mergeChains(c);
    // A scope around a single node only adds a frame: give the node to the parent.
    std::vector<int> kept;
    for (int c : t.blocks[b].childBlocks) {
      Block& cb = t.blocks[c];
      if (cb.childBlocks.empty() && cb.nodes.size() == 1) {
        t.blocks[b].nodes.push_back(cb.nodes[0]);
        t.blockOfNode[cb.nodes[0]] = b;
        cb.nodes.clear();
        cb.parent = -2;
      } else {
        kept.push_back(c);
      }
    }
    t.blocks[b].childBlocks = std::move(kept);
    std::sort(t.blocks[b].nodes.begin(), t.blocks[b].nodes.end());
    Block& blk = t.blocks[b];
    if (b != 0 && blk.nodes.empty() && blk.childBlocks.size() == 1) {
      int only = blk.childBlocks[0];
      Block& c = t.blocks[only];
      blk.label += "/" + c.label;
      blk.nodes = std::move(c.nodes);
      blk.childBlocks = std::move(c.childBlocks);
      c.childBlocks.clear();
      c.parent = -2;  // detached; dropped by compact()
      for (int n : blk.nodes) t.blockOfNode[n] = b;
      for (int cc : blk.childBlocks) t.blocks[cc].parent = b;
    }
  }

  std::vector<const ir::Node*> nodesUnder(int b) const {
    std::vector<const ir::Node*> out;
    std::vector<int> stack{b};
    while (!stack.empty()) {
      const Block& blk = t.blocks[stack.back()];
      stack.pop_back();
      for (int n : blk.nodes) out.push_back(t.nodes[n]);
      stack.insert(stack.end(), blk.childBlocks.begin(), blk.childBlocks.end());
    }
    return out;
  }

  int firstNode(int b) {
    Block& blk = t.blocks[b];
    int first = blk.nodes.empty() ? int(t.nodes.size()) : blk.nodes.front();
    for (int c : blk.childBlocks) first = std::min(first, firstNode(c));
    blk.firstNode = first;
    return first;
  }

  // Too many children: put runs of consecutive children into structural blocks, repeatedly.
  void bound(int b) {
    for (size_t i = 0; i < t.blocks[b].childBlocks.size(); ++i) bound(t.blocks[b].childBlocks[i]);
    while (t.blocks[b].childBlocks.size() + t.blocks[b].nodes.size() > maxChildren) {
      // Children in graph order: nodes as (index, -1), blocks as (firstNode, block).
      std::vector<std::pair<int, int>> kids;
      for (int n : t.blocks[b].nodes) kids.push_back({n, -1});
      for (int c : t.blocks[b].childBlocks) kids.push_back({t.blocks[c].firstNode, c});
      std::sort(kids.begin(), kids.end());
      Block& blk = t.blocks[b];
      blk.nodes.clear();
      blk.childBlocks.clear();
      for (size_t start = 0; start < kids.size(); start += maxChildren) {
        size_t end = std::min(kids.size(), start + maxChildren);
        Block g;
        g.parent = b;
        g.firstNode = kids[start].first;
        t.blocks.push_back(g);
        int gid = int(t.blocks.size()) - 1;
        t.blocks[b].childBlocks.push_back(gid);
        for (size_t k = start; k < end; ++k) {
          auto [first, c] = kids[k];
          if (c < 0) {
            t.blocks[gid].nodes.push_back(first);
            t.blockOfNode[first] = gid;
          } else {
            t.blocks[gid].childBlocks.push_back(c);
            t.blocks[c].parent = gid;
          }
        }
        t.blocks[gid].label = groupLabel(gid);
      }
    }
  }

  // Drops merged-away blocks and renumbers so that parents come before children.
  void compact() {
    std::vector<int> newId(t.blocks.size(), -1);
    std::vector<int> order{0};
    for (size_t i = 0; i < order.size(); ++i)
      for (int c : t.blocks[order[i]].childBlocks) order.push_back(c);
    for (size_t i = 0; i < order.size(); ++i) newId[order[i]] = int(i);
    std::vector<Block> out;
    out.reserve(order.size());
    for (int old : order) {
      Block b = t.blocks[old];
      b.parent = b.parent >= 0 ? newId[b.parent] : -1;
      for (int& c : b.childBlocks) c = newId[c];
      out.push_back(std::move(b));
    }
    for (int& b : t.blockOfNode) b = newId[b];
    t.blocks = std::move(out);
  }

  size_t finish(int b, int depth) {
    Block& blk = t.blocks[b];
    blk.depth = depth;
    std::sort(blk.childBlocks.begin(), blk.childBlocks.end(),
              [&](int x, int y) { return t.blocks[x].firstNode < t.blocks[y].firstNode; });
    size_t total = t.blocks[b].nodes.size();
    for (int c : std::vector<int>(t.blocks[b].childBlocks)) total += finish(c, depth + 1);
    t.blocks[b].totalNodes = total;
    return total;
  }
};

}  // namespace

std::string opSummaryLabel(const std::vector<const ir::Node*>& nodes) {
  std::map<std::string, int> counts;
  for (const ir::Node* n : nodes) ++counts[n->opType];
  std::vector<std::pair<int, std::string>> byCount;
  for (const auto& [op, c] : counts) byCount.push_back({-c, op});
  std::sort(byCount.begin(), byCount.end());
  std::string out;
  constexpr size_t kShown = 2;
  for (size_t i = 0; i < byCount.size() && i < kShown; ++i) {
    if (i) out += ", ";
    out += byCount[i].second;
    if (byCount[i].first < -1) out += " \xC3\x97" + std::to_string(-byCount[i].first);  // ×
  }
  if (byCount.size() > kShown) out += ", +" + std::to_string(byCount.size() - kShown) + " ops";
  return out.empty() ? std::string("(empty)") : out;
}

BlockTree buildBlockTree(const ir::Graph& g, size_t maxChildren, const std::unordered_set<const ir::Node*>* leaveOut) {
  BlockTree t;
  t.blocks.push_back(Block{.label = g.name});
  Builder b{t, std::max<size_t>(maxChildren, 2), {}};
  b.childByName.emplace_back();
  for (const auto& n : g.nodes()) {
    if (leaveOut && leaveOut->count(n.get())) continue;
    int idx = int(t.nodes.size());
    t.nodes.push_back(n.get());
    int block = 0;
    for (const auto& scope : nameScopes(n->name)) block = b.child(block, scope);
    t.blocks[block].nodes.push_back(idx);
    t.blockOfNode.push_back(block);
  }
  b.mergeChains(0);
  b.firstNode(0);
  b.bound(0);
  b.compact();
  b.finish(0, 0);
  return t;
}

}  // namespace fb::layout
