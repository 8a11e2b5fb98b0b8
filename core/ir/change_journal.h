#pragma once
// What rewrites did to a graph while someone listened: the nodes they added or rewired (and the nodes next to a
// value whose readers, producer or constness changed), in order, and the ids of the nodes they removed. The pass
// manager reads it to hand a pass only the nodes near a change since the pass last found nothing to do, instead of
// the whole graph. A Graph writes to its journal only while one is attached (Graph::setJournal); reading a model
// never pays for it.
#include <cstdint>
#include <vector>

#include <absl/container/flat_hash_set.h>

namespace fb::ir {

class Node;
class Value;

class ChangeJournal {
 public:
  struct Entry {
    Node* node;
    uint64_t id;  // node ids are never reused, so a removed node is known without reading it
  };

  void touch(Node* n);
  // The node producing `v` and every node reading it: what they see of `v` changed (its producer, its
  // readers, whether it is constant, a graph output, its name).
  void touchAround(const Value* v);
  void removed(const Node* n);

  // Entries are only appended: a reader remembers how far it has read.
  size_t position() const { return entries_.size(); }
  const std::vector<Entry>& entries() const { return entries_; }
  // Whether the entry's node is still in the graph: check before reading the node.
  bool alive(const Entry& e) const { return !removed_.contains(e.id); }

 private:
  std::vector<Entry> entries_;
  absl::flat_hash_set<uint64_t> removed_;
};

}  // namespace fb::ir
