#pragma once
// Pictures of a graph without Qt: the hierarchical layout's positions handed to Graphviz's renderers
// (engine "nop", which keeps given positions), so a big graph is never laid out by dot as a whole.
#include <string>

#include "layout/hierarchical_layout.h"

namespace fb::ir {
class Model;
}

namespace fb::layout {

struct RenderOptions {
  LayoutOptions layout;
  size_t maxVisibleBoxes = 2500;  // blocks beyond this stay collapsed
};

struct RenderReport {
  size_t items = 0;
  size_t edges = 0;
  LayoutStats stats;
};

// Format from the extension of `outputPath` (.svg, .png, .dot); throws InputError for an unknown one and
// OutputError when writing fails. Writes atomically.
RenderReport renderModel(const ir::Model& m, const std::string& outputPath, const RenderOptions& options = {});

}  // namespace fb::layout
