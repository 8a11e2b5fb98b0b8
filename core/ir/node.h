#pragma once
// An operator application. Inputs and outputs are Value pointers; nullptr marks an omitted optional slot.
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/attribute.h"

namespace fb::ir {

class Value;
class Graph;

class Node {
 public:
  std::string name;
  std::string opType;
  RareString domain;  // "" is the default ONNX domain (nearly every node's)
  RareString docString;
  std::vector<Attribute> attributes;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  RareString unknownFields;
  // Provenance: ids of the source-model nodes this node comes from (its own id when it is original).
  std::vector<uint64_t> origins;

  uint64_t id() const { return id_; }
  // A key that grows along the graph's node order (not a position: gaps are left between neighbours), so a few
  // nodes can be put in graph order without walking the graph.
  uint64_t orderKey() const { return order_; }
  Graph* graph() const { return graph_; }
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  Value* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  Value* output(size_t i) const { return i < outputs_.size() ? outputs_[i] : nullptr; }

  // Rewiring keeps the use lists of the values right.
  void setInput(size_t i, Value* v);
  void addInput(Value* v);
  void removeInput(size_t i);
  void clearInputs();

  const Attribute* attr(std::string_view n) const;
  Attribute* attr(std::string_view n);
  bool hasAttr(std::string_view n) const { return attr(n) != nullptr; }
  int64_t attrInt(std::string_view n, int64_t def) const;
  float attrFloat(std::string_view n, float def) const;
  std::string attrString(std::string_view n, std::string def) const;
  std::vector<int64_t> attrInts(std::string_view n) const;
  void setAttr(Attribute a);  // replaces one with the same name
  bool removeAttr(std::string_view n);

  // "domain::Op" for non-default domains, "Op" otherwise.
  std::string qualifiedOp() const;
  bool isDefaultDomain() const { return domain.empty() || domain == "ai.onnx"; }
  // Subgraphs held by graph-valued attributes.
  std::vector<Graph*> subgraphs() const;

 private:
  friend class Graph;
  uint64_t id_ = 0;
  uint64_t order_ = 0;
  Graph* graph_ = nullptr;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::list<std::unique_ptr<Node>>::iterator self_;
};

}  // namespace fb::ir
