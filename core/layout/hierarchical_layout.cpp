#include "layout/hierarchical_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <unordered_set>

#include "ir/graph.h"
#include "ir/tensor.h"
#include "layout/dot_layout.h"
#include "layout/layered_layout.h"
#include "layout/segment_clip.h"
#include "util/thread_cpu_time.h"

namespace fb::layout {

namespace {

constexpr double kCharWidth = 7.0;  // average width of the UI's label font, in points
constexpr double kFramePad = 14;
constexpr double kFrameTitle = 22;

double textWidth(size_t chars, double minimum, double maximum) {
  return std::clamp(double(chars) * kCharWidth + 24, minimum, maximum);
}

Size valueBoxSize(const ir::Value& v, bool initializer) {
  return initializer ? Size{textWidth(v.name().size(), 40, 150), 20} : Size{textWidth(v.name().size(), 70, 220), 28};
}

// A collapsed block's name is bold and one size up from the other labels (block_item.h): wider letters. Its box
// is made wide enough for the whole name ("layer.0 - layer.11"); only beyond the maximum does the item shrink it.
Size collapsedBlockSize(const Block& b) {
  constexpr double kBoldCharWidth = 8.5;
  return {std::clamp(double(b.label.size()) * kBoldCharWidth + 24, 110.0, 480.0), 46};
}

// An open block's frame: its content with a margin, and at least as wide as the title written in its top margin.
Size frameSize(const Block& b, Size content) {
  return {std::max(content.width + 2 * kFramePad, double(b.label.size()) * kCharWidth + 20),
          content.height + kFramePad + kFrameTitle};
}

}  // namespace

Size nodeBoxSize(const ir::Node& n, const std::vector<FoldedInput>* details) {
  Size s{textWidth(n.opType.size(), 64, 220), kNodeHeaderHeight};
  const size_t lines = details ? std::min(details->size(), kMaxDetailLines) : 0;
  size_t longest = 0;
  for (size_t i = 0; i < lines; ++i) longest = std::max(longest, (*details)[i].text.size());
  // The bodies of If/Loop/Scan are named below, one line each ("else_branch ›", clicked to open).
  size_t bodies = 0;
  for (const auto& a : n.attributes)
    for (const auto& g : a.graphs)
      if (g) {
        ++bodies;
        longest = std::max(longest, a.name.size() + 2);
      }
  if (lines + bodies == 0) return s;
  // Detail lines use an 8 pt font: about 6.2 points per character.
  s.width = std::max(s.width, std::clamp(double(longest) * 6.2 + 16, 64.0, 260.0));
  s.height += double(lines + bodies) * kDetailLineHeight;
  return s;
}

struct HierarchicalLayout::Endpoint {
  PlacedItem::Kind kind;
  const ir::Node* node;
  const ir::Value* value;
  int homeBlock;
  Size size;
};

HierarchicalLayout::HierarchicalLayout(const ir::Graph& g, LayoutOptions options) : graph_(g), options_(options) {
  buildTree();
  prepare();
}

void HierarchicalLayout::buildTree() {
  const bool fold = options_.foldConstants && !options_.showInitializers;
  folding_ = fold ? foldConstantsForView(graph_) : ConstantFolding{};
  tree_ = buildBlockTree(graph_, options_.maxChildrenPerBlock, &folding_.folded);
  expanded_.assign(tree_.blocks.size(), 0);
  expanded_[0] = 1;
}

const std::vector<FoldedInput>* HierarchicalLayout::foldedInputs(const ir::Node* n) const {
  if (!options_.showFoldedValues) return nullptr;
  auto it = folding_.inputsOf.find(n);
  return it == folding_.inputsOf.end() ? nullptr : &it->second;
}

HierarchicalLayout::~HierarchicalLayout() = default;

void HierarchicalLayout::setOptions(const LayoutOptions& o) {
  const bool rebuild = o.maxChildrenPerBlock != options_.maxChildrenPerBlock ||
                       o.foldConstants != options_.foldConstants || o.showInitializers != options_.showInitializers;
  options_ = o;
  if (rebuild) buildTree();
  cache_.clear();
  prepare();
}

void HierarchicalLayout::prepare() {
  endpoints_.clear();
  nodeIndex_.clear();
  valueEdges_.clear();
  for (size_t i = 0; i < tree_.nodes.size(); ++i) {
    const ir::Node* n = tree_.nodes[i];
    nodeIndex_[n] = int(i);
    endpoints_.push_back({PlacedItem::Kind::Node, n, nullptr, tree_.blockOfNode[i], nodeBoxSize(*n, foldedInputs(n))});
  }
  std::unordered_map<const ir::Value*, int> sourceOf;
  for (const ir::Value* v : graph_.inputs()) {
    if (v->initializer()) continue;  // old exports list weights as inputs too
    sourceOf[v] = int(endpoints_.size());
    endpoints_.push_back({PlacedItem::Kind::Input, nullptr, v, 0, valueBoxSize(*v, false)});
  }
  // A body (If/Loop/Scan) reads values of the graphs around it by name: each is drawn as a stub input.
  for (const ir::Node* n : tree_.nodes)
    for (const ir::Value* v : n->inputs())
      if (v && v->isOuterScope() && !sourceOf.count(v) && !initializerOf(v)) {
        sourceOf[v] = int(endpoints_.size());
        endpoints_.push_back({PlacedItem::Kind::Input, nullptr, v, 0, valueBoxSize(*v, false)});
      }
  std::vector<std::pair<const ir::Value*, int>> outputUnits;
  for (const ir::Value* v : graph_.outputs()) {
    outputUnits.push_back({v, int(endpoints_.size())});
    endpoints_.push_back({PlacedItem::Kind::Output, nullptr, v, 0, valueBoxSize(*v, false)});
  }
  if (options_.showInitializers) {
    for (const auto& t : graph_.initializers()) {
      const ir::Value* v = graph_.findValue(t->name);
      if (!v) continue;
      int home = 0;
      for (const auto& use : v->uses()) {
        auto it = nodeIndex_.find(use.node);
        if (it != nodeIndex_.end()) {
          home = tree_.blockOfNode[it->second];
          break;
        }
      }
      sourceOf[v] = int(endpoints_.size());
      endpoints_.push_back({PlacedItem::Kind::Initializer, nullptr, v, home, valueBoxSize(*v, true)});
    }
  }
  for (size_t i = 0; i < tree_.nodes.size(); ++i)
    for (const ir::Value* out : tree_.nodes[i]->outputs())
      if (out) sourceOf[out] = int(i);
  // One edge per (tensor, consumer), consumers in this graph only (subgraphs read outer values by name).
  for (const auto& [value, from] : sourceOf) {
    std::unordered_set<int> seen;
    for (const auto& use : value->uses()) {
      auto it = nodeIndex_.find(use.node);
      if (it != nodeIndex_.end() && seen.insert(it->second).second) valueEdges_.push_back({from, it->second, value});
    }
  }
  for (auto [value, unit] : outputUnits) {
    auto it = sourceOf.find(value);
    if (it != sourceOf.end()) valueEdges_.push_back({it->second, unit, value});
  }
  // Keep a deterministic order (sourceOf is a hash map).
  std::sort(valueEdges_.begin(), valueEdges_.end(),
            [](const ValueEdge& a, const ValueEdge& b) { return std::tie(a.from, a.to) < std::tie(b.from, b.to); });

  // Units per block: child blocks and endpoints merged by graph order.
  const int E = int(endpoints_.size());
  const int B = int(tree_.blocks.size());
  unitsOf_.assign(B, {});
  localIndex_.assign(E + B, -1);
  auto orderKey = [&](int unit) -> int {
    if (unit >= E) return tree_.blocks[unit - E].firstNode;
    const Endpoint& e = endpoints_[unit];
    if (e.kind == PlacedItem::Kind::Node) return unit;
    if (e.kind == PlacedItem::Kind::Output) return int(tree_.nodes.size()) + unit;
    return -1;  // inputs first; initializers near the start too
  };
  for (int e = 0; e < E; ++e) unitsOf_[endpoints_[e].homeBlock].push_back(e);
  for (int b = 1; b < B; ++b) unitsOf_[tree_.blocks[b].parent].push_back(E + b);
  for (auto& units : unitsOf_) {
    std::stable_sort(units.begin(), units.end(), [&](int a, int b) { return orderKey(a) < orderKey(b); });
    for (size_t i = 0; i < units.size(); ++i) localIndex_[units[i]] = int(i);
  }
  // Each value edge shapes the layout of the innermost block holding both ends. Where an end lies inside a
  // child block, that block gets a port (a point on its top rank for what comes in, on its bottom rank for
  // what goes out) and an edge between the port and the unit, so that dot routes the edge inside the
  // block too: the whole route is the pieces from the tail's block up to the common block and down again.
  localEdges_.assign(B, {});
  portsOf_.assign(B, {});
  routeOf_.assign(valueEdges_.size(), {});
  std::vector<std::unordered_map<uint64_t, int>> seen(B);
  std::vector<std::unordered_map<int, int>> portOf(B);  // per block: local unit * 2 + (in ? 1 : 0) -> port
  auto edgeIn = [&](int block, int from, int to) {
    const uint64_t key = (uint64_t(uint32_t(from)) << 32) | uint32_t(to);
    auto [at, fresh] = seen[block].emplace(key, int(localEdges_[block].size()));
    if (fresh) localEdges_[block].push_back({from, to});
    return at->second;
  };
  auto portIn = [&](int block, int local, bool in) {
    auto [at, fresh] = portOf[block].emplace(local * 2 + (in ? 1 : 0), int(portsOf_[block].size()));
    if (fresh) portsOf_[block].push_back({local, in});
    return int(unitsOf_[block].size()) + at->second;
  };
  // The innermost block holding both: climb to equal depth, then together (no allocation per edge; a 100k-node
  // graph has ~200k value edges).
  auto commonBlock = [&](int a, int b) {
    while (tree_.blocks[a].depth > tree_.blocks[b].depth) a = tree_.blocks[a].parent;
    while (tree_.blocks[b].depth > tree_.blocks[a].depth) b = tree_.blocks[b].parent;
    while (a != b) a = tree_.blocks[a].parent, b = tree_.blocks[b].parent;
    return a;
  };
  for (size_t vi = 0; vi < valueEdges_.size(); ++vi) {
    const auto& ve = valueEdges_[vi];
    const int hs = endpoints_[ve.from].homeBlock, ht = endpoints_[ve.to].homeBlock;
    const int lca = commonBlock(hs, ht);
    // The unit of `block` on the way to an endpoint living in `home`.
    auto unitIn = [&](int block, int endpoint, int home) {
      if (home == block) return endpoint;
      return E + tree_.childTowards(block, home);
    };
    const int us = unitIn(lca, ve.from, hs), ut = unitIn(lca, ve.to, ht);
    if (us == ut) continue;
    auto& pieces = routeOf_[vi];
    for (int x = hs; x != lca; x = tree_.blocks[x].parent) {
      const int local = localIndex_[unitIn(x, ve.from, hs)];
      pieces.push_back({x, edgeIn(x, local, portIn(x, local, false))});
    }
    pieces.push_back({lca, edgeIn(lca, localIndex_[us], localIndex_[ut])});
    std::vector<std::pair<int, int>> down;
    for (int x = ht; x != lca; x = tree_.blocks[x].parent) {
      const int local = localIndex_[unitIn(x, ve.to, ht)];
      down.push_back({x, edgeIn(x, portIn(x, local, true), local)});
    }
    pieces.insert(pieces.end(), down.rbegin(), down.rend());
  }
  current_.assign(B, {});
}

void HierarchicalLayout::setExpanded(int block, bool expanded) {
  if (block <= 0 || size_t(block) >= expanded_.size()) return;  // the root stays open
  expanded_[block] = expanded ? 1 : 0;
}

void HierarchicalLayout::expandAll() { std::fill(expanded_.begin(), expanded_.end(), 1); }

void HierarchicalLayout::expandWithin(size_t maxVisible) {
  std::fill(expanded_.begin(), expanded_.end(), 0);
  expanded_[0] = 1;
  size_t visible = unitsOf_[0].size();
  std::deque<int> queue(tree_.blocks[0].childBlocks.begin(), tree_.blocks[0].childBlocks.end());
  while (!queue.empty()) {
    int b = queue.front();
    queue.pop_front();
    const size_t grown = visible + unitsOf_[b].size() - 1;
    if (grown > maxVisible) continue;
    visible = grown;
    expanded_[b] = 1;
    for (int c : tree_.blocks[b].childBlocks) queue.push_back(c);
  }
}

int HierarchicalLayout::hidingBlock(const ir::Node* n) const {
  auto it = nodeIndex_.find(folding_.shownAs(n));
  if (it == nodeIndex_.end()) return -1;
  int hidden = -1;
  for (int b = tree_.blockOfNode[it->second]; b >= 0; b = tree_.blocks[b].parent)
    if (!expanded_[b]) hidden = b;
  return hidden;
}

void HierarchicalLayout::reveal(const ir::Node* n) {
  auto it = nodeIndex_.find(folding_.shownAs(n));
  if (it == nodeIndex_.end()) return;
  for (int b = tree_.blockOfNode[it->second]; b >= 0; b = tree_.blocks[b].parent) expanded_[b] = 1;
}

int HierarchicalLayout::visibleUnit(int unit) const {
  const int E = int(endpoints_.size());
  int rep = unit;
  int b = unit < E ? endpoints_[unit].homeBlock : unit - E;
  for (; b >= 0; b = tree_.blocks[b].parent)
    if (!expanded_[b]) rep = E + b;
  return rep;
}

Size HierarchicalLayout::blockSize(int block, const std::atomic<bool>* cancel, LayoutStats& stats, bool& cancelled) {
  if (!expanded_[block]) return collapsedBlockSize(tree_.blocks[block]);
  if (cancel && cancel->load()) {
    cancelled = true;
    return {};
  }
  const int E = int(endpoints_.size());
  LayoutRequest req;
  req.leftToRight = options_.leftToRight;
  std::string key = std::to_string(block) + (options_.leftToRight ? "h" : "v");
  for (int unit : unitsOf_[block]) {
    Size s;
    if (unit < E) {
      s = endpoints_[unit].size;
    } else {
      s = blockSize(unit - E, cancel, stats, cancelled);
      if (expanded_[unit - E]) s = frameSize(tree_.blocks[unit - E], s);
    }
    if (cancelled) return {};
    req.boxes.push_back(s);
    char buf[40];
    std::snprintf(buf, sizeof buf, ",%.0fx%.0f", s.width, s.height);
    key += buf;
  }
  constexpr double kPortSize = 2;
  for (const Port& port : portsOf_[block]) {
    (port.in ? req.firstRank : req.lastRank).push_back(int(req.boxes.size()));
    req.boxes.push_back({kPortSize, kPortSize});
  }
  key += "p" + std::to_string(portsOf_[block].size());
  req.edges = localEdges_[block];
  auto hit = cache_.find(key);
  if (hit != cache_.end()) {
    ++stats.cacheHits;
    current_[block] = hit->second;
  } else {
    std::optional<LayoutResult> placed;
    if (req.boxes.size() <= options_.dotMaxBoxes && stats.dotMs < options_.dotBudgetMs) {
      // Thread CPU time, not wall time: a loaded machine must not get a different (layered) layout.
      const double start = threadCpuMs();
      placed = layoutWithDot(req);
      stats.dotMs += threadCpuMs() - start;
      ++stats.dotCalls;
    }
    if (!placed) {
      placed = layoutLayered(req);
      ++stats.layeredCalls;
    }
    current_[block] = *placed;
    cache_.emplace(std::move(key), *placed);
  }
  return {current_[block].width, current_[block].height};
}

namespace {

// Where an edge leaves its tail box (bottom or right side) and enters its head box (top or left side).
Point port(const PlacedItem& it, bool tail, bool leftToRight) {
  const double sign = tail ? 1 : -1;
  return leftToRight ? Point{it.center.x + sign * it.size.width / 2, it.center.y}
                     : Point{it.center.x, it.center.y + sign * it.size.height / 2};
}

void appendStraight(std::vector<Point>& path, Point to) {
  const Point from = path.back();
  path.push_back({from.x + (to.x - from.x) / 3, from.y + (to.y - from.y) / 3});
  path.push_back({from.x + 2 * (to.x - from.x) / 3, from.y + 2 * (to.y - from.y) / 3});
  path.push_back(to);
}

// The hop between a port on the edge of a block's content and the block's frame. Where dot drew the outer
// piece from the other side of the frame (the blocks' order was reversed to break a cycle), a straight hop
// would cut through the block's content: it goes round the content instead, in the frame's margin.
void appendHop(std::vector<Point>& path, Point to, Point contentTopLeft, Size content) {
  const Point from = path.back();
  const double x0 = contentTopLeft.x, y0 = contentTopLeft.y, x1 = x0 + content.width, y1 = y0 + content.height;
  // Ports lie on the edge of the content, a point or two inside it: only a hop deeper in goes round.
  constexpr double kSlack = 5;
  if (!segmentEntersRect(from.x, from.y, to.x, to.y, {x0 + kSlack, y0 + kSlack, x1 - kSlack, y1 - kSlack}))
    return appendStraight(path, to);
  // A ring half way between the content and the frame, walked clockwise from its top-left corner.
  const double m = 7;
  const double rx0 = x0 - m, ry0 = y0 - m, rx1 = x1 + m, ry1 = y1 + m;
  const double w = rx1 - rx0, h = ry1 - ry0, perimeter = 2 * (w + h);
  auto onRing = [&](Point p) {  // the nearest point of the ring and its distance along it
    p.x = std::clamp(p.x, rx0, rx1);
    p.y = std::clamp(p.y, ry0, ry1);
    const double dl = p.x - rx0, dr = rx1 - p.x, dt = p.y - ry0, db = ry1 - p.y;
    const double least = std::min({dl, dr, dt, db});
    if (least == dt) return std::pair{Point{p.x, ry0}, p.x - rx0};
    if (least == dr) return std::pair{Point{rx1, p.y}, w + p.y - ry0};
    if (least == db) return std::pair{Point{p.x, ry1}, w + h + rx1 - p.x};
    return std::pair{Point{rx0, p.y}, 2 * w + h + ry1 - p.y};
  };
  const auto [a, sa] = onRing(from);
  const auto [b, sb] = onRing(to);
  const Point corners[4] = {{rx0, ry0}, {rx1, ry0}, {rx1, ry1}, {rx0, ry1}};
  const double cornerAt[4] = {0, w, w + h, 2 * w + h};
  const double forward = std::fmod(sb - sa + perimeter, perimeter);
  const bool clockwise = forward <= perimeter - forward;
  appendStraight(path, a);
  // The corners passed on the way, in order of travel.
  std::vector<std::pair<double, Point>> passed;
  for (int i = 0; i < 4; ++i) {
    const double d = clockwise ? std::fmod(cornerAt[i] - sa + perimeter, perimeter)
                               : std::fmod(sa - cornerAt[i] + perimeter, perimeter);
    if (d > 0 && d < (clockwise ? forward : perimeter - forward)) passed.push_back({d, corners[i]});
  }
  std::sort(passed.begin(), passed.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  for (const auto& [d, c] : passed) appendStraight(path, c);
  appendStraight(path, b);
  appendStraight(path, to);
}

bool inside(const PlacedItem& it, Point p) {
  return std::abs(p.x - it.center.x) <= it.size.width / 2 + 1 && std::abs(p.y - it.center.y) <= it.size.height / 2 + 1;
}

}  // namespace

bool HierarchicalLayout::contentVisible(int block) const {
  for (int b = block; b >= 0; b = tree_.blocks[b].parent)
    if (!expanded_[b]) return false;
  return true;
}

std::vector<Point> HierarchicalLayout::routeFor(size_t valueEdge, const PlacedItem& tail, const PlacedItem& head,
                                                const std::vector<Point>& originOf) const {
  std::vector<Point> route;
  int previous = -1;  // the block of the previous piece
  for (auto [block, index] : routeOf_[valueEdge]) {
    // Pieces inside collapsed blocks are not drawn: the edge starts or ends at the collapsed box.
    if (!contentVisible(block)) continue;
    if (size_t(index) >= current_[block].edgePaths.size() || current_[block].edgePaths[index].empty()) return {};
    const auto& local = current_[block].edgePaths[index];
    const Point o = originOf[block];
    const Point start{local.front().x + o.x, local.front().y + o.y};
    if (route.empty()) {
      if (!inside(tail, start)) {
        route.push_back(port(tail, true, options_.leftToRight));
        appendStraight(route, start);
      } else {
        route.push_back(start);
      }
    } else {
      // From a port to the frame (or the frame to a port): a hop through the margin of the inner block's frame.
      const int inner = previous >= 0 && tree_.blocks[block].parent == previous ? block : previous;
      if (inner >= 0)
        appendHop(route, start, originOf[inner], {current_[inner].width, current_[inner].height});
      else
        appendStraight(route, start);
    }
    for (size_t i = 1; i < local.size(); ++i) route.push_back({local[i].x + o.x, local[i].y + o.y});
    previous = block;
  }
  if (route.empty()) return {};
  if (!inside(head, route.back())) appendStraight(route, port(head, false, options_.leftToRight));
  return route;
}

PlacedGraph HierarchicalLayout::compute(const std::atomic<bool>* cancel) {
  PlacedGraph out;
  bool cancelled = false;
  const Size total = blockSize(0, cancel, out.stats, cancelled);
  if (cancelled) {
    out.cancelled = true;
    return out;
  }
  out.width = total.width;
  out.height = total.height;
  const int E = int(endpoints_.size());
  std::vector<int> itemOfUnit(E + tree_.blocks.size(), -1);
  // Top-down: each block's relative centers are offset by the top-left of its content area.
  struct Pending {
    int block;
    Point origin;
  };
  std::vector<Pending> stack{{0, {0, 0}}};
  std::vector<Point> originOf(tree_.blocks.size());
  while (!stack.empty()) {
    auto [block, origin] = stack.back();
    stack.pop_back();
    originOf[block] = origin;
    const auto& placed = current_[block];
    const auto& units = unitsOf_[block];
    for (size_t i = 0; i < units.size() && i < placed.centers.size(); ++i) {
      const int unit = units[i];
      PlacedItem item;
      item.center = {origin.x + placed.centers[i].x, origin.y + placed.centers[i].y};
      if (unit < E) {
        const Endpoint& e = endpoints_[unit];
        item.kind = e.kind;
        item.node = e.node;
        item.value = e.value;
        item.size = e.size;
      } else {
        const int b = unit - E;
        item.kind = PlacedItem::Kind::Block;
        item.block = b;
        item.expanded = expanded_[b];
        if (item.expanded) {
          item.size = frameSize(tree_.blocks[b], {current_[b].width, current_[b].height});
          const Point topLeft{item.center.x - item.size.width / 2, item.center.y - item.size.height / 2};
          // Centred: a frame widened for its title has more margin than kFramePad.
          stack.push_back({b, {topLeft.x + (item.size.width - current_[b].width) / 2, topLeft.y + kFrameTitle}});
        } else {
          item.size = collapsedBlockSize(tree_.blocks[b]);
        }
      }
      itemOfUnit[unit] = int(out.items.size());
      out.items.push_back(item);
    }
  }
  std::unordered_set<uint64_t> blockPairs;
  for (size_t vi = 0; vi < valueEdges_.size(); ++vi) {
    const auto& ve = valueEdges_[vi];
    const int a = visibleUnit(ve.from), b = visibleUnit(ve.to);
    if (a == b) continue;
    const int ia = itemOfUnit[a], ib = itemOfUnit[b];
    if (ia < 0 || ib < 0) continue;
    // Between collapsed blocks many tensors would draw the same line: keep one.
    if (a >= E || b >= E) {
      const uint64_t key = (uint64_t(uint32_t(ia)) << 32) | uint32_t(ib);
      if (!blockPairs.insert(key).second) continue;
    }
    out.edges.push_back({ia, ib, ve.value, routeFor(vi, out.items[ia], out.items[ib], originOf)});
  }
  return out;
}

}  // namespace fb::layout
