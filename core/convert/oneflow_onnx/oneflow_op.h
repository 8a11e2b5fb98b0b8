#pragma once
// What every OneFlow handler needs: the node's inputs and outputs by OneFlow argument name ("x", "gamma"...),
// attribute reads that remember which attributes were used (the rest become warnings on the node, never dropped
// silently), and emission of ONNX nodes that take over the original output values (names and uses kept).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "convert/handler.h"
#include "ir/graph.h"

namespace fb::convert::oneflow {

// Thrown by the first edit of a dry run; the registration wrapper swallows it.
struct DryRunStop {};

class OneflowOp {
 public:
  OneflowOp(ir::Node& node, HandlerContext& ctx);

  ir::Node& node() { return node_; }
  HandlerContext& ctx() { return ctx_; }
  int64_t opset() const { return ctx_.targetOpset; }

  // --- inputs / outputs by argument name; nullptr when absent
  ir::Value* in(const std::string& arg, size_t index = 0) const;
  ir::Value* requireIn(const std::string& arg, size_t index = 0) const;  // throws when absent
  std::vector<ir::Value*> ins(const std::string& arg) const;
  ir::Value* out(const std::string& arg, size_t index = 0) const;
  // The input values in slot order, whatever their argument names.
  const std::vector<ir::Value*>& allInputs() const { return node_.inputs(); }

  // --- attributes (OneFlow names); reading marks them used
  bool has(const std::string& name) const { return node_.hasAttr(name); }
  int64_t i(const std::string& name, int64_t def = 0);
  double f(const std::string& name, double def = 0);
  bool flag(const std::string& name, bool def = false) { return i(name, def ? 1 : 0) != 0; }
  std::string str(const std::string& name, const std::string& def = "");
  std::vector<int64_t> ints(const std::string& name);
  // Marks attributes as deliberately ignored: they do not change the result of an inference graph.
  void ignore(std::initializer_list<const char*> names);
  // Throws unless the attribute is absent or equal to `expected` (e.g. data_format "channels_first").
  void expectString(const std::string& name, const std::string& expected);

  // --- shapes known from the source model
  std::optional<std::vector<int64_t>> dims(const ir::Value* v) const;
  std::optional<int64_t> rank(const ir::Value* v) const;
  ir::DataType dtype(const ir::Value* v) const;

  // --- emission: an ONNX node before the OneFlow node, producing fresh values
  ir::Node* node(const std::string& opType, const std::vector<ir::Value*>& inputs, size_t outputs = 1);
  ir::Value* emit(const std::string& opType, const std::vector<ir::Value*>& inputs,
                  std::vector<ir::Attribute> attrs = {});
  ir::Value* i64s(const std::vector<int64_t>& v, bool scalar = false);
  ir::Value* f32s(const std::vector<float>& v, bool scalar = false);
  // A scalar (or 1-element) initializer of element type `dt` holding `value`.
  ir::Value* scalarOf(ir::DataType dt, double value, bool scalar = true);
  // Unsqueeze / Squeeze / ReduceX with axes as an attribute or an input as the target opset wants.
  ir::Value* unsqueeze(ir::Value* x, const std::vector<int64_t>& axes);
  ir::Value* squeeze(ir::Value* x, const std::vector<int64_t>& axes);
  ir::Value* reduce(const std::string& op, ir::Value* x, const std::vector<int64_t>& axes, bool keepdims);
  ir::Value* cast(ir::Value* x, ir::DataType to);
  // Clip with bounds as attributes (opset < 11) or inputs; nullopt = unbounded on that side.
  ir::Value* clip(ir::Value* x, std::optional<double> lo, std::optional<double> hi);

  // --- finish: `produced` takes over output `arg`; outputs not given must be unused. Removes the node and
  // reports unused attributes as warnings.
  void finish(const std::vector<std::pair<std::string, ir::Value*>>& produced);
  // Shortcut for the common one-output case: the first output slot.
  void finish(ir::Value* produced);

 private:
  ir::Node& node_;
  HandlerContext& ctx_;
  std::set<std::string> used_;
  const ir::Attribute* attrUsed(const std::string& name);
};

// Registers a handler for OneFlow op `opType` valid from target opset `since`.
void add(const std::string& opType, int64_t since, const std::string& description, std::function<void(OneflowOp&)> fn);

}  // namespace fb::convert::oneflow
