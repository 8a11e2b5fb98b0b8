#pragma once
// The nodes of a model's main graph by name and by graph order, and the few that hold bodies: what edits look up,
// so that an edit of a 100k-node graph touches what it names instead of walking the graph (a walk per lookup made
// an edit cost ~20 ms there). Built at the first lookup, then kept up to date from a change journal the index
// attaches to the graph (ir/change_journal.h: every node added or rewired, the ids of the removed ones), so edits,
// their undos and anything else that changes the graph through its API keep it valid. When something else
// replaces or detaches the journal (the pass manager does while passes run), the next lookup rebuilds the index.
// Node::name is not journaled: code that renames a node which is already in the graph calls renamed().
// Not thread-safe: like the graph it indexes, it belongs to the thread that edits the model.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "ir/change_journal.h"
#include "ir/model.h"

namespace fb::edit {

class NodeIndex {
 public:
  // The index of `m`'s main graph, built or brought up to date.
  static NodeIndex& of(const ir::Model& m);

  // The nodes named `name`, in graph order.
  std::vector<ir::Node*> named(const std::string& name);
  // The node after `n` in graph order; nullptr after the last.
  ir::Node* next(const ir::Node* n);
  // The nodes with graph-valued attributes (If/Loop/Scan), in no order.
  std::vector<ir::Node*> holdersOfBodies();
  // `n` got a new name (Node::name is written directly, not journaled).
  void renamed(ir::Node* n) { note(n); }

  NodeIndex(const NodeIndex&) = delete;
  NodeIndex& operator=(const NodeIndex&) = delete;
  ~NodeIndex();
  explicit NodeIndex(const ir::Graph& g);  // through of()

 private:
  // Names are kept as hashes, not copies (a 100k-node graph's names are megabytes): a lookup compares the names of
  // the few nodes under a hash.
  struct Entry {
    ir::Node* node = nullptr;
    size_t nameHash = 0;
    uint64_t key = 0;  // the node's order key when it was noted
  };
  const ir::Graph& graph_;
  std::unique_ptr<ir::ChangeJournal> journal_;  // null when the graph had someone else's journal
  size_t readUpTo_ = 0;
  bool graphGone_ = false;  // set by the registry: the graph (and the journal's place in it) no longer exists
  absl::flat_hash_map<uint64_t, Entry> byId_;
  std::unordered_multimap<size_t, uint64_t> byName_;  // name hash -> id
  std::map<uint64_t, uint64_t> byOrder_;              // order key -> id
  absl::flat_hash_set<uint64_t> holders_;

  friend struct NodeIndexRegistry;
  bool attached() const;
  void build();
  void catchUp();  // reads the journal's new entries
  void note(ir::Node* n);
  void forget(uint64_t id);
  bool alive(uint64_t id) const;
  void rebuildOrder();
};

}  // namespace fb::edit
