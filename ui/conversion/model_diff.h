#pragma once
// How two versions of a model differ, node by node, from provenance (node ids survive conversion and passes;
// nodes a rewrite creates carry new ids): the source against the converted model for the preview, and one pass
// step against the next for the pass stepper.
#include <QColor>
#include <QHash>
#include <QList>
#include <cstdint>

namespace fb::ir {
class Graph;
class Node;
}  // namespace fb::ir

namespace fb::ui {

// How a node differs between the source and the converted model (from provenance: node ids and origins).
enum class DiffKind { Same, Modified, Added, Removed };

struct ModelDiff {
  QHash<quint64, DiffKind> before;  // ids of `before`'s nodes that were removed or modified
  QHash<quint64, DiffKind> after;   // ids of `after`'s nodes that were added or modified
  QList<const ir::Node*> removed;   // nodes of `before` that are gone, in graph order
  int count(DiffKind k) const;      // of `after` (Added, Modified) or `before` (Removed)
};

// The colour of a diff kind (ui/theme/colors.h); invalid for Same, which gets no mark.
QColor diffColor(DiffKind d);

// Compares two graphs and their subgraphs by node id.
ModelDiff diffGraphs(const ir::Graph& before, const ir::Graph& after);

// Same op, domain, attributes, inputs (by name) and output count.
bool sameNode(const ir::Node& a, const ir::Node& b);

}  // namespace fb::ui
