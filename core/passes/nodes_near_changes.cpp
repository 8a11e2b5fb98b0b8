#include "passes/nodes_near_changes.h"

#include <algorithm>

#include <absl/container/flat_hash_set.h>

namespace fb::passes {

std::optional<std::vector<ir::Node*>> nodesNearChanges(const ir::ChangeJournal& journal, size_t from,
                                                       const ir::Graph& g, int radius) {
  const size_t most = std::max<size_t>(64, g.nodeCount() / 3);
  absl::flat_hash_set<ir::Node*> near;
  std::vector<ir::Node*> frontier;
  auto add = [&](ir::Node* n, std::vector<ir::Node*>& to) {
    if (n && n->graph() == &g && near.insert(n).second) to.push_back(n);
  };
  const auto& entries = journal.entries();
  // After a pass that rewrote much of the graph (a dozen entries per fused block), the answer is clear before
  // counting: the whole graph.
  if (entries.size() - from > 4 * g.nodeCount()) return std::nullopt;
  for (size_t k = from; k < entries.size(); ++k) {
    // Only `g`'s own edits reach its journal, so an entry is not read (a cache miss each on big graphs) to check.
    if (journal.alive(entries[k]) && near.insert(entries[k].node).second) frontier.push_back(entries[k].node);
    if (near.size() > most) return std::nullopt;  // no need to count on
  }
  for (int step = 0; step < radius && !frontier.empty() && near.size() <= most; ++step) {
    std::vector<ir::Node*> next;
    for (ir::Node* n : frontier) {
      if (near.size() > most) return std::nullopt;
      for (ir::Value* v : n->inputs()) {
        if (!v) continue;
        add(v->producer(), next);
        for (const ir::Use& u : v->uses()) add(u.node, next);
      }
      for (ir::Value* v : n->outputs())
        if (v)
          for (const ir::Use& u : v->uses()) add(u.node, next);
    }
    frontier = std::move(next);
  }
  if (near.size() > most) return std::nullopt;
  std::vector<ir::Node*> out(near.begin(), near.end());
  std::sort(out.begin(), out.end(), [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
  return out;
}

}  // namespace fb::passes
