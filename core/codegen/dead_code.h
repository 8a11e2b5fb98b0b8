#pragma once
// Statements generated code can leave out because nothing reads what they compute, or because they compute their
// input again (issue 25, point 4: unused Dropout masks, casts that restate the type, `* 1`).
#include "ir/graph.h"

namespace fb::codegen {

// True when something may read `v`: a node of its graph, a graph output, or (conservatively) a subgraph, which
// reads outer values by name without being listed among their uses.
bool isConsumed(const ir::Value* v);

// True when the graph holds a node with subgraphs (If/Loop/Scan): their bodies read the graph's values by name.
bool hasSubgraphReaders(const ir::Graph& g);

}  // namespace fb::codegen
