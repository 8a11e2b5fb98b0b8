#include "ui/view_memo.h"

#include <unordered_map>

#include "edit/edit_support.h"
#include "ir/graph.h"

namespace fb::ui {

namespace {

ViewMemo::NodeKey keyOf(const ir::Node* n, size_t position) {
  return ViewMemo::NodeKey{n->id(), n->name, n->opType, position};
}

size_t positionOf(const ir::Node* n) {
  size_t i = 0;
  for (const auto& m : n->graph()->nodes()) {
    if (m.get() == n) return i;
    ++i;
  }
  return i;
}

// Finds remembered nodes in a graph in one walk.
class NodeFinder {
 public:
  explicit NodeFinder(const ir::Graph& g) {
    for (const auto& n : g.nodes()) {
      byId_.emplace(n->id(), n.get());
      if (!n->name.empty()) byName_.emplace(n->name, n.get());
      byPosition_.push_back(n.get());
    }
  }
  const ir::Node* find(const ViewMemo::NodeKey& k) const {
    if (auto it = byId_.find(k.id); it != byId_.end() && it->second->opType == k.opType) return it->second;
    if (!k.name.empty())
      if (auto it = byName_.find(k.name); it != byName_.end()) return it->second;
    // An unnamed node that undo put back (a new Node object, a new id) is where it was.
    if (k.name.empty() && k.position < byPosition_.size() && byPosition_[k.position]->opType == k.opType &&
        byPosition_[k.position]->name.empty())
      return byPosition_[k.position];
    return nullptr;
  }

 private:
  std::unordered_map<uint64_t, const ir::Node*> byId_;
  std::unordered_multimap<std::string, const ir::Node*> byName_;
  std::vector<const ir::Node*> byPosition_;
};

}  // namespace

ViewMemo ViewMemo::of(const std::vector<const ir::Graph*>& levels, const QList<const ir::Node*>& selected,
                      const ir::Value* value) {
  ViewMemo memo;
  for (size_t i = 1; i < levels.size(); ++i) {
    const ir::Node* owner = levels[i]->ownerNode();
    if (!owner) break;
    BodyKey key{keyOf(owner, positionOf(owner)), {}, 0};
    for (const auto& a : owner->attributes)
      for (size_t k = 0; k < a.graphs.size(); ++k)
        if (a.graphs[k].get() == levels[i]) {
          key.attribute = a.name;
          key.index = k;
        }
    memo.bodies.push_back(std::move(key));
  }
  for (const ir::Node* n : selected) memo.selected.push_back(keyOf(n, positionOf(n)));
  if (value) {
    memo.value = value->name();
    memo.hasValue = true;
  }
  return memo;
}

std::vector<const ir::Graph*> ViewMemo::levelsIn(const ir::Model& m) const {
  std::vector<const ir::Graph*> out{&m.graph()};
  for (const BodyKey& body : bodies) {
    const ir::Node* owner = NodeFinder(*out.back()).find(body.owner);
    const ir::Attribute* a = owner ? owner->attr(body.attribute) : nullptr;
    if (!a || body.index >= a->graphs.size() || !a->graphs[body.index]) break;
    out.push_back(a->graphs[body.index].get());
  }
  return out;
}

QList<const ir::Node*> ViewMemo::selectedIn(const ir::Graph& g) const {
  QList<const ir::Node*> out;
  if (selected.empty()) return out;
  NodeFinder finder(g);
  for (const NodeKey& k : selected)
    if (const ir::Node* n = finder.find(k); n && !out.contains(n)) out.append(n);
  return out;
}

const ir::Value* ViewMemo::valueIn(const ir::Graph& g) const {
  if (!hasValue) return nullptr;
  const ir::Value* v = g.findValue(value);
  return v && edit::isLive(*v) ? v : nullptr;
}

}  // namespace fb::ui
