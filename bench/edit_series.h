#pragma once
// `count` edits spread over a graph, four kinds in turn: rename a node, rename its output, insert an Identity on that
// output, bypass the Identity just inserted (what bench_edit and bench_ui_edit apply, time and undo).
#include <algorithm>
#include <string>
#include <vector>

#include "edit/edit.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "ir/value.h"

inline std::vector<fb::edit::Edit> editSeries(const fb::ir::Model& m, size_t count) {
  using fb::edit::Edit;
  std::vector<const fb::ir::Node*> picks;
  const size_t step = std::max<size_t>(1, m.graph().nodeCount() / (count / 4 + 1));
  size_t k = 0;
  for (const auto& n : m.graph().nodes())
    if (k++ % step == 0 && !n->name.empty() && n->output(0) && !n->output(0)->isGraphOutput()) picks.push_back(n.get());
  std::vector<Edit> out;
  for (size_t i = 0; out.size() < count && i < picks.size(); ++i) {
    const std::string node = picks[i]->name, value = picks[i]->output(0)->name(), tag = std::to_string(i);
    out.push_back(Edit{"rename-node", {{"from", node}, {"to", node + "#e" + tag}}});
    out.push_back(Edit{"rename-value", {{"from", value}, {"to", value + "#e" + tag}}});
    out.push_back(Edit{"insert-node", {{"value", value + "#e" + tag}, {"op", "Identity"}, {"name", "probe" + tag}}});
    out.push_back(Edit{"bypass-node", {{"node", "probe" + tag}}});
  }
  out.resize(std::min(out.size(), count));
  return out;
}
