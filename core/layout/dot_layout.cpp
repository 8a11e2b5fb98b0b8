#include "layout/dot_layout.h"

#include <cstdio>
#include <string>

#include "layout/graphviz_context.h"

namespace fb::layout {

namespace {

constexpr auto set = setGraphvizAttr;

std::string inches(double points) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", points / 72.0);
  return buf;
}

}  // namespace

std::optional<LayoutResult> layoutWithDot(const LayoutRequest& request) {
  LayoutResult result;
  if (request.boxes.empty()) return result;
  std::lock_guard lock(graphvizMutex());
  GVC_t* gvc = graphvizContext();
  if (!gvc) return std::nullopt;
  Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
  set(g, "rankdir", request.leftToRight ? "LR" : "TB");
  const bool route = request.edges.size() <= kMaxRoutedEdges;
  set(g, "splines", route ? "spline" : "false");
  set(g, "nslimit", "0.2");
  set(g, "nslimit1", "0.2");
  set(g, "mclimit", "0.1");
  set(g, "remincross", "false");
  set(g, "nodesep", "0.25");
  // Left to right, ranks sit side by side and edge labels run along the gap between them: the gap must take a
  // shape label (about 1.2 in at 8 pt), or most labels find no room.
  set(g, "ranksep", request.leftToRight ? "1.2" : "0.35");
  std::vector<Agnode_t*> nodes;
  nodes.reserve(request.boxes.size());
  for (size_t i = 0; i < request.boxes.size(); ++i) {
    Agnode_t* n = agnode(g, const_cast<char*>(std::to_string(i).c_str()), 1);
    set(n, "shape", "box");
    set(n, "fixedsize", "true");
    set(n, "label", "");
    set(n, "width", inches(request.boxes[i].width));
    set(n, "height", inches(request.boxes[i].height));
    nodes.push_back(n);
  }
  // Arrowheads are drawn by the UI: without them the route ends on the head box itself.
  agattr(g, AGEDGE, const_cast<char*>("arrowhead"), const_cast<char*>("none"));
  std::vector<Agedge_t*> edges(request.edges.size(), nullptr);
  for (size_t i = 0; i < request.edges.size(); ++i) {
    auto [from, to] = request.edges[i];
    if (from < 0 || to < 0 || size_t(from) >= nodes.size() || size_t(to) >= nodes.size() || from == to) continue;
    edges[i] = agedge(g, nodes[from], nodes[to], nullptr, 1);
  }
  // Pinned boxes: invisible edges (weight 0, so that they do not pull) above every box nothing enters, or
  // below every box nothing leaves. Rank constraints on subgraphs would say the same but crash dot's
  // mincross on some graphs (Graphviz 2.43).
  // Only worth it where the edges are routed, and only while the extra edges stay few.
  const size_t pinned = request.firstRank.size() + request.lastRank.size();
  if (route && pinned > 0 && pinned * request.boxes.size() <= 4 * kMaxRoutedEdges) {
    std::vector<char> pinned(nodes.size(), 0), hasIn(nodes.size(), 0), hasOut(nodes.size(), 0);
    for (int b : request.firstRank) pinned[size_t(b)] = 1;
    for (int b : request.lastRank) pinned[size_t(b)] = 1;
    for (auto [from, to] : request.edges)
      if (from != to && !pinned[size_t(from)] && !pinned[size_t(to)]) hasIn[size_t(to)] = hasOut[size_t(from)] = 1;
    auto invisible = [&](size_t from, size_t to) {
      if (agedge(g, nodes[from], nodes[to], nullptr, 0)) return;  // a real edge says it already
      Agedge_t* e = agedge(g, nodes[from], nodes[to], nullptr, 1);
      set(e, "style", "invis");
      set(e, "weight", "0");
    };
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (pinned[i]) continue;
      if (!hasIn[i])
        for (int b : request.firstRank) invisible(size_t(b), i);
      if (!hasOut[i])
        for (int b : request.lastRank) invisible(i, size_t(b));
    }
  }
  GraphvizErrors errors;
  const int rc = gvLayout(gvc, g, "dot");
  if (rc != 0 || errors.any()) {
    // The caller places the boxes itself: the user sees a picture, not Graphviz's complaint.
    if (rc == 0) gvFreeLayout(gvc, g);
    agclose(g);
    return std::nullopt;
  }
  const boxf bb = GD_bb(g);
  result.width = bb.UR.x - bb.LL.x;
  result.height = bb.UR.y - bb.LL.y;
  result.centers.reserve(nodes.size());
  for (Agnode_t* n : nodes) {
    const pointf p = ND_coord(n);
    // Graphviz puts y upwards; the UI and SVG want it downwards.
    result.centers.push_back({p.x - bb.LL.x, bb.UR.y - p.y});
  }
  result.edgePaths.resize(edges.size());
  for (size_t i = 0; route && i < edges.size(); ++i) {
    if (!edges[i] || !ED_spl(edges[i])) continue;
    const splines* spl = ED_spl(edges[i]);
    auto& path = result.edgePaths[i];
    for (int b = 0; b < spl->size; ++b) {
      const bezier& bz = spl->list[b];
      for (int k = (b == 0 ? 0 : 1); k < bz.size; ++k) path.push_back({bz.list[k].x - bb.LL.x, bb.UR.y - bz.list[k].y});
    }
    if (path.size() < 4 || (path.size() - 1) % 3 != 0) path.clear();
  }
  result.byDot = true;
  gvFreeLayout(gvc, g);
  agclose(g);
  return result;
}

}  // namespace fb::layout
