#pragma once
// Statements generated code can leave out because nothing reads what they compute, or because they compute their
// input again (issue 25, point 4: unused Dropout masks, casts that restate the type, `* 1`).
#include <string>

#include "codegen/py_node.h"
#include "ir/graph.h"

namespace fb::codegen {

// True when something may read `v`: a node of its graph, a graph output, or (conservatively) a subgraph, which
// reads outer values by name without being listed among their uses.
bool isConsumed(const ir::Value* v);

// True when the graph holds a node with subgraphs (If/Loop/Scan): their bodies read the graph's values by name.
bool hasSubgraphReaders(const ir::Graph& g);

// The node's output is `expression` itself: no statement, and the node's report says why ("no statement: <why>"),
// which is how tests and the app tell it from a node that lost its code.
void noStatement(PyNode& p, const std::string& expression, const std::string& why);

}  // namespace fb::codegen
