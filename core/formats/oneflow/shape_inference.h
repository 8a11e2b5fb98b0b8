#pragma once
// Shapes for OneFlow graphs that do not store them (the lazy-era SavedModel keeps only the ops and the
// signature's input shapes). Propagates static shapes through the ops FlowBridge's handlers need shapes for
// (pooling pads, adaptive pooling, flatten) and the ops between them; values of other ops stay unknown.
#include <cstddef>

namespace fb::ir {
class Graph;
}

namespace fb::oneflow {

// Fills Value::type for every value whose shape follows from its inputs'. Returns how many values were typed.
size_t inferOneflowShapes(ir::Graph& g);

}  // namespace fb::oneflow
