#include "codegen/py_node.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "codegen/helper_library.h"
#include "codegen/python_text.h"
#include "codegen/static_values.h"

namespace fb::codegen {

std::string pyFloat(double v, ir::DataType t) {
  if (std::isnan(v)) return "float('nan')";
  if (std::isinf(v)) return v > 0 ? "float('inf')" : "float('-inf')";
  char buf[64];
  // 9 significant digits round-trip a float32, 17 a double; %g may print "1e+10" or "3": make it a float.
  std::snprintf(buf, sizeof buf, t == ir::DataType::Double ? "%.17g" : "%.9g", v);
  std::string s = buf;
  if (t != ir::DataType::Double && s.find_first_of(".e") == std::string::npos) s += ".0";
  if (t == ir::DataType::Double) {
    // Prefer the shortest text that reads back as the same double.
    for (int prec = 1; prec < 17; ++prec) {
      std::snprintf(buf, sizeof buf, "%.*g", prec, v);
      if (std::strtod(buf, nullptr) == v) {
        s = buf;
        break;
      }
    }
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
  } else {
    for (int prec = 1; prec < 9; ++prec) {
      std::snprintf(buf, sizeof buf, "%.*g", prec, v);
      if (static_cast<float>(std::strtod(buf, nullptr)) == static_cast<float>(v)) {
        s = buf;
        if (s.find_first_of(".en") == std::string::npos) s += ".0";
        break;
      }
    }
  }
  return s;
}

std::string pyInt(int64_t v) { return std::to_string(v); }

std::string pyIntList(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string pyIntTuple(const std::vector<int64_t>& v) {
  if (v.size() == 1) return "(" + std::to_string(v[0]) + ",)";
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

std::string pyBool(bool b) { return b ? "True" : "False"; }

std::string PyNode::in(size_t i) {
  if (!has(i)) unsupported("input " + std::to_string(i) + " is missing");
  // A floating-point constant with more than one element is a weight a researcher may fine-tune.
  if (const ir::Tensor* t = mb.isBound(node.input(i)) ? nullptr : mb.constantTensor(node.input(i))) {
    // Small non-trainable constants are literals on the device of the node's other operands.
    // An exporter's named float initializer (`fc.bias`) stays in the state dict.
    const ir::Value* source = mb.resolve(node.input(i));
    const bool namedParameter = source->initializer() && ir::isFloatingPoint(t->dtype) &&
                                source->name().rfind("onnx::", 0) != 0 && source->name().find('/') == std::string::npos;
    if (const std::string device = namedParameter ? std::string() : deviceHint(); !device.empty())
      if (auto lit = tensorLiteral(*t, device)) return *lit;
    return mb.weight(node.input(i), ir::isFloatingPoint(t->dtype) && t->numElements() > 1, &node, static_cast<int>(i));
  }
  return mb.expr(node.input(i));
}

std::string PyNode::weight(size_t i, bool trainable) {
  if (!has(i)) unsupported("input " + std::to_string(i) + " is missing");
  return mb.weight(node.input(i), trainable, &node, static_cast<int>(i));
}

const ir::Tensor* PyNode::constant(size_t i) { return has(i) ? mb.constantTensor(node.input(i)) : nullptr; }

std::optional<std::vector<int64_t>> PyNode::constInts(size_t i) {
  const ir::Tensor* t = constant(i);
  if (!t || ir::isFloatingPoint(t->dtype) || t->dtype == ir::DataType::String) return std::nullopt;
  return t->asInt64();
}

std::optional<std::vector<double>> PyNode::constDoubles(size_t i) {
  const ir::Tensor* t = constant(i);
  if (!t || t->dtype == ir::DataType::String) return std::nullopt;
  return t->asDouble();
}

std::optional<std::string> PyNode::scalarLiteral(size_t i) {
  const ir::Tensor* t = constant(i);
  if (!t || t->numElements() != 1) return std::nullopt;
  switch (t->dtype) {
    case ir::DataType::Float:
    case ir::DataType::Double:
      return pyFloat(t->asDouble()[0], t->dtype);
    case ir::DataType::Int8:
    case ir::DataType::Int16:
    case ir::DataType::Int32:
    case ir::DataType::Int64:
    case ir::DataType::UInt8:
      return pyInt(t->asInt64()[0]);
    case ir::DataType::Bool:
      return pyBool(t->asInt64()[0] != 0);
    default:
      return std::nullopt;  // float16 etc.: a Python float would be rounded differently
  }
}

std::string PyNode::operand(size_t i, size_t other) {
  if (auto lit = scalarLiteral(i)) {
    const ir::Tensor* t = constant(i);
    auto r = rank(other);
    // The result's dtype follows the tensor operand when the other is a Python scalar of the same kind;
    // its shape is the tensor's unless the constant has more dims.
    if (r && static_cast<int64_t>(t->dims.size()) <= *r && dtype(other) == t->dtype) return *lit;
  }
  return in(i);
}

std::optional<std::vector<std::string>> PyNode::staticInts(size_t i) {
  if (auto s = staticInput(*this, i)) return s->exprs();
  if (auto v = constInts(i)) {
    std::vector<std::string> out;
    for (int64_t d : *v) out.push_back(pyInt(d));
    return out;
  }
  return std::nullopt;
}

std::optional<std::string> PyNode::staticScalar(size_t i) {
  if (auto s = staticInput(*this, i); s && s->elems.size() == 1) return s->elems[0].expr;
  return std::nullopt;
}

std::string PyNode::deviceHint() {
  for (size_t j = 0; j < inputCount(); ++j) {
    if (!has(j)) continue;
    const ir::Value* v = node.input(j);
    if (const StaticValue* s = mb.staticValue(v); s && !s->device.empty()) return s->device;
    if (!mb.isBound(v)) continue;
    const std::string e = mb.expr(v);
    // A plain variable (not an expression to evaluate twice).
    if (!e.empty() && e.find_first_of(" ()[]") == std::string::npos) return e + ".device";
  }
  return "";
}

std::string PyNode::intList(size_t i) {
  if (auto s = staticInput(*this, i)) {
    if (s->scalar) return s->elems[0].expr;
    std::string text = "[";
    for (size_t k = 0; k < s->elems.size(); ++k) text += (k ? ", " : "") + s->elems[k].expr;
    return text + "]";
  }
  if (auto v = constInts(i)) return pyIntList(*v);
  return in(i) + ".tolist()";
}

std::optional<int64_t> PyNode::rank(size_t i) const { return has(i) ? ctx.rank(node.input(i)) : std::nullopt; }

std::optional<std::vector<int64_t>> PyNode::shape(size_t i) const {
  return has(i) ? ctx.staticShape(node.input(i)) : std::nullopt;
}

ir::DataType PyNode::dtype(size_t i) const {
  if (!has(i)) return ir::DataType::Undefined;
  return ctx.elemType(mb.resolve(node.input(i)));
}

ir::DataType PyNode::outDtype(size_t i) const {
  return outUsed(i) ? ctx.elemType(node.output(i)) : ir::DataType::Undefined;
}

std::vector<float> PyNode::attrFloats(std::string_view name) const {
  const ir::Attribute* a = node.attr(name);
  return a ? a->floats.vec() : std::vector<float>{};
}

bool PyNode::outUsed(size_t i) const { return node.output(i) != nullptr && !node.output(i)->name().empty(); }

std::string PyNode::out(size_t i) {
  if (!outUsed(i)) return "_";
  const ir::Value* v = node.output(i);
  if (mb.isBound(v)) return mb.expr(v);
  return mb.newLocal(v);
}

void PyNode::assignOut(size_t i, const std::string& expression) { line(out(i) + " = " + expression); }

void PyNode::alias(size_t i, const std::string& expression) {
  if (outUsed(i)) mb.bind(node.output(i), expression);
}

std::string PyNode::outTuple() {
  std::string s;
  for (size_t i = 0; i < outputCount(); ++i) s += (i ? ", " : "") + out(i);
  return s;
}

void PyNode::line(const std::string& text) {
  std::string comment;
  if (!wroteLine_) comment = node.name.empty() ? node.opType : node.name;
  wroteLine_ = true;
  mb.line(text, node.id(), comment);
}

std::string PyNode::helper(const std::string& name) {
  const Helper* h = HelperLibrary::instance().find(name);
  if (!h) throw std::logic_error("no Python helper named " + name);
  mb.useHelper(name);
  for (const auto& r : h->needs) helper(r);
  return name;
}

std::string PyNode::dtypeExpr(ir::DataType t) const {
  switch (t) {
    case ir::DataType::Float:
      return "T.float32";
    case ir::DataType::Double:
      return "T.float64";
    case ir::DataType::Float16:
      return "T.float16";
    case ir::DataType::Int8:
      return "T.int8";
    case ir::DataType::Int16:
      return oneflow() ? (unsupported("OneFlow has no int16 tensors"), "") : "T.int16";
    case ir::DataType::Int32:
      return "T.int32";
    case ir::DataType::Int64:
      return "T.int64";
    case ir::DataType::UInt8:
      return "T.uint8";
    case ir::DataType::Bool:
      return "T.bool";
    case ir::DataType::BFloat16:
      if (oneflow()) unsupported("OneFlow cannot save or load bfloat16 tensors");
      return "T.bfloat16";
    default:
      unsupported("element type " + std::string(ir::dataTypeName(t)) + " has no " +
                  (oneflow() ? "OneFlow" : "PyTorch") + " equivalent");
  }
}

std::vector<std::string> PyNode::body(const ir::Graph& g, const std::vector<std::string>& inputs) {
  if (inputs.size() != g.inputs().size())
    unsupported("subgraph '" + g.name + "' takes " + std::to_string(g.inputs().size()) + " inputs, the op gives " +
                std::to_string(inputs.size()));
  for (size_t k = 0; k < inputs.size(); ++k) mb.bind(g.inputs()[k], inputs[k]);
  mb.emitGraph(g);
  std::vector<std::string> outs;
  for (const ir::Value* v : g.outputs()) outs.push_back(mb.expr(v));
  return outs;
}

void PyNode::unsupported(const std::string& why) const { throw convert::Unsupported(why); }

}  // namespace fb::codegen
