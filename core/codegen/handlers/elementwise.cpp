// Elementwise ops: math, comparisons, logic, activations, Cast. ONNX broadcasting is numpy's, as in
// PyTorch and OneFlow, so most ops are one call.
#include <cmath>

#include "codegen/dead_code.h"
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// PyTorch 1.13 and OneFlow have no uint16/uint32/uint64 tensors (and no string tensors): say so instead of
// writing code that fails at run time.
void checkElementTypes(PyNode& p) {
  auto check = [&p](ir::DataType t) {
    if (t == ir::DataType::UInt16 || t == ir::DataType::UInt32 || t == ir::DataType::UInt64 ||
        t == ir::DataType::String)
      p.unsupported(std::string(ir::dataTypeName(t)) + " tensors: " + (p.oneflow() ? "OneFlow" : "PyTorch 1.13") +
                    " has none");
  };
  for (size_t i = 0; i < p.inputCount(); ++i) check(p.dtype(i));
  for (size_t i = 0; i < p.outputCount(); ++i) check(p.outDtype(i));
}

void add(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& description,
         PyHandler fn) {
  addPy(r, op, since, description, [fn = std::move(fn)](PyNode& p) {
    checkElementTypes(p);
    fn(p);
  });
}

void unary(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& call,
           bool oneflowHasIt = true) {
  add(r, op, since, call + "(x)", [call, oneflowHasIt, op](PyNode& p) {
    if (!oneflowHasIt && p.oneflow()) p.unsupported(op + ": OneFlow 0.8-1.0 have no " + call);
    p.assign(call + "(" + p.in(0) + ")");
  });
}

bool isLiteralOf(const std::string& text, int value) {
  const std::string v = std::to_string(value);
  return text == v || text == v + ".0";
}

// a <op> b with Python operators where they mean the same as the ONNX op for every type.
void binaryOperator(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& sym) {
  add(r, op, since, "a " + sym + " b", [sym](PyNode& p) {
    if (p.attrInt("broadcast", 1) == 0 && p.opset < 7) p.unsupported("legacy broadcast attribute");
    if (p.hasAttr("axis")) p.unsupported("legacy broadcast axis attribute (opset < 7)");
    std::string a = p.operand(0, 1), b = p.operand(1, 0);
    if (a.find_first_not_of("-0123456789.e") == std::string::npos &&
        b.find_first_not_of("-0123456789.e") == std::string::npos)
      b = p.in(1);  // two Python numbers would not make a tensor
    // `x * 1` and `x - 0` compute x (the literal was only used where it changes neither shape nor type): no
    // statement. `x + 0` is not one of them: it turns -0.0 into 0.0.
    if (sym == "*" && isLiteralOf(a, 1)) return noStatement(p, b, "1 * x is x");
    if ((sym == "*" && isLiteralOf(b, 1)) || (sym == "-" && isLiteralOf(b, 0)))
      return noStatement(p, a, "x " + sym + " " + b + " is x");
    p.assign(a + " " + sym + " " + b);
  });
}

void binaryCall(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& call) {
  add(r, op, since, call + "(a, b)", [call](PyNode& p) { p.assign(call + "(" + p.in(0) + ", " + p.in(1) + ")"); });
}

std::string chain(PyNode& p, const std::string& call) {
  std::string e = p.in(0);
  for (size_t i = 1; i < p.inputCount(); ++i) e = call + "(" + e + ", " + p.in(i) + ")";
  return e;
}

void softmaxLike(convert::HandlerRegistry& r, const std::string& op, const std::string& call) {
  // Before opset 13 the input is seen as 2-D [d0*...*d(axis-1), d(axis)*...]: the op normalises over
  // every dim from `axis` on.
  add(r, op, 1, call + " over the flattened trailing dims", [call](PyNode& p) {
    int64_t axis = p.attrInt("axis", 1);
    auto rank = p.rank(0);
    if (rank && (axis == *rank - 1 || axis == -1)) return p.assign(call + "(" + p.in(0) + ", dim=-1)");
    std::string x = p.in(0);
    p.assign(call + "(" + x + ".flatten(" + std::to_string(axis) + "), dim=-1).reshape(" + x + ".shape)");
  });
  add(r, op, 13, call + "(x, dim=axis)",
      [call](PyNode& p) { p.assign(call + "(" + p.in(0) + ", dim=" + std::to_string(p.attrInt("axis", -1)) + ")"); });
}

void registerMath(convert::HandlerRegistry& r) {
  struct U {
    const char* op;
    int64_t since;
    const char* call;
  };
  for (const U& u : {U{"Abs", 1, "T.abs"},
                     U{"Neg", 1, "T.neg"},
                     U{"Exp", 1, "T.exp"},
                     U{"Log", 1, "T.log"},
                     U{"Sqrt", 1, "T.sqrt"},
                     U{"Reciprocal", 1, "T.reciprocal"},
                     U{"Floor", 1, "T.floor"},
                     U{"Ceil", 1, "T.ceil"},
                     U{"Sin", 7, "T.sin"},
                     U{"Cos", 7, "T.cos"},
                     U{"Tan", 7, "T.tan"},
                     U{"Asin", 7, "T.asin"},
                     U{"Acos", 7, "T.acos"},
                     U{"Atan", 7, "T.atan"},
                     U{"Sinh", 9, "T.sinh"},
                     U{"Cosh", 9, "T.cosh"},
                     U{"Asinh", 9, "T.asinh"},
                     U{"Acosh", 9, "T.acosh"},
                     U{"Atanh", 9, "T.atanh"},
                     U{"Tanh", 1, "T.tanh"},
                     U{"Sigmoid", 1, "T.sigmoid"},
                     U{"Erf", 9, "T.erf"},
                     U{"Sign", 9, "T.sign"},
                     U{"Round", 11, "T.round"},
                     U{"Not", 1, "T.logical_not"},
                     U{"IsNaN", 9, "T.isnan"},
                     U{"Relu", 1, "F.relu"},
                     U{"Softsign", 1, "F.softsign"},
                     U{"Softplus", 1, "F.softplus"},
                     U{"Mish", 18, "F.mish"},
                     U{"HardSwish", 14, "F.hardswish"}})
    unary(r, u.op, u.since, u.call);

  binaryOperator(r, "Add", 1, "+");
  binaryOperator(r, "Sub", 1, "-");
  binaryOperator(r, "Mul", 1, "*");
  add(r, "Div", 1, "a / b (integers: truncated)", [](PyNode& p) {
    if (p.hasAttr("axis")) p.unsupported("legacy broadcast axis attribute (opset < 7)");
    if (isInteger(p.dtype(0))) {
      // ONNX integer division truncates toward zero, like C; Python's // floors.
      std::string a = p.in(0), b = p.in(1);
      if (p.oneflow())  // trunc(a / b) = sign(a) * sign(b) * (|a| // |b|), in integers throughout
        return p.assign("T.floor_divide(T.abs(" + a + "), T.abs(" + b + ")) * T.sign(" + a + ") * T.sign(" + b + ")");
      return p.assign("T.div(" + a + ", " + b + ", rounding_mode='trunc')");
    }
    p.assign(p.operand(0, 1) + " / " + p.operand(1, 0));
  });
  add(r, "Pow", 1, "T.pow(a, b) in the base's type", [](PyNode& p) {
    std::string a = p.in(0);
    std::string b = p.operand(1, 0);
    std::string e = "T.pow(" + a + ", " + b + ")";
    // PyTorch promotes int ** float to float; ONNX keeps the base's type.
    if (p.dtype(0) != p.dtype(1) && p.dtype(1) != ir::DataType::Undefined) e += ".to(" + a + ".dtype)";
    p.assign(e);
  });
  add(r, "Mod", 10, "T.fmod (fmod=1) or T.remainder (Python-style, the divisor's sign)", [](PyNode& p) {
    std::string a = p.in(0), b = p.in(1);
    if (p.attrInt("fmod", 0) == 1) return p.assign("T.fmod(" + a + ", " + b + ")");
    if (!p.oneflow()) return p.assign("T.remainder(" + a + ", " + b + ")");
    // OneFlow has no remainder, and its integer floor_divide truncates: move fmod's result to the divisor's sign.
    std::string rem = p.temp("rem");
    p.line(rem + " = T.fmod(" + a + ", " + b + ")");
    p.assign("T.where((" + rem + " != 0) & ((" + rem + " < 0) != (" + b + " < 0)), " + rem + " + " + b + ", " + rem +
             ")");
  });
  add(r, "BitShift", 11, "a << b / a >> b", [](PyNode& p) {
    if (p.oneflow()) p.unsupported("BitShift: OneFlow has no shift operators");
    std::string dir = p.attrString("direction", "");
    if (dir != "LEFT" && dir != "RIGHT") p.unsupported("BitShift direction '" + dir + "'");
    p.assign(p.in(0) + (dir == "LEFT" ? " << " : " >> ") + p.in(1));
  });
  for (auto [op, call] :
       {std::pair{"BitwiseAnd", "T.bitwise_and"}, {"BitwiseOr", "T.bitwise_or"}, {"BitwiseXor", "T.bitwise_xor"}}) {
    std::string c = call, o = op;
    add(r, op, 18, c + "(a, b)", [c, o](PyNode& p) {
      if (p.oneflow()) p.unsupported(o + ": OneFlow 0.8 has no bitwise operations");
      p.assign(c + "(" + p.in(0) + ", " + p.in(1) + ")");
    });
  }
  add(r, "BitwiseNot", 18, "T.bitwise_not(x)", [](PyNode& p) {
    if (p.oneflow()) p.unsupported("BitwiseNot: OneFlow 0.8 has no bitwise operations");
    p.assign("T.bitwise_not(" + p.in(0) + ")");
  });
  add(r, "Det", 11, "T.linalg.det(x)", [](PyNode& p) {
    if (p.oneflow()) p.unsupported("Det: OneFlow 0.8 has no det");
    p.assign("T.linalg.det(" + p.in(0) + ")");
  });

  for (auto [op, call] : {std::pair{"Equal", "T.eq"},
                          {"Greater", "T.gt"},
                          {"Less", "T.lt"},
                          {"GreaterOrEqual", "T.ge"},
                          {"LessOrEqual", "T.le"},
                          {"And", "T.logical_and"},
                          {"Or", "T.logical_or"},
                          {"Xor", "T.logical_xor"}})
    binaryCall(r, op, 1, call);
  add(r, "Max", 1, "T.maximum(a, b, ...)", [](PyNode& p) { p.assign(chain(p, "T.maximum")); });
  add(r, "Min", 1, "T.minimum(a, b, ...)", [](PyNode& p) { p.assign(chain(p, "T.minimum")); });
  add(r, "Sum", 1, "a + b + ...", [](PyNode& p) {
    std::string e = p.in(0);
    for (size_t i = 1; i < p.inputCount(); ++i) e += " + " + p.in(i);
    p.assign(p.inputCount() == 1 ? e + ".clone()" : e);
  });
  add(r, "Mean", 1, "(a + b + ...) / n", [](PyNode& p) {
    std::string e = p.in(0);
    for (size_t i = 1; i < p.inputCount(); ++i) e += " + " + p.in(i);
    p.assign(p.inputCount() == 1 ? e + ".clone()" : "(" + e + ") / " + std::to_string(p.inputCount()));
  });
  add(r, "Where", 9, "T.where(c, a, b)",
      [](PyNode& p) { p.assign("T.where(" + p.in(0) + ", " + p.in(1) + ", " + p.in(2) + ")"); });
  HelperLibrary::instance().add(
      Helper{"_onnx_expand",
             "def _onnx_expand(x, shape):\n"
             "    # type: (Tensor, List[int]) -> Tensor\n"
             "    # ONNX Expand broadcasts both ways: a 1 in `shape` keeps x's dim, and `shape` may be shorter.\n"
             "    shape = [1] * (x.dim() - len(shape)) + shape\n"
             "    dims = [1] * (len(shape) - x.dim()) + list(x.shape)\n"
             "    return x.expand([d if s == 1 else s for d, s in zip(dims, shape)])\n",
             {}});
  add(r, "Expand", 8, "x.expand(shape) with -1 where shape has 1", [](PyNode& p) {
    std::string x = p.in(0);
    auto shape = p.constInts(1);
    auto rank = p.rank(0);
    if (!shape || !rank) return p.assign(p.helper("_onnx_expand") + "(" + x + ", " + p.intList(1) + ")");
    // A 1 over one of x's dims keeps that dim (-1 to expand); a shape shorter than x's rank is padded in front.
    std::vector<int64_t> s = *shape;
    while (static_cast<int64_t>(s.size()) < *rank) s.insert(s.begin(), -1);
    const size_t lead = s.size() - static_cast<size_t>(*rank);
    bool changes = false;
    for (size_t i = 0; i < s.size(); ++i) {
      if (i >= lead && s[i] == 1) s[i] = -1;
      changes = changes || s[i] != -1;
    }
    if (!changes) return p.alias(0, x);
    std::string args;
    for (size_t i = 0; i < s.size(); ++i) args += (i ? ", " : "") + std::to_string(s[i]);
    p.assign(x + ".expand(" + args + ")");
  });
  add(r, "IsInf", 10, "T.isinf with sign selection", [](PyNode& p) {
    std::string x = p.in(0);
    bool pos = p.attrInt("detect_positive", 1) != 0, neg = p.attrInt("detect_negative", 1) != 0;
    if (pos && neg) return p.assign("T.isinf(" + x + ")");
    if (pos) return p.assign("T.isinf(" + x + ") & (" + x + " > 0)");
    if (neg) return p.assign("T.isinf(" + x + ") & (" + x + " < 0)");
    // OneFlow 0.8's zeros_like takes the tensor alone (oneflow_signatures.inc).
    p.assign("T.zeros_like(" + x + (p.oneflow() ? ").to(T.bool)" : ", dtype=T.bool)"));
  });
}

void registerActivations(convert::HandlerRegistry& r) {
  add(r, "LeakyRelu", 1, "F.leaky_relu(x, alpha)", [](PyNode& p) {
    p.assign("F.leaky_relu(" + p.in(0) + ", " + pyFloat(p.attrFloat("alpha", 0.01f), ir::DataType::Float) + ")");
  });
  add(r, "Elu", 1, "F.elu(x, alpha)", [](PyNode& p) {
    p.assign("F.elu(" + p.in(0) + ", " + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) + ")");
  });
  add(r, "Celu", 12, "F.celu(x, alpha=alpha)", [](PyNode& p) {
    p.assign("F.celu(" + p.in(0) + ", alpha=" + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) + ")");
  });
  add(r, "Selu", 1, "F.selu (default constants) or its formula", [](PyNode& p) {
    const float alpha = p.attrFloat("alpha", 1.67326319217681884765625f),
                gamma = p.attrFloat("gamma", 1.05070102214813232421875f);
    std::string x = p.in(0);
    if (alpha == 1.67326319217681884765625f && gamma == 1.05070102214813232421875f)
      return p.assign("F.selu(" + x + ")");
    p.assign(pyFloat(gamma, ir::DataType::Float) + " * T.where(" + x + " > 0, " + x + ", " +
             pyFloat(alpha, ir::DataType::Float) + " * (T.exp(" + x + ") - 1))");
  });
  add(r, "HardSigmoid", 1, "clamp(alpha * x + beta, 0, 1)", [](PyNode& p) {
    const float alpha = p.attrFloat("alpha", 0.2f), beta = p.attrFloat("beta", 0.5f);
    std::string x = p.in(0);
    p.assign("T.clamp(" + x + " * " + pyFloat(alpha, ir::DataType::Float) + " + " + pyFloat(beta, ir::DataType::Float) +
             ", 0.0, 1.0)");
  });
  add(r, "ThresholdedRelu", 10, "F.threshold(x, threshold=alpha, value=0)", [](PyNode& p) {
    p.assign("F.threshold(" + p.in(0) + ", threshold=" + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) +
             ", value=0.0)");
  });
  add(r, "Shrink", 9, "where(x < -lambd, x + bias, where(x > lambd, x - bias, 0))", [](PyNode& p) {
    std::string x = p.in(0);
    std::string l = pyFloat(p.attrFloat("lambd", 0.5f), ir::DataType::Float),
                b = pyFloat(p.attrFloat("bias", 0.f), ir::DataType::Float);
    p.assign("T.where(" + x + " < -" + l + ", " + x + " + " + b + ", T.where(" + x + " > " + l + ", " + x + " - " + b +
             ", T.zeros_like(" + x + ")))");
  });
  add(r, "PRelu", 1, "where(x < 0, x * slope, x)", [](PyNode& p) {
    std::string x = p.in(0);
    p.assign("T.where(" + x + " < 0, " + x + " * " + p.in(1) + ", " + x + ")");
  });
  add(r, "Gelu", 20, "F.gelu (approximate 'none' or 'tanh')", [](PyNode& p) {
    std::string x = p.in(0);
    std::string approx = p.attrString("approximate", "none");
    if (approx == "none") return p.assign("F.gelu(" + x + ")");
    if (approx != "tanh") p.unsupported("Gelu approximate='" + approx + "'");
    if (!p.oneflow()) return p.assign("F.gelu(" + x + ", approximate='tanh')");
    p.assign("0.5 * " + x + " * (1.0 + T.tanh(0.7978845608028654 * (" + x + " + 0.044715 * " + x + " * " + x + " * " +
             x + ")))");
  });
  softmaxLike(r, "Softmax", "F.softmax");
  softmaxLike(r, "LogSoftmax", "F.log_softmax");
  // Hardmax: 1 at the first maximum along the axis, 0 elsewhere, in x's type.
  add(r, "Hardmax", 1, "one_hot(argmax) over the flattened trailing dims", [](PyNode& p) {
    std::string x = p.in(0);
    const int64_t axis = p.attrInt("axis", 1);
    auto rank = p.rank(0);
    if (rank && (axis == *rank - 1 || axis == -1))
      return p.assign("F.one_hot(" + x + ".argmax(dim=-1), " + x + ".shape[-1]).to(" + x + ".dtype)");
    // Before opset 13 the input is seen as 2-D [d0*...*d(axis-1), d(axis)*...].
    std::string flat = p.temp("flat");
    p.line(flat + " = " + x + ".flatten(" + std::to_string(axis) + ")");
    p.assign("F.one_hot(" + flat + ".argmax(dim=-1), " + flat + ".shape[-1]).reshape(" + x + ".shape).to(" + x +
             ".dtype)");
  });
  add(r, "Hardmax", 13, "one_hot(argmax) along the axis", [](PyNode& p) {
    std::string x = p.in(0);
    const int64_t axis = p.attrInt("axis", -1);
    std::string a = std::to_string(axis);
    std::string oneHot = "F.one_hot(" + x + ".argmax(dim=" + a + "), " + x + ".shape[" + a + "])";
    auto rank = p.rank(0);
    if (!(axis == -1 || (rank && axis == *rank - 1)))
      oneHot = "T.movedim(" + oneHot + ", -1, " + a + ")";  // one_hot appends the class dim
    p.assign(oneHot + ".to(" + x + ".dtype)");
  });
}

// The cast's input is known to have the target type already (both types from the model or shape inference).
bool restatesType(ir::DataType from, ir::DataType to) { return from != ir::DataType::Undefined && from == to; }

void registerCasts(convert::HandlerRegistry& r) {
  add(r, "Identity", 1, "the input itself (no statement)", [](PyNode& p) {
    // An Identity of a weight is that layer's own parameter, created where it is used.
    if (!p.constant(0)) p.alias(0, p.in(0));
  });
  add(r, "Cast", 1, "x.to(dtype)", [](PyNode& p) {
    const ir::Attribute* to = p.attr("to");
    if (!to) p.unsupported("Cast without 'to'");
    ir::DataType t = to->type == ir::AttrType::String ? ir::dataTypeFromName(to->s).value_or(ir::DataType::Undefined)
                                                      : static_cast<ir::DataType>(to->i);
    if (p.dtype(0) == ir::DataType::String) p.unsupported("Cast from string");
    const std::string target = p.dtypeExpr(t);
    // A cast to the type the value already has changes nothing: no statement, so that the module's floating type
    // (.double(), .half()) flows through instead of being pinned to float32. Casts that change values stay.
    if (restatesType(p.dtype(0), t)) return noStatement(p, p.in(0), "the value already has this type");
    p.assign(p.in(0) + ".to(" + target + ")");
  });
  add(r, "CastLike", 15, "x.to(like.dtype)", [](PyNode& p) {
    // As Cast: the target type must exist in the flavour (dtypeExpr refuses those that do not).
    if (p.dtype(1) != ir::DataType::Undefined) p.dtypeExpr(p.dtype(1));
    if (restatesType(p.dtype(0), p.dtype(1))) return noStatement(p, p.in(0), "the value already has this type");
    p.assign(p.in(0) + ".to(" + p.in(1) + ".dtype)");
  });
  add(r, "Clip", 1, "T.clamp(x, min, max)", [](PyNode& p) {
    std::string x = p.in(0);
    std::string lo, hi;
    bool tensorBounds = false;
    if (p.opset < 11) {
      lo = p.hasAttr("min") ? pyFloat(p.attrFloat("min", 0), ir::DataType::Float) : "";
      hi = p.hasAttr("max") ? pyFloat(p.attrFloat("max", 0), ir::DataType::Float) : "";
    } else {
      auto bound = [&](size_t i) -> std::string {
        if (!p.has(i)) return "";
        if (auto lit = p.scalarLiteral(i)) return *lit;
        tensorBounds = true;
        return p.in(i);
      };
      lo = bound(1);
      hi = bound(2);
    }
    if (lo.empty() && hi.empty()) return p.alias(0, x);
    if (tensorBounds || p.oneflow()) {
      // OneFlow's clamp takes Python numbers only; maximum/minimum also take tensor bounds.
      std::string e = x;
      if (!lo.empty()) e = tensorBounds ? "T.maximum(" + e + ", " + lo + ")" : "T.clamp(" + e + ", min=" + lo + ")";
      if (!hi.empty()) e = tensorBounds ? "T.minimum(" + e + ", " + hi + ")" : "T.clamp(" + e + ", max=" + hi + ")";
      return p.assign(e);
    }
    p.assign("T.clamp(" + x + (lo.empty() ? "" : ", min=" + lo) + (hi.empty() ? "" : ", max=" + hi) + ")");
  });
  HelperLibrary::instance().add(
      Helper{"_onnx_dropout",
             "def _onnx_dropout(x, ratio, training):\n"
             "    # ONNX Dropout with its mask: in training, zero each element with probability `ratio` and\n"
             "    # scale the others by 1 / (1 - ratio); otherwise the input and a mask of ones.\n"
             "    if not training or ratio == 0:\n"
             "        return x, T.ones_like(x).to(T.bool)\n"  // OneFlow 0.8's ones_like takes no dtype
             "    mask = T.rand(x.shape) >= ratio\n"
             "    return x * mask.to(x.dtype) / (1.0 - ratio), mask\n",
             {}});
  add(r, "Dropout", 1, "identity in inference (mask of ones); F.dropout in training", [](PyNode& p) {
    // training_mode and ratio are inputs from opset 12, possibly computed at run time.
    std::string training = "False", ratio = "0.5";
    if (p.opset >= 12) {
      if (p.has(2)) {
        if (auto t = p.constInts(2))
          training = pyBool(!t->empty() && (*t)[0] != 0);
        else
          training = "bool(" + p.in(2) + ")";
      }
      if (p.has(1)) ratio = p.scalarLiteral(1).value_or("float(" + p.in(1) + ")");
    } else {
      ratio = pyFloat(p.attrFloat("ratio", 0.5f), ir::DataType::Float);
      if (p.opset < 7 && p.attrInt("is_test", 0) == 0) training = "True";
    }
    std::string x = p.in(0);
    // A mask nothing reads is not computed (an export names it all the same).
    const bool maskRead = p.outUsed(1) && isConsumed(p.node.output(1));
    if (training == "False" && ratio != "0.0" && !maskRead) {
      // The source model had dropout here and exported it in eval mode: the module drops in train() only.
      p.assign("F.dropout(" + x + ", p=" + ratio + ", training=self.training)");
      return;
    }
    if (training == "False" || ratio == "0.0") {
      p.alias(0, x);
      // The mask is bool from opset 10, the input's type before.
      if (maskRead)
        p.assignOut(1, "T.ones_like(" + x + (p.opset < 10 ? ")" : p.oneflow() ? ").to(T.bool)" : ", dtype=T.bool)"));
      return;
    }
    // The random draws are PyTorch's or OneFlow's own: the seed attribute cannot reproduce another runtime's.
    if (maskRead)
      return p.line(p.outTuple() + " = " + p.helper("_onnx_dropout") + "(" + x + ", " + ratio + ", " + training + ")");
    p.assign("F.dropout(" + x + ", p=" + ratio + ", training=" + training + ")");
  });
}

}  // namespace

void registerElementwiseCode(convert::HandlerRegistry& r) {
  registerMath(r);
  registerActivations(r);
  registerCasts(r);
}

}  // namespace fb::codegen
