#include "edit/node_index.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <mutex>

#include "ir/graph.h"
#include "ir/node.h"

namespace fb::edit {

namespace {

size_t hashOf(std::string_view name) { return std::hash<std::string_view>{}(name); }

bool holdsBody(const ir::Node& n) {
  for (const auto& a : n.attributes)
    if (a.type == ir::AttrType::Graph || a.type == ir::AttrType::Graphs) return true;
  return false;
}

}  // namespace

// The indexes of the last few graphs edited, each with a weak reference to its graph: a graph that is gone is
// known as gone (its address may be reused by another), and its journal went with it.
struct NodeIndexRegistry {
  struct Slot {
    std::weak_ptr<ir::Graph> graph;
    std::unique_ptr<NodeIndex> index;
  };
  static constexpr size_t kKept = 4;
  std::mutex mutex;
  std::vector<Slot> slots;  // most recently used last

  // At exit the models are usually gone already: an index whose graph is gone must not look at it.
  ~NodeIndexRegistry() {
    for (auto& s : slots) {
      const auto keep = s.graph.lock();
      if (!keep) s.index->graphGone_ = true;
      s.index.reset();
    }
  }

  NodeIndex& of(const ir::Model& m) {
    const std::shared_ptr<ir::Graph> g = m.graphPtr();
    std::lock_guard lock(mutex);
    for (auto& s : slots)
      if (s.graph.expired()) s.index->graphGone_ = true;  // its journal went with it: nothing to detach
    std::erase_if(slots, [](const Slot& s) { return s.graph.expired(); });
    for (size_t k = 0; k < slots.size(); ++k)
      if (slots[k].graph.lock() == g) {
        std::rotate(slots.begin() + long(k), slots.begin() + long(k) + 1, slots.end());
        NodeIndex& index = *slots.back().index;
        if (index.attached())
          index.catchUp();
        else
          index.build();  // the journal was replaced (passes ran) or never attached: what changed is unknown
        return index;
      }
    if (slots.size() == kKept) {
      const auto keep = slots.front().graph.lock();  // alive while its index detaches its journal
      slots.erase(slots.begin());
    }
    slots.push_back({g, std::make_unique<NodeIndex>(*g)});
    return *slots.back().index;
  }
};

NodeIndex& NodeIndex::of(const ir::Model& m) {
  static NodeIndexRegistry registry;
  return registry.of(m);
}

NodeIndex::NodeIndex(const ir::Graph& g) : graph_(g) { build(); }

NodeIndex::~NodeIndex() {
  if (!graphGone_ && journal_ && graph_.journal() == journal_.get()) const_cast<ir::Graph&>(graph_).setJournal(nullptr);
}

bool NodeIndex::attached() const { return journal_ && graph_.journal() == journal_.get(); }

void NodeIndex::build() {
  if (journal_ && graph_.journal() == journal_.get()) const_cast<ir::Graph&>(graph_).setJournal(nullptr);
  journal_.reset();
  readUpTo_ = 0;
  byId_.clear();
  byName_.clear();
  byOrder_.clear();
  holders_.clear();
  byId_.reserve(graph_.nodeCount());
  byName_.reserve(graph_.nodeCount());
  for (const auto& n : graph_.nodes()) note(n.get());
  if (!graph_.journal()) {
    journal_ = std::make_unique<ir::ChangeJournal>();
    const_cast<ir::Graph&>(graph_).setJournal(journal_.get());
  }
}

void NodeIndex::catchUp() {
  const auto& entries = journal_->entries();
  for (; readUpTo_ < entries.size(); ++readUpTo_) {
    const auto& e = entries[readUpTo_];
    if (journal_->alive(e)) note(e.node);
  }
}

bool NodeIndex::alive(uint64_t id) const { return !journal_ || journal_->alive({nullptr, id}); }

void NodeIndex::note(ir::Node* n) {
  Entry& e = byId_[n->id()];
  const bool holds = holdsBody(*n);
  if (holds)
    holders_.insert(n->id());
  else
    holders_.erase(n->id());
  const size_t hash = hashOf(n->name);
  if (e.node && e.nameHash == hash && e.key == n->orderKey()) return;
  if (e.node) {
    auto [lo, hi] = byName_.equal_range(e.nameHash);
    for (auto it = lo; it != hi; ++it)
      if (it->second == n->id()) {
        byName_.erase(it);
        break;
      }
    if (auto it = byOrder_.find(e.key); it != byOrder_.end() && it->second == n->id()) byOrder_.erase(it);
  }
  e = {n, hash, n->orderKey()};
  byName_.emplace(hash, n->id());
  byOrder_[n->orderKey()] = n->id();
}

void NodeIndex::forget(uint64_t id) {
  auto it = byId_.find(id);
  if (it == byId_.end()) return;
  auto [lo, hi] = byName_.equal_range(it->second.nameHash);
  for (auto n = lo; n != hi; ++n)
    if (n->second == id) {
      byName_.erase(n);
      break;
    }
  if (auto o = byOrder_.find(it->second.key); o != byOrder_.end() && o->second == id) byOrder_.erase(o);
  holders_.erase(id);
  byId_.erase(it);
}

std::vector<ir::Node*> NodeIndex::named(const std::string& name) {
  std::vector<uint64_t> ids;
  auto [lo, hi] = byName_.equal_range(hashOf(name));
  for (auto it = lo; it != hi; ++it) ids.push_back(it->second);
  std::vector<ir::Node*> out;
  for (uint64_t id : ids) {
    if (!alive(id)) {  // removed: its pointer is not read
      forget(id);
      continue;
    }
    ir::Node* n = byId_.at(id).node;
    if (n->name == name) out.push_back(n);
  }
  std::sort(out.begin(), out.end(), [](const ir::Node* a, const ir::Node* b) { return a->orderKey() < b->orderKey(); });
  return out;
}

void NodeIndex::rebuildOrder() {
  byOrder_.clear();
  for (const auto& n : graph_.nodes()) {
    auto it = byId_.find(n->id());
    if (it == byId_.end()) {
      note(n.get());
      continue;
    }
    it->second.key = n->orderKey();
    byOrder_[n->orderKey()] = n->id();
  }
}

ir::Node* NodeIndex::next(const ir::Node* n) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool stale = byId_.count(n->id()) == 0 || byId_.at(n->id()).key != n->orderKey();
    auto it = byOrder_.upper_bound(n->orderKey());
    while (!stale && it != byOrder_.end()) {
      if (!alive(it->second)) {
        const uint64_t id = it->second;
        ++it;
        forget(id);
        continue;
      }
      ir::Node* c = byId_.at(it->second).node;
      if (c->orderKey() != it->first) {
        stale = true;  // the graph spread its order keys again (Graph::renumberOrder)
        break;
      }
      return c;
    }
    if (!stale) return nullptr;
    rebuildOrder();
  }
  // Still inconsistent: the walk cannot be wrong.
  bool seen = false;
  for (const auto& c : graph_.nodes()) {
    if (seen) return c.get();
    seen = c.get() == n;
  }
  return nullptr;
}

std::vector<ir::Node*> NodeIndex::holdersOfBodies() {
  std::vector<ir::Node*> out;
  std::vector<uint64_t> gone;
  for (uint64_t id : holders_) {
    if (!alive(id)) {
      gone.push_back(id);
      continue;
    }
    ir::Node* n = byId_.at(id).node;
    if (holdsBody(*n)) out.push_back(n);
  }
  for (uint64_t id : gone) forget(id);
  return out;
}

}  // namespace fb::edit
