#pragma once
// A named SSA value: produced by at most one node (or a graph input / initializer), used by many.
#include <string>
#include <vector>

#include "ir/rare.h"
#include "ir/type_info.h"

namespace fb::ir {

class Node;
class Graph;
class Tensor;

struct Use {
  Node* node;
  int index;  // input slot
  bool operator==(const Use&) const = default;
};

class Value {
 public:
  const std::string& name() const { return name_; }
  Graph* graph() const { return graph_; }
  Node* producer() const { return producer_; }
  int producerOutput() const { return producerOutput_; }
  const std::vector<Use>& uses() const { return uses_; }
  bool isGraphInput() const { return graphInput_; }
  int graphOutputCount() const { return graphOutputs_; }
  bool isGraphOutput() const { return graphOutputs_ > 0; }
  // The initializer bound to this name, if any (owned by the graph).
  Tensor* initializer() const { return initializer_; }
  bool isSparseInitializer() const { return sparseInitializer_; }
  // A value defined in an enclosing graph and referenced by name from a subgraph.
  bool isOuterScope() const { return outerScope_; }
  bool hasValueInfo() const { return inValueInfo_; }
  // True when nothing in this graph defines it.
  bool isUndefined() const {
    return !producer_ && !graphInput_ && !initializer_ && !sparseInitializer_ && !outerScope_;
  }

  TypeInfo type;
  RareString docString;
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  RareString unknownFields;  // of its ValueInfoProto

 private:
  friend class Graph;
  friend class Node;
  std::string name_;
  Graph* graph_ = nullptr;
  Node* producer_ = nullptr;
  std::vector<Use> uses_;
  Tensor* initializer_ = nullptr;
  int producerOutput_ = -1;
  // Packed into one word with the flags: a large graph has hundreds of thousands of values.
  int graphOutputs_ : 28 = 0;
  bool graphInput_ : 1 = false;
  bool sparseInitializer_ : 1 = false;
  bool outerScope_ : 1 = false;
  bool inValueInfo_ : 1 = false;
};

}  // namespace fb::ir
