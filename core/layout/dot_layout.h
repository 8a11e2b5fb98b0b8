#pragma once
// Graphviz `dot` through libgvc, with the bounded settings that keep dense graphs (DenseNet's Concat
// fans) from taking minutes: nslimit=0.2 nslimit1=0.2 mclimit=0.1 remincross=false. Edges are routed as
// splines (so that they go around boxes, not through them) unless a request has more edges than
// kMaxRoutedEdges, where routing would cost more than placing.
#include <optional>

#include "layout/layout_types.h"

namespace fb::layout {

// Places the boxes with dot. Returns nullopt when Graphviz fails. Calls are serialised: Graphviz keeps
// global state and is not safe to enter from two threads at once.
std::optional<LayoutResult> layoutWithDot(const LayoutRequest& request);

constexpr size_t kMaxRoutedEdges = 400;

}  // namespace fb::layout
