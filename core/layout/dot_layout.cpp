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
  set(g, "splines", "false");
  set(g, "nslimit", "0.2");
  set(g, "nslimit1", "0.2");
  set(g, "mclimit", "0.1");
  set(g, "remincross", "false");
  set(g, "nodesep", "0.25");
  set(g, "ranksep", "0.35");
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
  for (auto [from, to] : request.edges) {
    if (from < 0 || to < 0 || size_t(from) >= nodes.size() || size_t(to) >= nodes.size() || from == to) continue;
    agedge(g, nodes[from], nodes[to], nullptr, 1);
  }
  if (gvLayout(gvc, g, "dot") != 0) {
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
  result.byDot = true;
  gvFreeLayout(gvc, g);
  agclose(g);
  return result;
}

}  // namespace fb::layout
