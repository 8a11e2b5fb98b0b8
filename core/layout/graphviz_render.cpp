#include "layout/graphviz_render.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "check/onnx_check.h"
#include "ir/model.h"
#include "layout/graphviz_context.h"
#include "layout/op_category.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace fb::layout {

namespace {

constexpr auto set = setGraphvizAttr;

std::string num(double v, const char* fmt = "%.2f") {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string formatOf(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".svg") return "svg";
  if (ext == ".png") return "png";
  if (ext == ".dot" || ext == ".gv") return "dot";
  return {};
}

// Graphviz's own text, on one line, after FlowBridge's sentence (it is about our graph, not the model's strings).
std::string graphvizReason(const GraphvizErrors& errors) {
  std::string reason;
  for (char c : errors.text()) reason += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  while (!reason.empty() && reason.back() == ' ') reason.pop_back();
  return reason.empty() ? std::string() : " (Graphviz: " + reason + ")";
}

}  // namespace

RenderReport renderModel(const ir::Model& m, const std::string& outputPath, const RenderOptions& options) {
  const std::string format = formatOf(outputPath);
  if (format.empty()) throw InputError(outputPath, "unknown picture format (use .svg, .png or .dot)");
  {
    std::vector<std::string> inputs = m.sourceFiles;
    if (!m.sourcePath.empty()) inputs.push_back(m.sourcePath);
    ensureWritableOutput(outputPath, inputs);
  }

  // This renderer's boxes name the op only and do not list folded inputs: every node gets its own box.
  LayoutOptions layoutOptions = options.layout;
  layoutOptions.foldConstants = false;
  HierarchicalLayout layout(m.graph(), layoutOptions);
  layout.expandWithin(options.maxVisibleBoxes);
  PlacedGraph placed = layout.compute();
  const auto shapes = inferShapes(m);

  RenderReport report;
  report.items = placed.items.size();
  report.edges = placed.edges.size();
  report.stats = placed.stats;

  std::lock_guard lock(graphvizMutex());
  GVC_t* gvc = graphvizContext();
  Agraph_t* g = agopen(const_cast<char*>("model"), Agdirected, nullptr);
  set(g, "splines", "false");
  set(g, "outputorder", "nodesfirst");
  set(g, "bgcolor", "white");
  set(g, "pad", "0.2");
  set(g, "fontname", "DejaVu Sans");
  std::vector<Agnode_t*> nodes;
  for (size_t i = 0; i < placed.items.size(); ++i) {
    const PlacedItem& it = placed.items[i];
    Agnode_t* n = agnode(g, const_cast<char*>(("n" + std::to_string(i)).c_str()), 1);
    // Graphviz's y axis points up.
    set(n, "pos", num(it.center.x) + "," + num(placed.height - it.center.y) + "!");
    set(n, "width", num(it.size.width / 72.0, "%.3f"));
    set(n, "height", num(it.size.height / 72.0, "%.3f"));
    set(n, "fixedsize", "true");
    set(n, "fontname", "DejaVu Sans");
    set(n, "fontsize", "10");
    set(n, "shape", "box");
    std::string style = "filled";
    std::string label, fill = "#ffffff", tooltip;
    switch (it.kind) {
      case PlacedItem::Kind::Node: {
        const OpCategory c = opCategory(it.node->opType, it.node->domain);
        label = it.node->opType;
        fill = std::string(opCategoryColor(c));
        tooltip = it.node->name;
        style += ",rounded";
        break;
      }
      case PlacedItem::Kind::Block: {
        const Block& b = layout.tree().blocks[it.block];
        if (it.expanded) {
          label = b.label;
          set(n, "labelloc", "t");
          fill = "#f7f7fb";
          style += ",dashed";
        } else {
          label = b.label + "\n" + std::to_string(b.totalNodes) + " nodes";
          fill = "#dde3f0";
        }
        style += ",rounded";
        tooltip = layout.tree().path(it.block);
        break;
      }
      case PlacedItem::Kind::Input:
      case PlacedItem::Kind::Output:
      case PlacedItem::Kind::Initializer:
        label = it.value->name();
        fill = it.kind == PlacedItem::Kind::Initializer ? "#f4f4f4" : "#ffffff";
        set(n, "shape", it.kind == PlacedItem::Kind::Initializer ? "box" : "ellipse");
        tooltip = it.value->type.toString();
        break;
    }
    set(n, "style", style);
    set(n, "label", label);
    set(n, "fillcolor", fill);
    if (!tooltip.empty()) set(n, "tooltip", tooltip);
    nodes.push_back(n);
  }
  for (const PlacedEdge& e : placed.edges) {
    Agedge_t* edge = agedge(g, nodes[e.from], nodes[e.to], nullptr, 1);
    set(edge, "arrowsize", "0.6");
    set(edge, "color", "#555555");
    if (e.value) {
      auto s = shapes.find(e.value->name());
      if (s != shapes.end() && s->second.isTensor()) {
        set(edge, "xlabel", s->second.toString());
        set(edge, "fontsize", "8");
        set(edge, "fontname", "DejaVu Sans");
        set(edge, "fontcolor", "#555555");
      }
    }
  }
  GraphvizErrors errors;
  if (gvLayout(gvc, g, "nop") != 0 || errors.any()) {
    agclose(g);
    throw OutputError(outputPath + ": Graphviz could not place the picture" + graphvizReason(errors));
  }
  char* data = nullptr;
  unsigned int length = 0;
  const int rc = gvRenderData(gvc, g, format.c_str(), &data, &length);
  gvFreeLayout(gvc, g);
  agclose(g);
  if (rc != 0 || !data || errors.any()) {
    if (data) gvFreeRenderData(data);
    throw OutputError(outputPath + ": Graphviz could not render " + format + graphvizReason(errors));
  }
  try {
    AtomicFile out(outputPath);
    out.write(data, length);
    out.commit();
  } catch (...) {
    gvFreeRenderData(data);
    throw;
  }
  gvFreeRenderData(data);
  return report;
}

}  // namespace fb::layout
