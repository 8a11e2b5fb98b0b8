// Unary math: each op in the element type the model gives it (float16/bfloat16 arrive as float and are rounded
// back once by the runner), integers exactly where the op allows them.
#include <cmath>

#include "eval/kernels/elementwise_parts.h"
#include "eval/runtime/half.h"

namespace fb::eval::elementwise {

namespace {

// An op defined on float types only: f(x) computed in T.
template <typename F>
KernelFn floatingUnary(F f) {
  return [f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& x = c.input(0);
    return {visitFloating(x.dtype(), [&]<typename T>() {
      return unaryMap<T, T>(
          x, x.dtype(), [&](T v) { return static_cast<T>(f(v)); }, c.threads());
    })};
  };
}

// An op defined on every numeric type: f(x) computed in T.
template <typename F>
KernelFn numericUnary(F f) {
  return [f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& x = c.input(0);
    return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
      return unaryMap<T, T>(
          x, x.dtype(), [&](T v) { return static_cast<T>(f(v)); }, c.threads());
    })};
  };
}

std::vector<Value> sign(const KernelContext& c) {
  const Tensor& x = c.input(0);
  return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    return unaryMap<T, T>(
        x, x.dtype(),
        [](T v) -> T {
          if constexpr (std::is_floating_point_v<T>)
            if (std::isnan(v)) return v;
          return static_cast<T>((T{0} < v) - (v < T{0}));
        },
        c.threads());
  })};
}

std::vector<Value> erf(const KernelContext& c) {
  const Tensor& x = c.input(0);
  return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    return unaryMap<T, T>(
        x, x.dtype(),
        [](T v) -> T {
          if constexpr (std::is_floating_point_v<T>)
            return std::erf(v);
          else  // erf of an integer rounds toward zero: -1, 0 or 1
            return saturatingFromDouble<T>(std::erf(static_cast<double>(v)));
        },
        c.threads());
  })};
}

// Elements of any floating type (float8 included, for IsInf/IsNaN-20) read as double.
template <typename F>
Tensor floatingPredicate(const Tensor& x, const std::string& op, F pred) {
  if (!ir::isFloatingPoint(x.dtype()) && !ir::isNarrowType(x.dtype())) unsupported(op + " of " + describe(x));
  Tensor r = Tensor::empty(ir::DataType::Bool, x.dims());
  bool* out = r.mutableData<bool>();
  const int64_t n = x.size();
  switch (x.dtype()) {
    case ir::DataType::Float:
      for (int64_t k = 0; k < n; ++k) out[k] = pred(static_cast<double>(x.data<float>()[k]));
      break;
    case ir::DataType::Double:
      for (int64_t k = 0; k < n; ++k) out[k] = pred(x.data<double>()[k]);
      break;
    case ir::DataType::Float16:
      for (int64_t k = 0; k < n; ++k) out[k] = pred(static_cast<double>(halfBitsToFloat(x.data<uint16_t>()[k])));
      break;
    case ir::DataType::BFloat16:
      for (int64_t k = 0; k < n; ++k) out[k] = pred(static_cast<double>(bfloat16BitsToFloat(x.data<uint16_t>()[k])));
      break;
    default:
      for (int64_t k = 0; k < n; ++k) out[k] = pred(x.doubleAt(k));
  }
  return r;
}

std::vector<Value> isNaN(const KernelContext& c) {
  return {floatingPredicate(c.input(0), "IsNaN", [](double v) { return std::isnan(v); })};
}

std::vector<Value> isInf(const KernelContext& c) {
  const bool negative = c.node.attrInt("detect_negative", 1) != 0;
  const bool positive = c.node.attrInt("detect_positive", 1) != 0;
  return {floatingPredicate(c.input(0), "IsInf",
                            [&](double v) { return std::isinf(v) && ((v > 0 && positive) || (v < 0 && negative)); })};
}

}  // namespace

void registerMathKernels(KernelRegistry& r) {
  r.add("Abs", 1, numericUnary([]<typename T>(T v) -> T {
          if constexpr (std::is_floating_point_v<T>)
            return std::fabs(v);
          else if constexpr (std::is_signed_v<T>)
            return v < 0 ? wrappingNeg(v) : v;  // |INT_MIN| wraps to itself
          else
            return v;
        }));
  r.add("Neg", 1, numericUnary([]<typename T>(T v) -> T { return wrappingNeg(v); }));
  r.add("Sign", 9, sign);
  r.add("Erf", 9, erf);
  r.add("Reciprocal", 1, floatingUnary([]<typename T>(T v) { return T{1} / v; }));
  r.add("Sqrt", 1, floatingUnary([]<typename T>(T v) { return std::sqrt(v); }));
  r.add("Exp", 1, floatingUnary([]<typename T>(T v) { return std::exp(v); }));
  r.add("Log", 1, floatingUnary([]<typename T>(T v) { return std::log(v); }));
  r.add("Ceil", 1, floatingUnary([]<typename T>(T v) { return std::ceil(v); }));
  r.add("Floor", 1, floatingUnary([]<typename T>(T v) { return std::floor(v); }));
  // Halves round to even (the default floating-point rounding mode).
  r.add("Round", 11, floatingUnary([]<typename T>(T v) { return std::nearbyint(v); }));
  r.add("Sin", 7, floatingUnary([]<typename T>(T v) { return std::sin(v); }));
  r.add("Cos", 7, floatingUnary([]<typename T>(T v) { return std::cos(v); }));
  r.add("Tan", 7, floatingUnary([]<typename T>(T v) { return std::tan(v); }));
  r.add("Asin", 7, floatingUnary([]<typename T>(T v) { return std::asin(v); }));
  r.add("Acos", 7, floatingUnary([]<typename T>(T v) { return std::acos(v); }));
  r.add("Atan", 7, floatingUnary([]<typename T>(T v) { return std::atan(v); }));
  r.add("Sinh", 9, floatingUnary([]<typename T>(T v) { return std::sinh(v); }));
  r.add("Cosh", 9, floatingUnary([]<typename T>(T v) { return std::cosh(v); }));
  r.add("Tanh", 1, floatingUnary([]<typename T>(T v) { return std::tanh(v); }));
  r.add("Asinh", 9, floatingUnary([]<typename T>(T v) { return std::asinh(v); }));
  r.add("Acosh", 9, floatingUnary([]<typename T>(T v) { return std::acosh(v); }));
  r.add("Atanh", 9, floatingUnary([]<typename T>(T v) { return std::atanh(v); }));
  r.add("IsNaN", 9, isNaN, HalfTypes::AsIs);
  r.add("IsInf", 10, isInf, HalfTypes::AsIs);
}

}  // namespace fb::eval::elementwise
