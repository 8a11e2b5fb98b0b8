#pragma once
// A pass's worklist: the nodes of a graph near what rewrites changed since some point of the graph's journal.
#include <cstddef>
#include <optional>
#include <vector>

#include "ir/change_journal.h"
#include "ir/graph.h"

namespace fb::passes {

// The nodes of `g` still in it that `journal` (g's own) noted from position `from` on, and those within `radius` steps
// of them (a step: to the producers of a node's inputs, the other readers of its inputs, the readers of its outputs),
// in graph order. nullopt when they are more than a third of the graph: visiting every node in order then costs
// less than gathering them, and finds the same.
std::optional<std::vector<ir::Node*>> nodesNearChanges(const ir::ChangeJournal& journal, size_t from,
                                                       const ir::Graph& g, int radius);

}  // namespace fb::passes
