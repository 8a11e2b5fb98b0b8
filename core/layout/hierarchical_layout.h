#pragma once
// Lays out a graph block by block (see block_tree.h): each expanded block's children are placed by one
// small dot call (or the layered fallback once the time budget is spent), inner blocks first so that an
// expanded block is a frame sized to its content. Collapsed blocks are single boxes. Results of each
// block are cached by the sizes of its children, so expanding one block only re-lays out its ancestors.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "layout/block_tree.h"
#include "layout/constant_folding_view.h"
#include "layout/layout_types.h"

namespace fb::ir {
class Graph;
class Node;
class Value;
}  // namespace fb::ir

namespace fb::layout {

struct LayoutOptions {
  bool leftToRight = false;
  bool showInitializers = false;  // initializers as their own small boxes (hidden by default, like Netron);
                                  // shows Constant and Identity nodes as boxes too
  bool foldConstants = true;      // Constant / Identity-of-initializer nodes folded into their consumers
  bool showFoldedValues = true;   // consumers list their folded inputs ("W 256×256") inside their box
  double dotBudgetMs = 1500;      // once dot has used this much CPU time in one compute(), the rest is layered
  size_t dotMaxBoxes = 300;       // a block with more children than this is never given to dot
  size_t maxChildrenPerBlock = 40;
};

struct PlacedItem {
  enum class Kind { Node, Block, Input, Output, Initializer };
  Kind kind = Kind::Node;
  const ir::Node* node = nullptr;    // Kind::Node
  const ir::Value* value = nullptr;  // Input / Output / Initializer
  int block = -1;                    // Kind::Block: index into BlockTree::blocks
  bool expanded = false;             // Kind::Block: a frame drawn behind its content
  Point center;
  Size size;
};

struct PlacedEdge {
  int from = -1;  // indices into PlacedGraph::items
  int to = -1;
  const ir::Value* value = nullptr;  // the tensor carried (the first one when a collapsed block merges many)
  // The route, as cubic Bézier control points (p0 c1 c2 p1 ...) from the tail box to the head box; empty
  // when the block was placed without routing (then a straight line is all there is).
  std::vector<Point> path;
};

struct LayoutStats {
  int dotCalls = 0;
  int layeredCalls = 0;
  int cacheHits = 0;
  double dotMs = 0;
};

struct PlacedGraph {
  std::vector<PlacedItem> items;  // frames of expanded blocks come before what they contain
  std::vector<PlacedEdge> edges;
  double width = 0;
  double height = 0;
  LayoutStats stats;
  bool cancelled = false;
};

// Sizes the UI and the renderers agree on (points). `details`: the lines listing folded inputs; a line more for
// each body of an If/Loop/Scan (its attribute's name).
Size nodeBoxSize(const ir::Node& n, const std::vector<FoldedInput>* details = nullptr);
// Detail lines a node box shows at most (the last one says how many more there are).
constexpr size_t kMaxDetailLines = 5;
constexpr double kNodeHeaderHeight = 40;  // op type and node name
constexpr double kDetailLineHeight = 12;

class HierarchicalLayout {
 public:
  explicit HierarchicalLayout(const ir::Graph& g, LayoutOptions options = {});
  ~HierarchicalLayout();

  const BlockTree& tree() const { return tree_; }
  const ConstantFolding& folding() const { return folding_; }
  // The inputs a drawn node shows inside its box (nullptr when none, or when the option is off).
  const std::vector<FoldedInput>* foldedInputs(const ir::Node* n) const;
  const ir::Graph& graph() const { return graph_; }
  const LayoutOptions& options() const { return options_; }
  void setOptions(const LayoutOptions& o);

  bool isExpanded(int block) const { return expanded_[block]; }
  void setExpanded(int block, bool expanded);
  void expandAll();
  // Expands blocks breadth first while the number of visible boxes stays within `maxVisible`.
  void expandWithin(size_t maxVisible);
  // The block a node is drawn in when collapsed blocks hide it (-1 when the node itself is visible).
  int hidingBlock(const ir::Node* n) const;
  // Expands every block on the way to a node so that it becomes visible.
  void reveal(const ir::Node* n);

  // Places what is visible. `cancel` is polled between blocks.
  PlacedGraph compute(const std::atomic<bool>* cancel = nullptr);

 private:
  struct Endpoint;
  void prepare();
  Size blockSize(int block, const std::atomic<bool>* cancel, LayoutStats& stats, bool& cancelled);
  int visibleUnit(int unit) const;
  bool contentVisible(int block) const;
  std::vector<Point> routeFor(size_t valueEdge, const PlacedItem& tail, const PlacedItem& head,
                              const std::vector<Point>& originOf) const;

  void buildTree();

  const ir::Graph& graph_;
  LayoutOptions options_;
  ConstantFolding folding_;
  BlockTree tree_;
  std::vector<char> expanded_;
  // Units: endpoints (nodes, then inputs, outputs, initializers) followed by blocks.
  std::vector<Endpoint> endpoints_;
  std::unordered_map<const ir::Node*, int> nodeIndex_;
  std::vector<std::vector<int>> unitsOf_;                     // per block, its child units in layout order
  std::vector<int> localIndex_;                               // per unit, its index in its parent's unitsOf_
  std::vector<std::vector<std::pair<int, int>>> localEdges_;  // per block, between its units (local indices)
  struct ValueEdge {
    int from, to;  // units (endpoints)
    const ir::Value* value;
  };
  std::vector<ValueEdge> valueEdges_;
  // Per value edge: the pieces of its route, in order of travel, as (block, index of the edge there).
  std::vector<std::vector<std::pair<int, int>>> routeOf_;
  struct Port {
    int unit;  // local index of the unit inside the block the port connects
    bool in;   // on the top rank (from outside to the unit) or the bottom rank (from the unit outwards)
  };
  std::vector<std::vector<Port>> portsOf_;  // per block, laid out after its units
  std::vector<LayoutResult> current_;       // per block, from the last compute()
  std::unordered_map<std::string, LayoutResult> cache_;
};

}  // namespace fb::layout
