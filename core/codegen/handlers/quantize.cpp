// Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and the integer / quantized-linear
// convolutions and matrix products. Integer arithmetic runs on float64 tensors, which hold every product and sum of
// 8-bit values exactly (and both libraries have float64 kernels where integer ones are missing); rounding is half
// to even (T.round) and results saturate to the output type's range before the cast back.
#include <limits>

#include "codegen/handlers/convolution.h"
#include "codegen/handlers/handler_families.h"

namespace fb::codegen {
namespace {

std::string arg(PyNode& p, size_t i, bool trainable = false) {
  return p.constant(i) ? p.weight(i, trainable) : p.in(i);
}

// The saturation range of an integer output type.
std::pair<std::string, std::string> range(PyNode& p, ir::DataType t) {
  switch (t) {
    case ir::DataType::UInt8:
      return {"0", "255"};
    case ir::DataType::Int8:
      return {"-128", "127"};
    case ir::DataType::Int16:
      return {"-32768", "32767"};
    case ir::DataType::UInt16:
      return {"0", "65535"};
    case ir::DataType::Int32:
      return {"-2147483648", "2147483647"};
    default:
      p.unsupported("quantization to " + std::string(ir::dataTypeName(t)));
  }
}

// A per-axis scale / zero point (1-D) reshaped to broadcast along `axis` of input 0; scalars stay as they are.
std::string alongAxis(PyNode& p, size_t i, const std::string& expr, int64_t axis) {
  auto r = p.rank(i);
  if (r && *r == 0) return expr;
  const ir::Tensor* c = p.constant(i);
  if (c && c->numElements() == 1) return expr;
  std::string x = p.in(0);
  if (auto rank = p.rank(0)) {
    if (axis < 0) axis += *rank;
    std::vector<int64_t> s(static_cast<size_t>(*rank), 1);
    if (axis < 0 || axis >= *rank) p.unsupported("axis out of range");
    s[static_cast<size_t>(axis)] = -1;
    return expr + ".reshape(" + pyIntTuple(s) + ")";
  }
  return expr + ".reshape([-1 if d == " + std::to_string(axis) + " % " + x + ".dim() else 1 for d in range(" + x +
         ".dim())])";
}

// An optional zero point as a float64 operand ("" when absent: zero).
std::string zeroPoint(PyNode& p, size_t i) { return p.has(i) ? arg(p, i) + ".double()" : ""; }

std::string minus(const std::string& a, const std::string& zp) { return zp.empty() ? a : "(" + a + " - " + zp + ")"; }

// round half to even, add the zero point, saturate, cast.
std::string requantize(PyNode& p, const std::string& value, const std::string& zp, ir::DataType t) {
  auto [lo, hi] = range(p, t);
  std::string e = "T.round(" + value + ")";
  if (!zp.empty()) e += " + " + zp;
  return "T.clamp(" + e + ", " + lo + ", " + hi + ").to(" + p.dtypeExpr(t) + ")";
}

void checkBlock(PyNode& p) {
  if (p.opset >= 21 && p.attrInt("block_size", 0) != 0) p.unsupported("blocked quantization (block_size)");
}

}  // namespace

void registerQuantizeCode(convert::HandlerRegistry& r) {
  addPy(r, "QuantizeLinear", 10, "round(x / scale) + zero_point, saturated", [](PyNode& p) {
    checkBlock(p);
    const ir::DataType t = p.has(2) ? p.dtype(2) : ir::DataType::UInt8;
    const int64_t axis = p.opset >= 13 ? p.attrInt("axis", 1) : 1;
    std::string x = p.in(0);
    std::string scale = alongAxis(p, 1, arg(p, 1), axis);
    std::string zp = p.has(2) ? alongAxis(p, 2, arg(p, 2), axis) : "";
    // x / scale in x's type (as ONNX divides), then rounded and shifted in float64.
    std::string q = "(" + x + " / " + scale + ").double()";
    p.assign(requantize(p, q, zp.empty() ? "" : zp + ".double()", t));
  });
  addPy(r, "DequantizeLinear", 10, "(x - zero_point) * scale", [](PyNode& p) {
    checkBlock(p);
    const int64_t axis = p.opset >= 13 ? p.attrInt("axis", 1) : 1;
    std::string x = p.in(0);
    std::string scale = alongAxis(p, 1, arg(p, 1), axis);
    std::string zp = p.has(2) ? alongAxis(p, 2, arg(p, 2), axis) : "";
    const ir::DataType st = p.dtype(1);
    std::string ft = p.dtypeExpr(st == ir::DataType::Undefined ? ir::DataType::Float : st);
    // The difference is taken in integers wide enough for it (int32 inputs: float64), then scaled in the scale's type.
    std::string diff = zp.empty() ? x + ".double()" : "(" + x + ".double() - " + zp + ".double())";
    p.assign(diff + ".to(" + ft + ") * " + scale);
  });
  addPy(r, "DynamicQuantizeLinear", 11, "uint8 quantization with the scale and zero point of x's range (including 0)",
        [](PyNode& p) {
          std::string x = p.in(0);
          std::string lo = p.temp("x_min"), hi = p.temp("x_max");
          p.line(lo + " = T.clamp(" + x + ".min(), max=0.0)");
          p.line(hi + " = T.clamp(" + x + ".max(), min=0.0)");
          std::string scale = p.outUsed(1) ? p.out(1) : p.temp("y_scale");
          p.line(scale + " = (" + hi + " - " + lo + ") / 255");
          std::string zp = p.temp("zero_point");
          p.line(zp + " = T.clamp(T.round((0 - " + lo + ") / " + scale + "), 0, 255)");
          p.assign(requantize(p, x + " / " + scale, zp, ir::DataType::UInt8));
          if (p.outUsed(2)) p.assignOut(2, zp + ".to(T.uint8)");
        });
  addPy(r, "MatMulInteger", 10, "(A - a_zero_point) @ (B - b_zero_point) as int32", [](PyNode& p) {
    std::string a =
        minus(p.in(0) + ".double()",
              p.has(2) ? (p.rank(2) && *p.rank(2) == 1 ? zeroPoint(p, 2) + ".reshape(-1, 1)" : zeroPoint(p, 2)) : "");
    std::string b = minus(arg(p, 1) + ".double()", zeroPoint(p, 3));
    p.assign("T.matmul(" + a + ", " + b + ").to(T.int32)");
  });
  addPy(r, "QLinearMatMul", 10, "integer product rescaled by a_scale * b_scale / y_scale, rounded, saturated",
        [](PyNode& p) {
          const ir::DataType t = p.has(7) ? p.dtype(7) : p.dtype(0);
          std::string a = minus(p.in(0) + ".double()", zeroPoint(p, 2));
          std::string b = minus(arg(p, 3) + ".double()", zeroPoint(p, 5));
          std::string factor = "(" + arg(p, 1) + " * " + arg(p, 4) + " / " + arg(p, 6) + ").double()";
          p.assign(requantize(p, "T.matmul(" + a + ", " + b + ") * " + factor, zeroPoint(p, 7), t));
        });
  addPy(r, "ConvInteger", 10, "convolution of (x - x_zero_point) and (w - w_zero_point) as int32", [](PyNode& p) {
    std::string x = minus(p.in(0) + ".double()", zeroPoint(p, 2));
    // w_zero_point is a scalar or one value per output channel.
    std::string wzp = zeroPoint(p, 3);
    if (!wzp.empty() && !(p.rank(3) && *p.rank(3) == 0))
      wzp += ".reshape((-1,) + (1,) * (" + arg(p, 1) + ".dim() - 1))";
    std::string w = minus(arg(p, 1) + ".double()", wzp);
    p.assign(convExpression(p, x, 1, w, "") + ".to(T.int32)");
  });
  addPy(r, "QLinearConv", 10,
        "integer convolution (+ int32 bias) rescaled by x_scale * w_scale / y_scale, rounded, saturated",
        [](PyNode& p) {
          const ir::DataType t = p.has(7) ? p.dtype(7) : p.dtype(0);
          std::string w = arg(p, 3);
          std::string perChannel = ".reshape((-1,) + (1,) * (" + w + ".dim() - 2))";
          std::string x = minus(p.in(0) + ".double()", zeroPoint(p, 2));
          std::string wzp =
              p.has(5) ? zeroPoint(p, 5) +
                             (p.rank(5) && *p.rank(5) == 0 ? "" : ".reshape((-1,) + (1,) * (" + w + ".dim() - 1))")
                       : "";
          std::string conv =
              convExpression(p, x, 3, minus(w + ".double()", wzp), p.has(8) ? arg(p, 8) + ".double()" : "");
          std::string wscale = arg(p, 4) + (p.rank(4) && *p.rank(4) == 0 ? "" : perChannel);
          std::string factor = "(" + arg(p, 1) + " * " + wscale + " / " + arg(p, 6) + ").double()";
          p.assign(requantize(p, conv + " * " + factor, zeroPoint(p, 7), t));
        });
}

}  // namespace fb::codegen
