#include "codegen/static_values.h"

#include <algorithm>
#include <limits>

#include "codegen/folded_constants.h"
#include "codegen/helper_library.h"
#include "codegen/py_node.h"

namespace fb::codegen {

bool StaticValue::known() const {
  return std::all_of(elems.begin(), elems.end(), [](const StaticInt& e) { return e.value.has_value(); });
}

std::vector<int64_t> StaticValue::values() const {
  std::vector<int64_t> out;
  for (const auto& e : elems) out.push_back(e.value.value_or(0));
  return out;
}

std::vector<std::string> StaticValue::exprs() const {
  std::vector<std::string> out;
  for (const auto& e : elems) out.push_back(e.expr);
  return out;
}

namespace {

bool isStaticType(ir::DataType t) { return t == ir::DataType::Int64 || t == ir::DataType::Int32; }

StaticInt literal(int64_t v) { return StaticInt{pyInt(v), v, v >= 0}; }

// An operand of a binary operator: compound expressions (they contain a space) and negative literals in parentheses.
std::string operandText(const StaticInt& e) {
  if (e.expr.find(' ') != std::string::npos || (!e.expr.empty() && e.expr[0] == '-')) return "(" + e.expr + ")";
  return e.expr;
}

std::string listText(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + "]";
}

// Wraps an int64 result the way ONNX's int64 arithmetic does (two's complement), or nullopt for int32 overflow.
std::optional<int64_t> fits(int64_t v, ir::DataType t) {
  if (t == ir::DataType::Int32 && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()))
    return std::nullopt;
  return v;
}

// a OP b on one element; nullopt when the result cannot be written exactly as Python int arithmetic.
std::optional<StaticInt> binary(PyNode& p, const std::string& op, const StaticInt& a, const StaticInt& b,
                                ir::DataType t) {
  if (a.value && b.value) {
    const int64_t x = *a.value, y = *b.value;
    int64_t r = 0;
    if (op == "Add") {
      if (__builtin_add_overflow(x, y, &r)) return std::nullopt;
    } else if (op == "Sub") {
      if (__builtin_sub_overflow(x, y, &r)) return std::nullopt;
    } else if (op == "Mul") {
      if (__builtin_mul_overflow(x, y, &r)) return std::nullopt;
    } else if (op == "Div") {
      if (y == 0 || (x == std::numeric_limits<int64_t>::min() && y == -1)) return std::nullopt;
      r = x / y;  // C++ truncates toward zero, as ONNX does
    } else {      // Mod with fmod=0: the result takes the divisor's sign (Python's %)
      if (y == 0 || (x == std::numeric_limits<int64_t>::min() && y == -1)) return std::nullopt;
      r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
    }
    if (!fits(r, t)) return std::nullopt;
    return literal(r);
  }
  StaticInt out;
  const std::string x = operandText(a), y = operandText(b);
  if (op == "Add") {
    if (b.value == 0) return a;
    if (a.value == 0) return b;
    out.expr = x + " + " + y;
    out.nonNegative = a.nonNegative && b.nonNegative;
  } else if (op == "Sub") {
    if (b.value == 0) return a;
    out.expr = x + " - " + y;
  } else if (op == "Mul") {
    if (b.value == 1) return a;
    if (a.value == 1) return b;
    out.expr = x + " * " + y;
    out.nonNegative = a.nonNegative && b.nonNegative;
  } else if (op == "Div") {
    if (b.value == 0) return std::nullopt;
    if (b.value == 1) return a;
    if (a.nonNegative && b.nonNegative) {
      // Truncation and Python's floor agree when neither operand is negative.
      out.expr = x + " // " + y;
      out.nonNegative = true;
    } else {
      out.expr = p.helper("_onnx_int_div") + "(" + a.expr + ", " + b.expr + ")";
    }
  } else {
    if (b.value == 0) return std::nullopt;
    out.expr = x + " % " + y;
    out.nonNegative = b.value && *b.value > 0;
  }
  return out;
}

// Broadcasts two static values (scalar or equal length lists, or a list of one).
std::optional<StaticValue> elementwise(PyNode& p, const std::string& op, const StaticValue& a, const StaticValue& b) {
  const size_t n = std::max(a.elems.size(), b.elems.size());
  if ((a.elems.size() != n && a.elems.size() != 1) || (b.elems.size() != n && b.elems.size() != 1)) return std::nullopt;
  StaticValue out;
  out.scalar = a.scalar && b.scalar;
  out.dtype = a.dtype;
  for (size_t i = 0; i < n; ++i) {
    auto e = binary(p, op, a.elems[a.elems.size() == 1 ? 0 : i], b.elems[b.elems.size() == 1 ? 0 : i], a.dtype);
    if (!e) return std::nullopt;
    out.elems.push_back(std::move(*e));
  }
  return out;
}

// A constant axis attribute or input (older opsets: attribute), normalised to rank `rank`; nullopt when unknown.
std::optional<std::vector<int64_t>> constAxes(PyNode& p, size_t input, int64_t inputSince) {
  if (p.opset >= inputSince) {
    if (!p.has(input)) return std::nullopt;
    return p.constInts(input);
  }
  if (!p.hasAttr("axes")) return std::nullopt;
  return p.attrInts("axes");
}

// The ONNX Slice of a list of n elements, with ONNX's clamping.
std::optional<std::vector<size_t>> sliceIndices(int64_t n, int64_t start, int64_t end, int64_t step) {
  if (step == 0) return std::nullopt;
  auto clamp = [](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
  if (start < 0) start = start <= std::numeric_limits<int64_t>::min() + n ? -1 - n : start + n;
  if (end < 0) end = end <= std::numeric_limits<int64_t>::min() + n ? -1 - n : end + n;
  std::vector<size_t> out;
  if (step > 0) {
    start = clamp(start, 0, n);
    end = clamp(end, 0, n);
    for (int64_t i = start; i < end; i += step) out.push_back(static_cast<size_t>(i));
  } else {
    start = clamp(start, 0, n - 1);
    end = clamp(end, -1, n - 1);
    for (int64_t i = start; i > end; i += step) out.push_back(static_cast<size_t>(i));
  }
  return out;
}

// Reads inputs as static values; the node's own id joins theirs.
struct Lowering {
  PyNode& p;
  std::vector<uint64_t> nodes;

  std::optional<StaticValue> in(size_t i) {
    auto s = staticInput(p, i);
    if (s) nodes.insert(nodes.end(), s->nodes.begin(), s->nodes.end());
    return s;
  }

  // Binds output 0. A known value becomes a constant (literal or weight where used); a compound element gets a
  // local (`n_heads = x.shape[0] * 8`) so that it is computed once and reads as a name.
  bool finish(StaticValue out) {
    const ir::Value* v = p.node.output(0);
    if (!v || v->name().empty()) return true;
    // The nodes behind the inputs (folded constants included) are credited to where this value is used.
    for (uint64_t id : p.mb.takeCredits()) nodes.push_back(id);
    nodes.push_back(p.node.id());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    out.indent = p.mb.indentLevel();
    out.nodes = nodes;
    if (out.known() && out.dtype != ir::DataType::Bool &&
        static_cast<int64_t>(out.elems.size()) <= kMaxLiteralElements) {
      const auto vals = out.values();
      std::vector<int64_t> dims;
      if (!out.scalar) dims.push_back(static_cast<int64_t>(vals.size()));
      ir::Tensor t;
      if (out.dtype == ir::DataType::Int32) {
        std::vector<int32_t> narrow(vals.begin(), vals.end());
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Int32, dims, narrow);
      } else {
        t = ir::Tensor::fromValues(v->name(), ir::DataType::Int64, dims, vals);
      }
      p.mb.foldConstant(v, std::move(t), nodes);
      p.note("folded: computed from constants at generation time");
      return true;
    }
    for (auto& e : out.elems) {
      if (e.expr.find(' ') == std::string::npos) continue;
      std::string name = p.temp(identifierForValue(v->name()));
      p.mb.credit(nodes);
      p.line(name + " = " + e.expr);
      e.expr = name;
      out.nodes = {};  // the local's line names them
    }
    p.note("Python ints (shape arithmetic)");
    p.mb.setStatic(v, std::move(out));
    return true;
  }
};

bool lowerShape(PyNode& p, Lowering& l) {
  if (p.mb.staticValue(p.inputValue(0))) return false;
  if (const ir::Tensor* t = p.mb.isBound(p.inputValue(0)) ? nullptr : p.mb.constantTensor(p.inputValue(0))) {
    // The shape of a constant is a constant.
    if (p.opset >= 15 && (p.hasAttr("start") || p.hasAttr("end"))) return false;
    StaticValue out;
    for (int64_t d : t->dims) out.elems.push_back(literal(d));
    return l.finish(std::move(out));
  }
  auto rank = p.rank(0);
  if (!rank) return false;
  int64_t start = 0, end = *rank;
  if (p.opset >= 15) {
    auto norm = [&](int64_t v) { return std::min(std::max(v < 0 ? v + *rank : v, int64_t{0}), *rank); };
    start = norm(p.attrInt("start", 0));
    if (p.hasAttr("end")) end = norm(p.attrInt("end", *rank));
  }
  const std::string x = p.in(0);
  // Only a plain variable may be repeated in every element (it is computed once).
  if (x.find_first_of(" ([") != std::string::npos) return false;
  StaticValue out;
  for (int64_t i = start; i < end; ++i) out.elems.push_back(StaticInt{x + ".shape[" + pyInt(i) + "]", {}, true});
  out.device = x + ".device";
  return l.finish(std::move(out));
}

bool lowerGather(PyNode& p, Lowering& l) {
  auto data = l.in(0);
  auto idx = p.constant(1);
  if (!data || data->scalar || !idx || idx->dims.size() > 1 || ir::isFloatingPoint(idx->dtype)) return false;
  const int64_t axis = p.attrInt("axis", 0);
  if (axis != 0 && axis != -1) return false;
  const int64_t n = static_cast<int64_t>(data->elems.size());
  StaticValue out;
  out.scalar = idx->dims.empty();
  out.dtype = data->dtype;
  out.device = data->device;
  for (int64_t i : idx->asInt64()) {
    if (i < -n || i >= n) return false;  // out of range: the handler's code fails at run time as ONNX does
    out.elems.push_back(data->elems[static_cast<size_t>(i < 0 ? i + n : i)]);
  }
  return l.finish(std::move(out));
}

bool lowerUnsqueeze(PyNode& p, Lowering& l) {
  auto x = l.in(0);
  auto axes = constAxes(p, 1, 13);
  if (!x || !x->scalar || !axes || axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1)) return false;
  x->scalar = false;
  return l.finish(std::move(*x));
}

bool lowerSqueeze(PyNode& p, Lowering& l) {
  auto x = l.in(0);
  if (!x || x->scalar || x->elems.size() != 1) return false;
  if (auto axes = constAxes(p, 1, 13); axes && !(axes->size() == 1 && ((*axes)[0] == 0 || (*axes)[0] == -1)))
    return false;
  x->scalar = true;
  return l.finish(std::move(*x));
}

bool lowerConcat(PyNode& p, Lowering& l) {
  const int64_t axis = p.attrInt("axis", 0);
  if (axis != 0 && axis != -1) return false;
  StaticValue out;
  for (size_t i = 0; i < p.inputCount(); ++i) {
    auto s = l.in(i);
    if (!s || s->scalar) return false;
    if (i == 0) out.dtype = s->dtype;
    if (s->dtype != out.dtype) return false;
    if (out.device.empty()) out.device = s->device;
    out.elems.insert(out.elems.end(), s->elems.begin(), s->elems.end());
  }
  return l.finish(std::move(out));
}

bool lowerSlice(PyNode& p, Lowering& l) {
  auto x = l.in(0);
  if (!x || x->scalar || p.opset < 10) return false;
  auto starts = p.constInts(1), ends = p.constInts(2);
  std::optional<std::vector<int64_t>> axes, steps;
  if (p.has(3) && !(axes = p.constInts(3))) return false;
  if (p.has(4) && !(steps = p.constInts(4))) return false;
  if (!starts || !ends || starts->size() != 1 || ends->size() != 1) return false;
  if (axes && (axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1))) return false;
  if (steps && steps->size() != 1) return false;
  auto picked = sliceIndices(static_cast<int64_t>(x->elems.size()), (*starts)[0], (*ends)[0], steps ? (*steps)[0] : 1);
  if (!picked) return false;
  StaticValue out;
  out.dtype = x->dtype;
  out.device = x->device;
  for (size_t i : *picked) out.elems.push_back(x->elems[i]);
  return l.finish(std::move(out));
}

bool lowerArithmetic(PyNode& p, Lowering& l) {
  const std::string& op = p.node.opType;
  if (op == "Mod" && p.attrInt("fmod", 0) != 0) return false;
  if (p.hasAttr("broadcast") || p.hasAttr("axis")) return false;  // legacy broadcasting (opset < 7)
  auto a = l.in(0);
  if (!a) return false;
  auto b = l.in(1);
  if (!b || a->dtype != b->dtype) return false;
  auto out = elementwise(p, op, *a, *b);
  if (!out) return false;
  out->device = a->device.empty() ? b->device : a->device;
  return l.finish(std::move(*out));
}

// Equal on ints gives Python bools; Where picks between ints with them (Expand's "-1 means keep" pattern).
bool lowerEqual(Lowering& l) {
  auto a = l.in(0);
  if (!a || a->dtype == ir::DataType::Bool) return false;
  auto b = l.in(1);
  if (!b || a->dtype != b->dtype) return false;
  const size_t n = std::max(a->elems.size(), b->elems.size());
  if ((a->elems.size() != n && a->elems.size() != 1) || (b->elems.size() != n && b->elems.size() != 1)) return false;
  StaticValue out;
  out.scalar = a->scalar && b->scalar;
  out.dtype = ir::DataType::Bool;
  out.device = a->device.empty() ? b->device : a->device;
  for (size_t i = 0; i < n; ++i) {
    const StaticInt& x = a->elems[a->elems.size() == 1 ? 0 : i];
    const StaticInt& y = b->elems[b->elems.size() == 1 ? 0 : i];
    if (x.value && y.value)
      out.elems.push_back(StaticInt{pyBool(*x.value == *y.value), *x.value == *y.value ? 1 : 0, true});
    else
      out.elems.push_back(StaticInt{operandText(x) + " == " + operandText(y), {}, true});
  }
  return l.finish(std::move(out));
}

bool lowerWhere(Lowering& l) {
  auto c = l.in(0);
  if (!c || c->dtype != ir::DataType::Bool) return false;
  auto a = l.in(1), b = l.in(2);
  if (!a || !b || a->dtype != b->dtype || a->dtype == ir::DataType::Bool) return false;
  size_t n = std::max({c->elems.size(), a->elems.size(), b->elems.size()});
  for (const auto* s : {&*c, &*a, &*b})
    if (s->elems.size() != n && s->elems.size() != 1) return false;
  StaticValue out;
  out.scalar = c->scalar && a->scalar && b->scalar;
  out.dtype = a->dtype;
  out.device = !a->device.empty() ? a->device : !b->device.empty() ? b->device : c->device;
  auto at = [&](const StaticValue& s, size_t i) -> const StaticInt& { return s.elems[s.elems.size() == 1 ? 0 : i]; };
  for (size_t i = 0; i < n; ++i) {
    const StaticInt &cond = at(*c, i), &x = at(*a, i), &y = at(*b, i);
    if (cond.value)
      out.elems.push_back(*cond.value ? x : y);
    else
      out.elems.push_back(StaticInt{
          operandText(x) + " if " + cond.expr + " else " + operandText(y), {}, x.nonNegative && y.nonNegative});
  }
  return l.finish(std::move(out));
}

bool lowerCast(PyNode& p, Lowering& l) {
  const ir::Attribute* to = p.attr("to");
  if (!to || to->type != ir::AttrType::Int) return false;
  const auto t = static_cast<ir::DataType>(to->i);
  auto x = l.in(0);
  if (!x || !isStaticType(t)) return false;
  if (t == ir::DataType::Int32)
    for (const auto& e : x->elems)
      if (!e.value || !fits(*e.value, t)) return false;  // int64 -> int32 wraps: leave that to the tensor code
  x->dtype = t;
  return l.finish(std::move(*x));
}

}  // namespace

std::optional<StaticValue> staticInput(PyNode& p, size_t i) {
  if (!p.has(i)) return std::nullopt;
  if (const StaticValue* s = p.mb.staticValue(p.inputValue(i))) return *s;
  const ir::Tensor* t = p.mb.isBound(p.inputValue(i)) ? nullptr : p.mb.constantTensor(p.inputValue(i));
  if (!t || !isStaticType(t->dtype) || t->dims.size() > 1 || t->numElements() > kMaxLiteralElements)
    return std::nullopt;
  StaticValue s;
  s.scalar = t->dims.empty();
  s.dtype = t->dtype;
  for (int64_t v : t->asInt64()) s.elems.push_back(literal(v));
  return s;
}

bool lowerToStatic(PyNode& p) {
  if (foldConstantNode(p)) return true;
  if (!p.node.isDefaultDomain() || p.outputCount() != 1) return false;
  HelperLibrary::instance().add(Helper{"_onnx_int_div",
                                       "def _onnx_int_div(a: int, b: int) -> int:\n"
                                       "    # ONNX integer Div truncates toward zero; Python's // floors.\n"
                                       "    q = abs(a) // abs(b)\n"
                                       "    return -q if (a < 0 and b > 0) or (a > 0 and b < 0) else q\n",
                                       {}});
  const std::string& op = p.node.opType;
  Lowering l{p, {}};
  // Only int64/int32 values: their elements are what the Python ints hold.
  if (op == "Shape") return lowerShape(p, l);
  if (op == "Gather") return lowerGather(p, l);
  if (op == "Unsqueeze") return lowerUnsqueeze(p, l);
  if (op == "Squeeze") return lowerSqueeze(p, l);
  if (op == "Concat") return lowerConcat(p, l);
  if (op == "Slice") return lowerSlice(p, l);
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || (op == "Mod" && p.opset >= 10))
    return lowerArithmetic(p, l);
  if (op == "Cast") return lowerCast(p, l);
  if (op == "Equal") return lowerEqual(l);
  if (op == "Where") return lowerWhere(l);
  if (op == "Identity") {
    auto x = l.in(0);
    return x && !p.mb.constantTensor(p.inputValue(0)) && l.finish(std::move(*x));
  }
  return false;
}

std::string materialisedTensor(const StaticValue& s) {
  std::string data = s.scalar ? s.elems.at(0).expr : listText(s.exprs());
  std::string dtype = s.dtype == ir::DataType::Int32 ? "T.int32" : s.dtype == ir::DataType::Bool ? "T.bool" : "T.int64";
  return "T.tensor(" + data + ", dtype=" + dtype + (s.device.empty() ? "" : ", device=" + s.device) + ")";
}

std::optional<std::string> tensorLiteral(const ir::Tensor& t, const std::string& device) {
  if (t.dims.size() > 1 || t.numElements() > kMaxLiteralElements) return std::nullopt;
  std::vector<std::string> items;
  std::string dtype;
  switch (t.dtype) {
    case ir::DataType::Float:
    case ir::DataType::Double:
      // A float tensor of more than one element is a weight a researcher may train.
      if (t.numElements() != 1) return std::nullopt;
      dtype = t.dtype == ir::DataType::Float ? "T.float32" : "T.float64";
      for (double v : t.asDouble()) items.push_back(pyFloat(v, t.dtype));
      break;
    case ir::DataType::Int64:
    case ir::DataType::Int32:
      dtype = t.dtype == ir::DataType::Int64 ? "T.int64" : "T.int32";
      for (int64_t v : t.asInt64()) items.push_back(pyInt(v));
      break;
    case ir::DataType::Bool:
      dtype = "T.bool";
      for (int64_t v : t.asInt64()) items.push_back(pyBool(v != 0));
      break;
    default:
      return std::nullopt;
  }
  std::string data = t.dims.empty() ? items.at(0) : listText(items);
  return "T.tensor(" + data + ", dtype=" + dtype + (device.empty() ? "" : ", device=" + device) + ")";
}

}  // namespace fb::codegen
