#pragma once
// The state of one generated Python module while handlers write into it: the forward function's lines,
// the local variable of every ONNX value, the parameters and buffers registered so far, the helper
// functions the code needs. Handlers see it through PyNode.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/flavour.h"
#include "codegen/identifiers.h"
#include "codegen/static_values.h"
#include "codegen/module_tree.h"
#include "ir/model.h"

namespace fb::codegen {

struct CodeLine {
  int indent = 0;
  std::string text;
  uint64_t nodeId = 0;  // the ONNX node the line was written for (0: none)
  std::string comment;  // trailing comment (the ONNX node name on a node's first line)
  // Nodes lowered to Python ints or folded (static_values.h) whose values this line is the first to use.
  std::vector<uint64_t> foldedNodes{};
};

struct Weight {
  std::string key;         // state-dict key: the exporter's dotted name ("layers.0.linear1.weight") or an identifier
  std::string attr;        // where it lives under `self`: "layers[0].linear1.weight" (ModuleTree), or `key`
  std::string onnxName;    // the initializer (or Constant) it comes from
  ir::Tensor tensor;       // shares the source's bytes (or holds their exact widening, see sourceType)
  bool parameter = false;  // nn.Parameter (trainable) or buffer
  // The ONNX nodes whose code uses it, in first-use order: its declaration in __init__ is among their lines.
  std::vector<uint64_t> users{};
  // The ONNX element type when the flavour lacks it and `tensor` holds its values widened exactly
  // (storedWeightType); Undefined otherwise.
  ir::DataType sourceType = ir::DataType::Undefined;
  // `tensor` is the transpose of the ONNX constant (the source nn.Linear's layout); code reads it as `<attr>.t()`.
  bool transposed = false;
  // The export folded a BatchNorm into this Conv weight or bias: the source module's own tensors need
  // load_original_state_dict.
  bool foldedBatchNorm = false;
};

class ModuleBuilder {
 public:
  ModuleBuilder(const ir::Model& model, Flavour flavour);

  const ir::Model& model() const { return model_; }
  Flavour flavour() const { return flavour_; }

  // --- values
  // The value a name refers to in `v`'s scope: subgraphs see their parents' values by name.
  const ir::Value* resolve(const ir::Value* v) const;
  // The constant behind a value (initializer or Constant node, looked up through scopes), or nullptr.
  const ir::Tensor* constantTensor(const ir::Value* v);
  // The Python expression for a value: its local variable, or `self.<weight>` for a constant.
  std::string expr(const ir::Value* v);
  // Binds a value to an expression (graph inputs, subgraph inputs, outputs of a handler).
  void bind(const ir::Value* v, std::string expression) { exprs_[v] = std::move(expression); }
  bool isBound(const ir::Value* v) const { return exprs_.count(v) > 0; }
  // A fresh local variable named after the value.
  std::string newLocal(const ir::Value* v);
  std::string newTemp(const std::string& base) { return locals_.claim(base); }
  NameTable& locals() { return locals_; }

  // --- static values (static_values.h): shape arithmetic as Python ints, constants folded at generation time
  // The static value of v (through scopes) or nullptr; the nodes folded into it are credited to the next line.
  const StaticValue* staticValue(const ir::Value* v);
  void setStatic(const ir::Value* v, StaticValue s);
  // v is the constant t, computed at generation time by `nodes`.
  void foldConstant(const ir::Value* v, ir::Tensor t, std::vector<uint64_t> nodes);
  void credit(const std::vector<uint64_t>& nodes) { pendingCredits_.insert(nodes.begin(), nodes.end()); }
  std::vector<uint64_t> takeCredits() {
    std::vector<uint64_t> out(pendingCredits_.begin(), pendingCredits_.end());
    pendingCredits_.clear();
    return out;
  }

  // --- weights
  // Registers the constant as a parameter (floating types, when `trainable`) or a buffer; returns `self.<key>`.
  // `consumer`/`slot` name anonymous constants ("onnx::MatMul_613") after the layer that uses them.
  std::string weight(const ir::Value* v, bool trainable, const ir::Node* consumer = nullptr, int slot = -1);
  const std::vector<Weight>& weights() const { return weights_; }
  ModuleTree& tree() { return tree_; }
  // `self.<attr>`, with `.t()` for a weight held in its source layout (Weight::transposed).
  std::string weightExpr(const Weight& w) const;
  // The node whose code is being written (0: none); weights registered meanwhile count it among their users.
  void setCurrentNode(uint64_t nodeId) { currentNode_ = nodeId; }
  uint64_t currentNode() const { return currentNode_; }

  // --- code
  void line(const std::string& text, uint64_t nodeId, std::string comment = {});
  void indent() { ++indent_; }
  void dedent() { --indent_; }
  int indentLevel() const { return indent_; }
  // Drops the lines from `size` on and restores the indentation (a handler that threw half-way).
  void truncate(size_t size, int indent) {
    if (lines_.size() > size) lines_.resize(size);
    indent_ = indent;
  }
  const std::vector<CodeLine>& lines() const { return lines_; }
  void useHelper(const std::string& name) { helpers_.insert(name); }
  const std::set<std::string>& helpers() const { return helpers_; }
  // `T.` in handler text is the top-level namespace (torch / flow).
  std::string spell(const std::string& text) const;

  // Emits the nodes of a graph at the current indentation; set by the driver.
  std::function<void(const ir::Graph&)> emitGraph;

 private:
  const ir::Model& model_;
  Flavour flavour_;
  NameTable locals_;
  NameTable members_;
  std::unordered_map<const ir::Value*, std::string> exprs_;
  std::unordered_map<const ir::Value*, size_t> weightIndex_;  // into weights_
  ModuleTree tree_;
  std::vector<Weight> weights_;
  std::deque<ir::Tensor> ownedConstants_;  // tensors built from Constant value_float/value_ints/... attributes
  std::unordered_map<const ir::Value*, const ir::Tensor*> constantCache_;
  std::unordered_map<const ir::Value*, StaticValue> statics_;
  std::unordered_map<const ir::Value*, std::vector<uint64_t>> foldedBy_;
  std::set<uint64_t> pendingCredits_;
  std::string materialise(const ir::Value* v, const StaticValue& s);
  std::vector<CodeLine> lines_;
  std::set<std::string> helpers_;
  uint64_t currentNode_ = 0;
  int indent_ = 2;  // inside `class ...:` and `def forward(...):`
};

}  // namespace fb::codegen
