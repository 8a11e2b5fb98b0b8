#include "ui/conversion/model_diff.h"

#include "ir/graph.h"
#include "ir/node.h"
#include "ui/model_loader.h"
#include "ui/theme/colors.h"

namespace fb::ui {
namespace {

void collectRemoved(const ir::Graph& g, const NodeIndex& after, QList<const ir::Node*>& out) {
  for (const auto& n : g.nodes()) {
    if (!after.count(n->id())) out.append(n.get());
    for (const ir::Graph* sg : n->subgraphs()) collectRemoved(*sg, after, out);
  }
}

}  // namespace

bool sameNode(const ir::Node& a, const ir::Node& b) {
  if (a.opType != b.opType || a.domain != b.domain || a.attributes.size() != b.attributes.size() ||
      a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size())
    return false;
  for (size_t i = 0; i < a.attributes.size(); ++i)
    if (a.attributes[i].name != b.attributes[i].name ||
        a.attributes[i].valueToString() != b.attributes[i].valueToString())
      return false;
  for (size_t i = 0; i < a.inputs().size(); ++i) {
    const ir::Value* x = a.input(i);
    const ir::Value* y = b.input(i);
    if ((x == nullptr) != (y == nullptr) || (x && x->name() != y->name())) return false;
  }
  return true;
}

QColor diffColor(DiffKind d) {
  switch (d) {
    case DiffKind::Same:
      return QColor();
    case DiffKind::Modified:
      return modifiedColor();
    case DiffKind::Added:
      return addedColor();
    case DiffKind::Removed:
      return removedColor();
  }
  return QColor();
}

int ModelDiff::count(DiffKind k) const {
  if (k == DiffKind::Removed) return int(removed.size());
  int n = 0;
  for (DiffKind d : after) n += d == k;
  return n;
}

ModelDiff diffGraphs(const ir::Graph& before, const ir::Graph& after) {
  ModelDiff d;
  const NodeIndex b = indexNodes(before), a = indexNodes(after);
  for (const auto& [id, n] : b) {
    auto it = a.find(id);
    if (it == a.end())
      d.before.insert(id, DiffKind::Removed);
    else if (!sameNode(*n, *it->second))
      d.before.insert(id, DiffKind::Modified);
  }
  for (const auto& [id, n] : a) {
    auto it = b.find(id);
    if (it == b.end())
      d.after.insert(id, DiffKind::Added);
    else if (!sameNode(*n, *it->second))
      d.after.insert(id, DiffKind::Modified);
  }
  collectRemoved(before, a, d.removed);
  return d;
}

}  // namespace fb::ui
