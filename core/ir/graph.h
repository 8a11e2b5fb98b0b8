#pragma once
// A graph: nodes in order, values with use/def links, inputs, outputs, initializers.
// Subgraphs (If/Loop/Scan bodies) are Graphs owned by attributes; they see their parents' values by name.
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>

#include "ir/attribute.h"
#include "ir/change_journal.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"

namespace fb::ir {

struct TensorAnnotation {
  std::string tensorName;
  std::vector<std::pair<std::string, std::string>> quantParameterTensorNames;
};

// Shared by a model's graphs so that node ids are unique across subgraphs.
struct IdSource {
  uint64_t next = 1;
};

class Graph {
 public:
  explicit Graph(std::shared_ptr<IdSource> ids = nullptr);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  std::string name;
  std::string docString;
  std::vector<TensorAnnotation> quantizationAnnotations;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  std::string unknownFields;

  // --- values
  Value* findValue(std::string_view name) const;
  // Looks in this graph, then in the enclosing graphs.
  Value* findValueInScope(std::string_view name) const;
  Value* getOrCreateValue(std::string_view name);
  // Room for `count` more values without rehashing (a reader that knows how many names are coming).
  void reserveValues(size_t count);
  // A value whose name is not used yet in this graph ("base", "base_1", ...).
  Value* createUniqueValue(const std::string& base);
  std::string uniqueName(const std::string& base) const;
  void renameValue(Value* v, const std::string& newName);
  size_t valueCount() const { return values_.size(); }
  std::vector<Value*> values() const;

  // --- nodes
  const std::list<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  size_t nodeCount() const { return nodes_.size(); }
  // Appends (or inserts before `before`) a node producing `outputs` (values created if needed).
  Node* addNode(std::string opType, const std::vector<Value*>& inputs, const std::vector<Value*>& outputs,
                std::string domain = "", Node* before = nullptr);
  // Removes a node; its outputs stay as values with no producer unless `removeOutputs`.
  void removeNode(Node* n);
  void setOutput(Node* n, size_t i, Value* v);
  void moveBefore(Node* n, Node* before);
  // Every use of `from` (node inputs and graph outputs) now refers to `to`.
  void replaceAllUses(Value* from, Value* to);

  // --- interface
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  void addInput(Value* v);
  void removeInput(Value* v);
  void removeInputs(const std::vector<Value*>& vs);  // in one sweep
  void addOutput(Value* v);
  void setGraphOutput(size_t i, Value* v);
  void clearOutputs();

  // value_info entries in file order (the values with intermediate type information).
  const std::vector<Value*>& valueInfos() const { return valueInfo_; }
  void addValueInfo(Value* v);
  void clearValueInfo();

  // --- initializers
  const std::vector<std::unique_ptr<Tensor>>& initializers() const { return initializers_; }
  Value* addInitializer(Tensor t);
  void removeInitializer(Value* v);
  // Removes many at once in one sweep (removing one at a time is linear per call).
  void removeInitializers(const std::vector<Value*>& vs);
  const std::vector<SparseTensor>& sparseInitializers() const { return sparse_; }
  Value* addSparseInitializer(SparseTensor t);

  // --- scope
  Graph* parent() const { return parent_; }
  Node* ownerNode() const { return owner_; }
  void setOwner(Graph* parent, Node* owner);
  // Marks a value as coming from an enclosing graph (subgraphs read outer values by name).
  void markOuterScope(Value* v, bool outer = true) { v->outerScope_ = outer; }
  const std::shared_ptr<IdSource>& idSource() const { return ids_; }

  // Drops values that nothing refers to any more (no producer, no use, not input/output/initializer).
  void pruneValues();
  // The same, for the given values only: a pass that knows which values its rewrites left behind need not
  // visit every value of a 100k-node graph to drop them.
  void pruneValues(const std::vector<Value*>& candidates);
  // Names of values this graph (and its subgraphs) reads from enclosing scopes.
  std::vector<std::string> capturedNames() const;

  size_t totalNodeCount() const;  // including every subgraph

  // While a journal is attached, every edit of this graph's nodes, values and initializers is noted in it (see
  // change_journal.h); nullptr detaches. Subgraphs have their own.
  void setJournal(ChangeJournal* j) { journal_ = j; }
  ChangeJournal* journal() const { return journal_; }

  // Deep copy; node ids are kept so provenance still refers to the source.
  std::shared_ptr<Graph> clone(std::shared_ptr<IdSource> ids = nullptr) const;

 private:
  friend class Node;
  std::shared_ptr<IdSource> ids_;
  std::list<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Value>> values_;
  // Keys view the values' own names (a Value never moves; renaming re-keys it): one copy of each name. The view
  // is mutable so that a key inserted viewing the caller's characters can be pointed at the value's own copy of
  // the same characters (hash and equality unchanged) without hashing the name twice.
  struct NameKey {
    mutable std::string_view view;
    bool operator==(const NameKey& o) const { return view == o.view; }
  };
  struct NameHash {
    size_t operator()(const NameKey& k) const { return absl::Hash<std::string_view>{}(k.view); }
  };
  // Open addressing (abseil's flat_hash_map): a lookup costs about one cache miss where std::unordered_map's
  // node chains cost two or three; on 100k-node graphs those misses grew faster than the graph.
  absl::flat_hash_map<NameKey, Value*, NameHash> byName_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Value*> valueInfo_;
  std::vector<std::unique_ptr<Tensor>> initializers_;
  std::vector<SparseTensor> sparse_;
  Graph* parent_ = nullptr;
  Node* owner_ = nullptr;
  uint64_t uniqueCounter_ = 0;
  ChangeJournal* journal_ = nullptr;
  // Gives `n` (already at its place in nodes_) an order key between its neighbours' (Node::orderKey).
  void placeInOrder(Node* n);
  void renumberOrder();
  void touchAround(const Value* v) {
    if (journal_) journal_->touchAround(v);
  }
};

}  // namespace fb::ir
