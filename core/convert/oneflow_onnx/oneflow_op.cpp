#include "convert/oneflow_onnx/oneflow_op.h"

#include <stdexcept>

#include "convert/handler_registry.h"
#include "formats/oneflow/job_import.h"
#include "formats/oneflow/oneflow_attributes.h"

namespace fb::convert::oneflow {
namespace {
const ir::Attribute* argNames(const ir::Node& n, bool inputs) {
  return n.attr(inputs ? fb::oneflow::kInputArgsAttr : fb::oneflow::kOutputArgsAttr);
}

ir::Value* byArg(const ir::Node& n, bool inputs, const std::string& arg, size_t index) {
  const auto* names = argNames(n, inputs);
  if (!names) return nullptr;
  size_t seen = 0;
  for (size_t s = 0; s < names->strings.size(); ++s)
    if (names->strings[s] == arg && seen++ == index) return inputs ? n.input(s) : n.output(s);
  return nullptr;
}
}  // namespace

OneflowOp::OneflowOp(ir::Node& node, HandlerContext& ctx) : node_(node), ctx_(ctx) {
  used_.insert(fb::oneflow::kInputArgsAttr);
  used_.insert(fb::oneflow::kOutputArgsAttr);
}

ir::Value* OneflowOp::in(const std::string& arg, size_t index) const { return byArg(node_, true, arg, index); }

ir::Value* OneflowOp::requireIn(const std::string& arg, size_t index) const {
  ir::Value* v = in(arg, index);
  if (!v)
    throw std::runtime_error("input '" + arg + "'" + (index ? "[" + std::to_string(index) + "]" : "") + " is missing");
  return v;
}

std::vector<ir::Value*> OneflowOp::ins(const std::string& arg) const {
  std::vector<ir::Value*> out;
  for (size_t k = 0; ir::Value* v = in(arg, k); ++k) out.push_back(v);
  return out;
}

ir::Value* OneflowOp::out(const std::string& arg, size_t index) const { return byArg(node_, false, arg, index); }

const ir::Attribute* OneflowOp::attrUsed(const std::string& name) {
  used_.insert(name);
  return node_.attr(name);
}

int64_t OneflowOp::i(const std::string& name, int64_t def) {
  const auto* a = attrUsed(name);
  if (!a) return def;
  if (a->type == ir::AttrType::Float) return static_cast<int64_t>(a->f);
  return a->i;
}

double OneflowOp::f(const std::string& name, double def) {
  const auto* a = attrUsed(name);
  if (!a) return def;
  return a->type == ir::AttrType::Int ? static_cast<double>(a->i) : static_cast<double>(a->f);
}

std::string OneflowOp::str(const std::string& name, const std::string& def) {
  const auto* a = attrUsed(name);
  return a ? a->s.str() : def;
}

std::vector<int64_t> OneflowOp::ints(const std::string& name) {
  const auto* a = attrUsed(name);
  return a ? a->ints : std::vector<int64_t>{};
}

void OneflowOp::ignore(std::initializer_list<const char*> names) {
  for (const char* n : names) used_.insert(n);
}

void OneflowOp::expectString(const std::string& name, const std::string& expected) {
  const auto* a = attrUsed(name);
  if (a && !a->s.empty() && a->s != expected)
    throw std::runtime_error(name + " '" + a->s + "' is not supported (only '" + expected + "')");
}

std::optional<std::vector<int64_t>> OneflowOp::dims(const ir::Value* v) const {
  if (!v) return std::nullopt;
  return v->type.staticDims();
}

std::optional<int64_t> OneflowOp::rank(const ir::Value* v) const {
  if (!v || !v->type.isTensor() || !v->type.shape) return std::nullopt;
  return static_cast<int64_t>(v->type.shape->size());
}

ir::DataType OneflowOp::dtype(const ir::Value* v) const {
  return v && v->type.isTensor() ? v->type.elemType : ir::DataType::Undefined;
}

ir::Node* OneflowOp::node(const std::string& opType, const std::vector<ir::Value*>& inputs, size_t outputs) {
  // A dry run stops at the first edit: everything the handler checked before it has been decided.
  if (!ctx_.commit()) throw DryRunStop();
  std::vector<ir::Value*> outs;
  const std::string base = node_.name.empty() ? opType : node_.name + "/" + opType;
  for (size_t k = 0; k < outputs; ++k) outs.push_back(ctx_.newValue(base));
  return ctx_.insertNode(node_, opType, inputs, outs);
}

ir::Value* OneflowOp::emit(const std::string& opType, const std::vector<ir::Value*>& inputs,
                           std::vector<ir::Attribute> attrs) {
  ir::Node* n = node(opType, inputs, 1);
  n->attributes = std::move(attrs);
  return n->output(0);
}

ir::Value* OneflowOp::i64s(const std::vector<int64_t>& v, bool scalar) {
  return ctx_.constantInt64(node_.name + "/const", v, scalar);
}

ir::Value* OneflowOp::f32s(const std::vector<float>& v, bool scalar) {
  return ctx_.constantFloat(node_.name + "/const", v, scalar);
}

ir::Value* OneflowOp::scalarOf(ir::DataType dt, double value, bool scalar) {
  std::vector<int64_t> dimsV;
  if (!scalar) dimsV.push_back(1);
  const std::string name = ctx_.graph.uniqueName(node_.name + "/const");
  auto make = [&](auto typed) {
    using T = decltype(typed);
    return ctx_.graph.addInitializer(ir::Tensor::fromValues(name, dt, dimsV, std::vector<T>{static_cast<T>(value)}));
  };
  switch (dt) {
    case ir::DataType::Double:
      return make(double{});
    case ir::DataType::Int64:
      return make(int64_t{});
    case ir::DataType::Int32:
      return make(int32_t{});
    case ir::DataType::Int8:
      return make(int8_t{});
    case ir::DataType::UInt8:
    case ir::DataType::Bool:
      return make(uint8_t{});
    default:
      return make(float{});
  }
}

ir::Value* OneflowOp::unsqueeze(ir::Value* x, const std::vector<int64_t>& axes) {
  if (opset() >= 13) return emit("Unsqueeze", {x, i64s(axes)});
  return emit("Unsqueeze", {x}, {ir::Attribute::makeInts("axes", axes)});
}

ir::Value* OneflowOp::squeeze(ir::Value* x, const std::vector<int64_t>& axes) {
  if (opset() >= 13)
    return emit("Squeeze", axes.empty() ? std::vector<ir::Value*>{x} : std::vector<ir::Value*>{x, i64s(axes)});
  if (axes.empty()) return emit("Squeeze", {x});
  return emit("Squeeze", {x}, {ir::Attribute::makeInts("axes", axes)});
}

ir::Value* OneflowOp::reduce(const std::string& op, ir::Value* x, const std::vector<int64_t>& axes, bool keepdims) {
  // ReduceSum takes axes as an input from opset 13, the other reductions from opset 18.
  if (op == "ReduceSum" && opset() >= 13)
    return emit(op, {x, i64s(axes)}, {ir::Attribute::makeInt("keepdims", keepdims)});
  return emit(op, {x}, {ir::Attribute::makeInts("axes", axes), ir::Attribute::makeInt("keepdims", keepdims)});
}

ir::Value* OneflowOp::cast(ir::Value* x, ir::DataType to) {
  return emit("Cast", {x}, {ir::Attribute::makeInt("to", static_cast<int64_t>(to))});
}

ir::Value* OneflowOp::clip(ir::Value* x, std::optional<double> lo, std::optional<double> hi) {
  if (opset() < 11) {
    std::vector<ir::Attribute> attrs;
    if (lo) attrs.push_back(ir::Attribute::makeFloat("min", static_cast<float>(*lo)));
    if (hi) attrs.push_back(ir::Attribute::makeFloat("max", static_cast<float>(*hi)));
    return emit("Clip", {x}, std::move(attrs));
  }
  const auto dt = dtype(x) == ir::DataType::Undefined ? ir::DataType::Float : dtype(x);
  std::vector<ir::Value*> ins{x, lo ? scalarOf(dt, *lo) : nullptr, hi ? scalarOf(dt, *hi) : nullptr};
  if (!hi) ins.pop_back();
  if (!lo && !hi) ins.pop_back();
  return emit("Clip", ins);
}

void OneflowOp::finish(const std::vector<std::pair<std::string, ir::Value*>>& produced) {
  if (!ctx_.commit()) throw DryRunStop();
  const auto* names = argNames(node_, false);
  std::vector<std::pair<ir::Value*, ir::Value*>> rebinds;  // original output -> produced value
  for (size_t s = 0; s < node_.outputs().size(); ++s) {
    ir::Value* orig = node_.output(s);
    if (!orig) continue;
    const std::string arg = names && s < names->strings.size() ? names->strings[s] : std::to_string(s);
    size_t index = 0;
    for (size_t k = 0; k < s; ++k)
      if (names && names->strings[k] == arg) ++index;
    ir::Value* with = nullptr;
    for (const auto& [a, v] : produced)
      if (a == arg && index == 0)
        with = v;
      else if (a == arg + "_" + std::to_string(index))
        with = v;
    if (!with) {
      if (!orig->uses().empty() || orig->isGraphOutput())
        throw std::runtime_error("output '" + arg + "' is used, and the conversion does not produce it");
      continue;
    }
    rebinds.emplace_back(orig, with);
  }
  for (const auto& a : node_.attributes)
    if (!used_.count(a.name))
      ctx_.warnings.push_back("attribute '" + a.name + "' (" + a.valueToString() + ") is not used by the conversion");
  // A result that is an input or an initializer needs a node to carry the original name.
  for (auto& [orig, with] : rebinds)
    if (!with->producer()) with = emit("Identity", {with});
  ir::Graph& g = ctx_.graph;
  ctx_.removeReplaced(node_);
  for (auto [orig, with] : rebinds) {
    g.setOutput(with->producer(), static_cast<size_t>(with->producerOutput()), orig);
    g.replaceAllUses(with, orig);
  }
}

void OneflowOp::finish(ir::Value* produced) {
  const auto* names = argNames(node_, false);
  const std::string arg = names && !names->strings.empty() ? names->strings[0] : "0";
  finish({{arg, produced}});
}

void add(const std::string& opType, int64_t since, const std::string& description, std::function<void(OneflowOp&)> fn) {
  HandlerInfo h;
  h.domain = "oneflow";
  h.opType = opType;
  h.sinceVersion = since;
  h.description = description;
  h.fn = [fn = std::move(fn)](ir::Node& n, HandlerContext& ctx) {
    OneflowOp op(n, ctx);
    try {
      fn(op);
    } catch (const DryRunStop&) {
    }
  };
  HandlerRegistry::forDirection("oneflow").add(std::move(h));
}

}  // namespace fb::convert::oneflow
