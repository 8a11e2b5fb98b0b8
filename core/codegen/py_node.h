#pragma once
// What a code-generation handler sees of the node it writes Python for: its inputs as expressions or
// constants, its attributes with ONNX defaults, variables for its outputs, and the lines it emits.
// Handlers write the top-level namespace as `T.` (torch / flow), `F.` for nn.functional and `nn.` for nn.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/module_builder.h"
#include "codegen/python_text.h"  // pyStringLiteral for handlers
#include "convert/handler.h"

namespace fb::codegen {

class PyNode {
 public:
  PyNode(const ir::Node& n, convert::HandlerContext& ctx, ModuleBuilder& mb, int64_t opset)
      : node(n), ctx(ctx), mb(mb), opset(opset) {}

  const ir::Node& node;
  convert::HandlerContext& ctx;
  ModuleBuilder& mb;
  const int64_t opset;  // the model's opset for the node's domain

  Flavour flavour() const { return mb.flavour(); }
  bool oneflow() const { return mb.flavour() == Flavour::OneFlow; }

  // --- inputs
  size_t inputCount() const { return node.inputs().size(); }
  bool has(size_t i) const { return node.input(i) != nullptr && !node.input(i)->name().empty(); }
  const ir::Value* inputValue(size_t i) const { return has(i) ? node.input(i) : nullptr; }
  // The input as a Python expression; throws Unsupported when the slot is empty.
  std::string in(size_t i);
  // The (constant) input registered as an nn.Parameter (floating types) or a buffer; fails when not constant.
  std::string weight(size_t i, bool trainable = true);
  const ir::Tensor* constant(size_t i);
  std::optional<std::vector<int64_t>> constInts(size_t i);
  std::optional<std::vector<double>> constDoubles(size_t i);
  // A Python number for a one-element constant input (exact for its element type), or nullopt.
  std::optional<std::string> scalarLiteral(size_t i);
  // The input as a Python scalar when scalarLiteral gives one and broadcasting cannot change the result's
  // shape (the constant's rank is not above the other operand's), else the tensor expression.
  std::string operand(size_t i, size_t other);
  // A Python expression for a list of ints: a literal when the input is constant, the ints of a static value
  // (static_values.h), else `<expr>.tolist()`.
  std::string intList(size_t i);
  // The elements of an int input as Python int expressions: a static value or a small constant; nullopt otherwise.
  std::optional<std::vector<std::string>> staticInts(size_t i);
  // A Python int for a one-element int input that is static or constant, else nullopt.
  std::optional<std::string> staticScalar(size_t i);
  // `<x>.device` of the first input held in a local variable, or the device a static input comes from ("" none).
  std::string deviceHint();
  std::optional<int64_t> rank(size_t i) const;
  std::optional<std::vector<int64_t>> shape(size_t i) const;
  ir::DataType dtype(size_t i) const;
  ir::DataType outDtype(size_t i) const;

  // --- attributes (ONNX default when absent)
  const ir::Attribute* attr(std::string_view name) const { return node.attr(name); }
  bool hasAttr(std::string_view name) const { return node.hasAttr(name); }
  int64_t attrInt(std::string_view name, int64_t def) const { return node.attrInt(name, def); }
  float attrFloat(std::string_view name, float def) const { return node.attrFloat(name, def); }
  std::string attrString(std::string_view name, std::string def) const { return node.attrString(name, std::move(def)); }
  std::vector<int64_t> attrInts(std::string_view name) const { return node.attrInts(name); }
  std::vector<float> attrFloats(std::string_view name) const;

  // --- outputs
  size_t outputCount() const { return node.outputs().size(); }
  bool outUsed(size_t i) const;  // the slot is present (named)
  // The variable for output i (named after the ONNX value on first use).
  std::string out(size_t i);
  void assign(const std::string& expression) { assignOut(0, expression); }
  void assignOut(size_t i, const std::string& expression);
  // Output i is an existing expression (no statement).
  void alias(size_t i, const std::string& expression);
  // "a, b, _" for the outputs of a tuple-returning call.
  std::string outTuple();

  // --- code
  void line(const std::string& text);
  void indent() { mb.indent(); }
  void dedent() { mb.dedent(); }
  std::string temp(const std::string& base) { return mb.newTemp(pyIdentifier(base)); }
  // Puts a helper function (HelperLibrary) into the module and returns its name.
  std::string helper(const std::string& name);
  // "T.float32" etc.; throws Unsupported for types the target lacks.
  std::string dtypeExpr(ir::DataType t) const;
  // Emits a subgraph's nodes at the current indentation with its inputs bound to `inputs`; returns the
  // expressions of its outputs.
  std::vector<std::string> body(const ir::Graph& g, const std::vector<std::string>& inputs);
  [[noreturn]] void unsupported(const std::string& why) const;
  void note(const std::string& text) { ctx.note = text; }

 private:
  bool wroteLine_ = false;
};

// Python literals.
std::string pyFloat(double v, ir::DataType t = ir::DataType::Double);  // exact for t (float32: 9 digits)
std::string pyInt(int64_t v);
std::string pyIntList(const std::vector<int64_t>& v);   // "[1, 2]"
std::string pyIntTuple(const std::vector<int64_t>& v);  // "(1, 2)" / "(1,)"
std::string pyBool(bool b);

}  // namespace fb::codegen
