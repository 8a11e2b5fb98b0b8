// Arithmetic over broadcast operands: Add, Sub, Mul, Div, Mod, Pow and the variadic Max, Min, Sum, Mean. Integers
// are computed exactly in their own type (int64 never through double) and wrap on overflow as two's complement;
// an integer division by zero is a BadInput, never a trap.
#include <cmath>

#include "eval/kernels/elementwise_parts.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval::elementwise {

namespace {

// A binary op whose operands and result share one numeric type; `legacy` selects the broadcasting of opsets 1-6.
template <typename F>
KernelFn sameTypeBinary(std::string op, bool legacy, F f) {
  return [op, legacy, f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& a = c.input(0);
    const Tensor b = legacy ? legacyBroadcastOperand(c, a, c.input(1)) : c.input(1);
    requireSameType(op, {&a, &b});
    return {visitArithmetic(a.dtype(), c.node.opType, [&]<typename T>() {
      return binaryBroadcast<T, T, T>(
          a, b, a.dtype(), [&](T x, T y) { return f(x, y); }, c.threads());
    })};
  };
}

template <typename T>
T divide(T x, T y) {
  if constexpr (kIsInteger<T>) {
    if (y == 0) badInput("integer division by zero");
    if constexpr (std::is_signed_v<T>)
      if (y == -1) return wrappingNeg(x);  // INT_MIN / -1 would trap
    return static_cast<T>(x / y);
  } else {
    return x / y;
  }
}

// Remainder with the sign of the divisor (Python's %), for integers when fmod=0.
template <typename T>
T flooredRemainder(T x, T y) {
  if (y == 0) badInput("integer modulo by zero");
  if constexpr (std::is_signed_v<T>) {
    if (y == -1) return T{0};
    T r = static_cast<T>(x % y);
    if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
    return r;
  } else {
    return static_cast<T>(x % y);
  }
}

// Remainder with the sign of the dividend (C's fmod), for fmod=1.
template <typename T>
T truncatedRemainder(T x, T y) {
  if constexpr (kIsInteger<T>) {
    if (y == 0) badInput("integer modulo by zero");
    if constexpr (std::is_signed_v<T>)
      if (y == -1) return T{0};
    return static_cast<T>(x % y);
  } else {
    return std::fmod(x, y);
  }
}

std::vector<Value> mod(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  requireSameType("Mod", {&a, &b});
  const bool fmod = c.node.attrInt("fmod", 0) != 0;
  return {visitArithmetic(a.dtype(), c.node.opType, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      if (!fmod) badInput("Mod of " + describe(a) + " needs fmod=1 (floating-point inputs)");
      return binaryBroadcast<T, T, T>(
          a, b, a.dtype(), [](T x, T y) { return truncatedRemainder(x, y); }, c.threads());
    } else if (fmod) {
      return binaryBroadcast<T, T, T>(
          a, b, a.dtype(), [](T x, T y) { return truncatedRemainder(x, y); }, c.threads());
    } else {
      return binaryBroadcast<T, T, T>(
          a, b, a.dtype(), [](T x, T y) { return flooredRemainder(x, y); }, c.threads());
    }
  })};
}

// x^n for integers by repeated squaring, wrapping like the type's multiplication; negative n truncates 1/x^|n|.
template <typename T, typename E>
T integerPower(T x, E n) {
  if (n < 0) {
    if (x == 1) return T{1};
    if constexpr (std::is_signed_v<T>)
      if (x == -1) return (n % 2 == 0) ? T{1} : static_cast<T>(-1);
    if (x == 0) badInput("0 raised to a negative integer power");
    return T{0};
  }
  T result{1};
  auto e = static_cast<std::make_unsigned_t<E>>(n);
  while (e) {
    if (e & 1u) result = wrappingMul(result, x);
    e >>= 1;
    if (e) x = wrappingMul(x, x);
  }
  return result;
}

// Pow: base T and exponent T1 may differ (opset 12+); the result has the base's type. Half types are widened
// here (the kernel is AsIs) because the exponent's type must not decide the result's.
std::vector<Value> powImpl(const KernelContext& c, bool legacy) {
  const Tensor& a0 = c.input(0);
  const Tensor b0 = legacy ? legacyBroadcastOperand(c, a0, c.input(1)) : c.input(1);
  const Tensor a = isHalfType(a0.dtype()) ? castTensor(a0, ir::DataType::Float) : a0;
  const Tensor b = isHalfType(b0.dtype()) ? castTensor(b0, ir::DataType::Float) : b0;
  if (b.dtype() == ir::DataType::Bool) unsupported("Pow with a bool exponent");
  Tensor r = visitArithmetic(a.dtype(), c.node.opType, [&]<typename T>() -> Tensor {
    return visitNumeric(b.dtype(), [&]<typename E>() -> Tensor {
      if constexpr (std::is_same_v<E, bool>)
        unsupported("Pow with a bool exponent");
      else
        return binaryBroadcast<T, E, T>(
            a, b, a.dtype(),
            [](T x, E y) -> T {
              if constexpr (std::is_floating_point_v<T>) {
                return std::pow(x, static_cast<T>(y));
              } else if constexpr (std::is_floating_point_v<E>) {
                return saturatingFromDouble<T>(std::pow(static_cast<double>(x), static_cast<double>(y)));
              } else {
                return integerPower(x, y);
              }
            },
            c.threads());
    });
  });
  if (a0.dtype() != a.dtype()) return {castTensor(r, a0.dtype())};
  return {r};
}

// Max, Min, Sum, Mean: one or more inputs of one type; from opset 8 they broadcast, before they must agree.
template <typename F>
KernelFn variadic(std::string op, bool floatOnly, bool broadcasts, F f) {
  return [op, floatOnly, broadcasts, f](const KernelContext& c) -> std::vector<Value> {
    std::vector<const Tensor*> ins;
    for (size_t k = 0; k < c.inputCount(); ++k) ins.push_back(&c.input(k));
    if (ins.empty()) badInput(op + " needs at least one input");
    requireSameType(op, ins);
    if (!broadcasts)
      for (const Tensor* t : ins)
        if (t->dims() != ins[0]->dims())
          badInput(op + " of " + describe(*ins[0]) + " and " + describe(*t) + ": before opset 8 shapes must agree");
    const ir::DataType type = ins[0]->dtype();
    if (type == ir::DataType::Bool) unsupported(op + " of bool");
    auto run = [&]<typename T>() {
      Tensor acc = *ins[0];
      for (size_t k = 1; k < ins.size(); ++k)
        acc = binaryBroadcast<T, T, T>(
            acc, *ins[k], type, [&](T x, T y) { return f(x, y); }, c.threads());
      return acc;
    };
    Tensor r = floatOnly ? visitFloating(type, run) : visitArithmetic(type, op, run);
    if (op == "Mean" && ins.size() > 1) {
      r = visitFloating(type, [&]<typename T>() {
        const T n = static_cast<T>(ins.size());
        return unaryMap<T, T>(
            r, type, [n](T v) { return v / n; }, c.threads());
      });
    }
    return {r};
  };
}

template <typename T>
T maxOf(T x, T y) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
  return x < y ? y : x;
}

template <typename T>
T minOf(T x, T y) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
  return y < x ? y : x;
}

}  // namespace

void registerArithmeticKernels(KernelRegistry& r) {
  const auto add = []<typename T>(T x, T y) { return wrappingAdd(x, y); };
  const auto sub = []<typename T>(T x, T y) { return wrappingSub(x, y); };
  const auto mul = []<typename T>(T x, T y) { return wrappingMul(x, y); };
  const auto div = []<typename T>(T x, T y) { return divide(x, y); };
  for (bool legacy : {true, false}) {
    const int since = legacy ? 1 : 7;
    r.add("Add", since, sameTypeBinary("Add", legacy, add));
    r.add("Sub", since, sameTypeBinary("Sub", legacy, sub));
    r.add("Mul", since, sameTypeBinary("Mul", legacy, mul));
    r.add("Div", since, sameTypeBinary("Div", legacy, div));
    r.add(
        "Pow", since, [legacy](const KernelContext& c) { return powImpl(c, legacy); }, HalfTypes::AsIs);
  }
  r.add("Mod", 10, mod);
  const auto mx = []<typename T>(T x, T y) { return maxOf(x, y); };
  const auto mn = []<typename T>(T x, T y) { return minOf(x, y); };
  for (bool broadcasts : {false, true}) {
    const int since = broadcasts ? 8 : 1;
    r.add("Max", since, variadic("Max", false, broadcasts, mx));
    r.add("Min", since, variadic("Min", false, broadcasts, mn));
    r.add("Sum", since, variadic("Sum", true, broadcasts, add));
    r.add("Mean", since, variadic("Mean", true, broadcasts, add));
  }
}

}  // namespace fb::eval::elementwise
