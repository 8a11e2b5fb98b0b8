#pragma once
// The edits the graph's selection stands for, built from it without asking anything: which values the selected
// nodes compute for the rest of the graph and which they read from it (Extract Selection), the text of a shape
// as set-input-shape takes it, the symbolic dims of the main graph.
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "edit/edit.h"
#include "ir/model.h"

namespace fb::ui {

// "extract outputs=... inputs=...": the values the nodes compute that a graph output is or another node reads
// (those nobody reads when there are none of these), from the values they read that other nodes compute or the
// graph inputs (weights, and what nodes reading only weights compute, such as Constant, go with the nodes). nullopt
// without nodes.
std::optional<edit::Edit> extractionOf(const std::vector<const ir::Node*>& nodes);

// "1,3,batch,?" (set-input-shape's syntax); empty for a scalar or an unknown rank.
QString shapeText(const ir::TypeInfo& t);

// The dim_param names of the main graph's value types, sorted.
QStringList symbolicDims(const ir::Graph& g);

}  // namespace fb::ui
