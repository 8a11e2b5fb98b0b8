// Elementwise ops: math, comparisons, logic, activations, Cast. ONNX broadcasting is numpy's, as in
// PyTorch and OneFlow, so most ops are one call.
#include <cmath>

#include "codegen/handlers/handler_families.h"

namespace fb::codegen {
namespace {

bool isInteger(ir::DataType t) {
  switch (t) {
    case ir::DataType::Int8: case ir::DataType::Int16: case ir::DataType::Int32: case ir::DataType::Int64:
    case ir::DataType::UInt8: case ir::DataType::UInt16: case ir::DataType::UInt32: case ir::DataType::UInt64:
      return true;
    default:
      return false;
  }
}

void unary(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& call, bool oneflowHasIt = true) {
  addPy(r, op, since, call + "(x)", [call, oneflowHasIt, op](PyNode& p) {
    if (!oneflowHasIt && p.oneflow()) p.unsupported(op + ": OneFlow 0.8-1.0 have no " + call);
    p.assign(call + "(" + p.in(0) + ")");
  });
}

// a <op> b with Python operators where they mean the same as the ONNX op for every type.
void binaryOperator(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& sym) {
  addPy(r, op, since, "a " + sym + " b", [sym](PyNode& p) {
    if (p.attrInt("broadcast", 1) == 0 && p.opset < 7) p.unsupported("legacy broadcast attribute");
    if (p.hasAttr("axis")) p.unsupported("legacy broadcast axis attribute (opset < 7)");
    std::string a = p.operand(0, 1), b = p.operand(1, 0);
    if (a.find_first_not_of("-0123456789.e") == std::string::npos && b.find_first_not_of("-0123456789.e") == std::string::npos)
      b = p.in(1);  // two Python numbers would not make a tensor
    p.assign(a + " " + sym + " " + b);
  });
}

void binaryCall(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& call) {
  addPy(r, op, since, call + "(a, b)", [call](PyNode& p) { p.assign(call + "(" + p.in(0) + ", " + p.in(1) + ")"); });
}

std::string chain(PyNode& p, const std::string& call) {
  std::string e = p.in(0);
  for (size_t i = 1; i < p.inputCount(); ++i) e = call + "(" + e + ", " + p.in(i) + ")";
  return e;
}

void softmaxLike(convert::HandlerRegistry& r, const std::string& op, const std::string& call) {
  // Before opset 13 the input is seen as 2-D [d0*...*d(axis-1), d(axis)*...]: the op normalises over
  // every dim from `axis` on.
  addPy(r, op, 1, call + " over the flattened trailing dims", [call](PyNode& p) {
    int64_t axis = p.attrInt("axis", 1);
    auto rank = p.rank(0);
    if (rank && (axis == *rank - 1 || axis == -1)) return p.assign(call + "(" + p.in(0) + ", dim=-1)");
    std::string x = p.in(0);
    p.assign(call + "(" + x + ".flatten(" + std::to_string(axis) + "), dim=-1).reshape(" + x + ".shape)");
  });
  addPy(r, op, 13, call + "(x, dim=axis)", [call](PyNode& p) {
    p.assign(call + "(" + p.in(0) + ", dim=" + std::to_string(p.attrInt("axis", -1)) + ")");
  });
}

void registerMath(convert::HandlerRegistry& r) {
  struct U { const char* op; int64_t since; const char* call; };
  for (const U& u : {U{"Abs", 1, "T.abs"}, U{"Neg", 1, "T.neg"}, U{"Exp", 1, "T.exp"}, U{"Log", 1, "T.log"},
                     U{"Sqrt", 1, "T.sqrt"}, U{"Reciprocal", 1, "T.reciprocal"}, U{"Floor", 1, "T.floor"}, U{"Ceil", 1, "T.ceil"},
                     U{"Sin", 7, "T.sin"}, U{"Cos", 7, "T.cos"}, U{"Tan", 7, "T.tan"}, U{"Asin", 7, "T.asin"},
                     U{"Acos", 7, "T.acos"}, U{"Atan", 7, "T.atan"}, U{"Sinh", 9, "T.sinh"}, U{"Cosh", 9, "T.cosh"},
                     U{"Asinh", 9, "T.asinh"}, U{"Acosh", 9, "T.acosh"}, U{"Atanh", 9, "T.atanh"}, U{"Tanh", 1, "T.tanh"},
                     U{"Sigmoid", 1, "T.sigmoid"}, U{"Erf", 9, "T.erf"}, U{"Sign", 9, "T.sign"}, U{"Round", 11, "T.round"},
                     U{"Not", 1, "T.logical_not"}, U{"IsNaN", 9, "T.isnan"}, U{"Relu", 1, "F.relu"},
                     U{"Softsign", 1, "F.softsign"}, U{"Softplus", 1, "F.softplus"}, U{"Mish", 18, "F.mish"},
                     U{"HardSwish", 14, "F.hardswish"}})
    unary(r, u.op, u.since, u.call);

  binaryOperator(r, "Add", 1, "+");
  binaryOperator(r, "Sub", 1, "-");
  binaryOperator(r, "Mul", 1, "*");
  addPy(r, "Div", 1, "a / b (integers: truncated)", [](PyNode& p) {
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
  addPy(r, "Pow", 1, "T.pow(a, b) in the base's type", [](PyNode& p) {
    std::string a = p.in(0);
    std::string b = p.operand(1, 0);
    std::string e = "T.pow(" + a + ", " + b + ")";
    // PyTorch promotes int ** float to float; ONNX keeps the base's type.
    if (p.dtype(0) != p.dtype(1) && p.dtype(1) != ir::DataType::Undefined) e += ".to(" + a + ".dtype)";
    p.assign(e);
  });
  addPy(r, "Mod", 10, "T.fmod / Python-style remainder", [](PyNode& p) {
    std::string a = p.in(0), b = p.in(1);
    if (p.attrInt("fmod", 0) == 1) return p.assign("T.fmod(" + a + ", " + b + ")");
    // fmod=0: the result takes the divisor's sign (Python's %), which integer floor division gives.
    p.assign(a + " - T.floor_divide(" + a + ", " + b + ") * " + b);
  });

  for (auto [op, call] : {std::pair{"Equal", "T.eq"}, {"Greater", "T.gt"}, {"Less", "T.lt"}, {"GreaterOrEqual", "T.ge"},
                          {"LessOrEqual", "T.le"}, {"And", "T.logical_and"}, {"Or", "T.logical_or"}, {"Xor", "T.logical_xor"}})
    binaryCall(r, op, 1, call);
  addPy(r, "Max", 1, "T.maximum(a, b, ...)", [](PyNode& p) { p.assign(chain(p, "T.maximum")); });
  addPy(r, "Min", 1, "T.minimum(a, b, ...)", [](PyNode& p) { p.assign(chain(p, "T.minimum")); });
  addPy(r, "Sum", 1, "a + b + ...", [](PyNode& p) {
    std::string e = p.in(0);
    for (size_t i = 1; i < p.inputCount(); ++i) e += " + " + p.in(i);
    p.assign(p.inputCount() == 1 ? e + ".clone()" : e);
  });
  addPy(r, "Mean", 1, "(a + b + ...) / n", [](PyNode& p) {
    std::string e = p.in(0);
    for (size_t i = 1; i < p.inputCount(); ++i) e += " + " + p.in(i);
    p.assign(p.inputCount() == 1 ? e + ".clone()" : "(" + e + ") / " + std::to_string(p.inputCount()));
  });
  addPy(r, "Where", 9, "T.where(c, a, b)", [](PyNode& p) { p.assign("T.where(" + p.in(0) + ", " + p.in(1) + ", " + p.in(2) + ")"); });
  addPy(r, "IsInf", 10, "T.isinf with sign selection", [](PyNode& p) {
    std::string x = p.in(0);
    bool pos = p.attrInt("detect_positive", 1) != 0, neg = p.attrInt("detect_negative", 1) != 0;
    if (pos && neg) return p.assign("T.isinf(" + x + ")");
    if (pos) return p.assign("T.isinf(" + x + ") & (" + x + " > 0)");
    if (neg) return p.assign("T.isinf(" + x + ") & (" + x + " < 0)");
    p.assign("T.zeros_like(" + x + ", dtype=T.bool)");
  });
}

void registerActivations(convert::HandlerRegistry& r) {
  addPy(r, "LeakyRelu", 1, "F.leaky_relu(x, alpha)", [](PyNode& p) {
    p.assign("F.leaky_relu(" + p.in(0) + ", " + pyFloat(p.attrFloat("alpha", 0.01f), ir::DataType::Float) + ")");
  });
  addPy(r, "Elu", 1, "F.elu(x, alpha)", [](PyNode& p) {
    p.assign("F.elu(" + p.in(0) + ", " + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) + ")");
  });
  addPy(r, "Celu", 12, "F.celu(x, alpha=alpha)", [](PyNode& p) {
    p.assign("F.celu(" + p.in(0) + ", alpha=" + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) + ")");
  });
  addPy(r, "Selu", 1, "F.selu (default constants) or its formula", [](PyNode& p) {
    const float alpha = p.attrFloat("alpha", 1.67326319217681884765625f), gamma = p.attrFloat("gamma", 1.05070102214813232421875f);
    std::string x = p.in(0);
    if (alpha == 1.67326319217681884765625f && gamma == 1.05070102214813232421875f) return p.assign("F.selu(" + x + ")");
    p.assign(pyFloat(gamma, ir::DataType::Float) + " * T.where(" + x + " > 0, " + x + ", " + pyFloat(alpha, ir::DataType::Float) +
             " * (T.exp(" + x + ") - 1))");
  });
  addPy(r, "HardSigmoid", 1, "clamp(alpha * x + beta, 0, 1)", [](PyNode& p) {
    const float alpha = p.attrFloat("alpha", 0.2f), beta = p.attrFloat("beta", 0.5f);
    std::string x = p.in(0);
    p.assign("T.clamp(" + x + " * " + pyFloat(alpha, ir::DataType::Float) + " + " + pyFloat(beta, ir::DataType::Float) + ", 0.0, 1.0)");
  });
  addPy(r, "ThresholdedRelu", 10, "F.threshold(x, threshold=alpha, value=0)", [](PyNode& p) {
    p.assign("F.threshold(" + p.in(0) + ", threshold=" + pyFloat(p.attrFloat("alpha", 1.f), ir::DataType::Float) + ", value=0.0)");
  });
  addPy(r, "Shrink", 9, "where(x < -lambd, x + bias, where(x > lambd, x - bias, 0))", [](PyNode& p) {
    std::string x = p.in(0);
    std::string l = pyFloat(p.attrFloat("lambd", 0.5f), ir::DataType::Float), b = pyFloat(p.attrFloat("bias", 0.f), ir::DataType::Float);
    p.assign("T.where(" + x + " < -" + l + ", " + x + " + " + b + ", T.where(" + x + " > " + l + ", " + x + " - " + b +
             ", T.zeros_like(" + x + ")))");
  });
  addPy(r, "PRelu", 1, "where(x < 0, x * slope, x)", [](PyNode& p) {
    std::string x = p.in(0);
    p.assign("T.where(" + x + " < 0, " + x + " * " + p.in(1) + ", " + x + ")");
  });
  addPy(r, "Gelu", 20, "F.gelu (approximate 'none' or 'tanh')", [](PyNode& p) {
    std::string x = p.in(0);
    std::string approx = p.attrString("approximate", "none");
    if (approx == "none") return p.assign("F.gelu(" + x + ")");
    if (approx != "tanh") p.unsupported("Gelu approximate='" + approx + "'");
    if (!p.oneflow()) return p.assign("F.gelu(" + x + ", approximate='tanh')");
    p.assign("0.5 * " + x + " * (1.0 + T.tanh(0.7978845608028654 * (" + x + " + 0.044715 * " + x + " * " + x + " * " + x + ")))");
  });
  softmaxLike(r, "Softmax", "F.softmax");
  softmaxLike(r, "LogSoftmax", "F.log_softmax");
}

void registerCasts(convert::HandlerRegistry& r) {
  addPy(r, "Identity", 1, "the input itself (no statement)", [](PyNode& p) {
    // An Identity of a weight is that layer's own parameter, created where it is used.
    if (!p.constant(0)) p.alias(0, p.in(0));
  });
  addPy(r, "Cast", 1, "x.to(dtype)", [](PyNode& p) {
    const ir::Attribute* to = p.attr("to");
    if (!to) p.unsupported("Cast without 'to'");
    ir::DataType t = to->type == ir::AttrType::String ? ir::dataTypeFromName(to->s).value_or(ir::DataType::Undefined)
                                                      : static_cast<ir::DataType>(to->i);
    if (p.dtype(0) == ir::DataType::String) p.unsupported("Cast from string");
    p.assign(p.in(0) + ".to(" + p.dtypeExpr(t) + ")");
  });
  addPy(r, "CastLike", 15, "x.to(like.dtype)", [](PyNode& p) { p.assign(p.in(0) + ".to(" + p.in(1) + ".dtype)"); });
  addPy(r, "Clip", 1, "T.clamp(x, min, max)", [](PyNode& p) {
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
  addPy(r, "Dropout", 1, "identity in inference (mask of ones)", [](PyNode& p) {
    bool training = false;
    if (p.opset >= 12 && p.has(2)) {
      auto t = p.constInts(2);
      if (!t) p.unsupported("training_mode is computed at run time");
      training = !t->empty() && (*t)[0] != 0;
    }
    double ratio = 0.5;
    if (p.opset >= 12 && p.has(1)) {
      auto d = p.constDoubles(1);
      if (!d) p.unsupported("ratio is computed at run time");
      ratio = (*d)[0];
    } else if (p.opset < 12) {
      ratio = p.attrFloat("ratio", 0.5f);
      training = p.opset < 7 && p.attrInt("is_test", 0) == 0;
    }
    std::string x = p.in(0);
    if (training && ratio != 0) {
      if (p.outUsed(1)) p.unsupported("training-mode Dropout with its mask output");
      return p.assign("F.dropout(" + x + ", p=" + pyFloat(ratio) + ", training=True)");
    }
    p.alias(0, x);
    if (p.outUsed(1)) p.assignOut(1, "T.ones_like(" + x + ", dtype=T.bool)");
  });
}

}  // namespace

void registerElementwiseCode(convert::HandlerRegistry& r) {
  registerMath(r);
  registerActivations(r);
  registerCasts(r);
}

}  // namespace fb::codegen
