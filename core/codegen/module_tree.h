#pragma once
// The exporter's module tree in generated code. PyTorch names a layer's parameters after the module that held them
// ("layers.0.linear1.bias") and its nodes after the module scopes ("/layers.0/linear1/Add"); a weight with such a
// name lives at that place in nested containers (`self.layers[0].linear1.bias`, nn.ModuleList for numbered scopes),
// so the generated module's state_dict() keys are the exporter's and the original module's state_dict loads by name.
#include <optional>
#include <string>
#include <vector>

#include "codegen/flavour.h"
#include "codegen/identifiers.h"
#include "ir/model.h"

namespace fb::codegen {

// Attributes of nn.Module (torch 1.13 and later, OneFlow) that no weight or container may shadow.
const std::vector<std::string_view>& nnModuleAttributeNames();

// The dotted module path of a node's name scopes. PyTorch writes a child of a container with the container's scope
// as a prefix: "/layer1/layer1.0/downsample/downsample.0/Conv" and "/layers.0/self_attn/MatMul" give
// "layer1.0.downsample.0" and "layers.0.self_attn". Empty for a node without scopes.
std::string modulePathOfNode(const std::string& nodeName);

// What the source PyTorch module called a weight, and how the export changed it.
struct OriginalWeight {
  std::string name;              // "layers.0.linear1.weight"
  bool transposed = false;       // an nn.Linear weight the export stored transposed (a MatMul's folded Transpose)
  bool foldedBatchNorm = false;  // a Conv weight or bias the export folded a BatchNorm into
};
// `v` is the (resolved) constant, `consumer` the node that reads it at input `slot`. Named initializers keep their
// name; the anonymous constants the exporter folded ("onnx::MatMul_613", "onnx::Conv_497") get the name of the layer
// parameter they were computed from, when the consumer's scope and its bias say which one: a MatMul's constant
// right operand followed by an Add of "<p>bias" is "<p>weight" (else "<scope>.weight"), a Conv's weight and bias are
// "<scope>.weight" / "<scope>.bias". nullopt: no such name (today's flat naming applies).
std::optional<OriginalWeight> originalWeight(const ir::Value& v, const ir::Node* consumer, int slot);

// The containers of the generated module, built as weights are placed.
class ModuleTree {
 public:
  ModuleTree();
  // The attribute path under `self` for a dotted state-dict key ("layers.0.self_attn.in_proj_weight" ->
  // "layers[0].self_attn.in_proj_weight"), claiming the top-level name in `members`; nullopt when the key cannot be
  // a place in the tree: fewer than two parts, a part that is neither a plain identifier (letter first, no keyword, no
  // nn.Module attribute) nor an index below 4096, a place already held by a weight or a container of the other kind, a
  // top-level name `members` already gave away.
  std::optional<std::string> place(const std::string& key, NameTable& members);
  // The statements (no indentation) that create the containers on the way to `key` (placed before) that earlier
  // calls did not create yet, in order: `self.layers = nn.ModuleList([nn.Module() for _ in range(6)])`,
  // `self.layers[0].self_attn = nn.Module()`.
  std::vector<std::string> createContainers(const std::string& key);
  bool empty() const { return nodes_.size() == 1; }

 private:
  enum class Kind { Undecided, Struct, List, Leaf };
  struct TreeNode {
    Kind kind = Kind::Undecided;
    std::vector<std::pair<std::string, int>> children;  // in placement order
    int64_t maxIndex = -1;
    bool created = false;
    int child(const std::string& name) const;
  };
  std::vector<TreeNode> nodes_;
};

}  // namespace fb::codegen
