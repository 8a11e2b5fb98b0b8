// Comparisons, boolean logic, bitwise ops, BitShift and Where. Comparisons of float16/bfloat16 see the exact float
// widening (the runner's); Where copies elements of any type as they are.
#include <cstring>

#include "eval/kernels/elementwise_parts.h"

namespace fb::eval::elementwise {

namespace {

// Equal of strings (opset 19+), element by element over the broadcast.
Tensor equalStrings(const Tensor& a, const Tensor& b) {
  std::vector<int64_t> dims = broadcastDims({&a.dims(), &b.dims()});
  Tensor r = Tensor::empty(ir::DataType::Bool, dims);
  bool* out = r.mutableData<bool>();
  const auto& sa = a.stringValues();
  const auto& sb = b.stringValues();
  BroadcastWalk<2> w(dims, {&a.dims(), &b.dims()});
  for (int64_t k = 0; k < r.size(); ++k, w.next()) out[k] = sa[w.at(0)] == sb[w.at(1)];
  return r;
}

// A comparison giving bool over the broadcast of two operands of one type; `legacy`: opsets 1-6.
template <typename F>
KernelFn comparison(std::string op, bool legacy, F f) {
  return [op, legacy, f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& a = c.input(0);
    const Tensor b = legacy ? legacyBroadcastOperand(c, a, c.input(1)) : c.input(1);
    requireSameType(op, {&a, &b});
    if (a.isString()) {
      if (op != "Equal") unsupported(op + " of strings");
      return {equalStrings(a, b)};
    }
    return {visitNumeric(a.dtype(), [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool>)  // compared as truth values, read as bytes
        return binaryBroadcast<uint8_t, uint8_t, bool>(
            a, b, ir::DataType::Bool, [&](uint8_t x, uint8_t y) { return f(x != 0, y != 0); }, c.threads());
      else
        return binaryBroadcast<T, T, bool>(
            a, b, ir::DataType::Bool, [&](T x, T y) { return f(x, y); }, c.threads());
    })};
  };
}

// And, Or, Xor: bool operands; `legacy`: opsets 1-6.
template <typename F>
KernelFn logical(std::string op, bool legacy, F f) {
  return [op, legacy, f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& a = c.input(0);
    const Tensor b = legacy ? legacyBroadcastOperand(c, a, c.input(1)) : c.input(1);
    if (a.dtype() != ir::DataType::Bool || b.dtype() != ir::DataType::Bool)
      badInput(op + " of " + describe(a) + " and " + describe(b) + ": both must be bool");
    // Bytes, not bool: a file may hold any nonzero byte for true, and loading that as bool is undefined.
    return {binaryBroadcast<uint8_t, uint8_t, bool>(
        a, b, ir::DataType::Bool, [&](uint8_t x, uint8_t y) { return f(x != 0, y != 0); }, c.threads())};
  };
}

std::vector<Value> logicalNot(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.dtype() != ir::DataType::Bool) badInput("Not of " + describe(x) + ": it must be bool");
  return {unaryMap<uint8_t, bool>(
      x, ir::DataType::Bool, [](uint8_t v) { return v == 0; }, c.threads())};
}

// BitwiseAnd/Or/Xor (opset 18): integer operands of one type.
template <typename F>
KernelFn bitwise(std::string op, F f) {
  return [op, f](const KernelContext& c) -> std::vector<Value> {
    const Tensor& a = c.input(0);
    const Tensor& b = c.input(1);
    requireSameType(op, {&a, &b});
    return {visitNumeric(a.dtype(), [&]<typename T>() -> Tensor {
      if constexpr (kIsInteger<T>)
        return binaryBroadcast<T, T, T>(
            a, b, a.dtype(), [&](T x, T y) { return static_cast<T>(f(x, y)); }, c.threads());
      else
        unsupported(op + " of " + describe(a) + " (integer types only)");
    })};
  };
}

std::vector<Value> bitwiseNot(const KernelContext& c) {
  const Tensor& x = c.input(0);
  return {visitNumeric(x.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (kIsInteger<T>)
      return unaryMap<T, T>(
          x, x.dtype(), [](T v) { return static_cast<T>(~v); }, c.threads());
    else
      unsupported("BitwiseNot of " + describe(x) + " (integer types only)");
  })};
}

std::vector<Value> bitShift(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  requireSameType("BitShift", {&a, &b});
  const std::string direction = c.node.attrString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    badInput("BitShift's direction is '" + direction + "' (LEFT or RIGHT)");
  const bool left = direction == "LEFT";
  return {visitNumeric(a.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (kIsInteger<T> && std::is_unsigned_v<T>) {
      return binaryBroadcast<T, T, T>(
          a, b, a.dtype(),
          [left](T x, T s) -> T {
            // Shifting by the width or more is undefined in C++; every bit is shifted out.
            if (s >= sizeof(T) * 8) return T{0};
            return left ? static_cast<T>(x << s) : static_cast<T>(x >> s);
          },
          c.threads());
    } else {
      unsupported("BitShift of " + describe(a) + " (unsigned integer types only)");
    }
  })};
}

std::vector<Value> where(const KernelContext& c) {
  const Tensor& cond = c.input(0);
  const Tensor& x = c.input(1);
  const Tensor& y = c.input(2);
  if (cond.dtype() != ir::DataType::Bool) badInput("Where's condition " + describe(cond) + " is not bool");
  requireSameType("Where", {&x, &y});
  std::vector<int64_t> dims = broadcastDims({&cond.dims(), &x.dims(), &y.dims()});
  Tensor r = Tensor::empty(x.dtype(), dims);
  const uint8_t* pc = cond.data<uint8_t>();  // any nonzero byte is true
  BroadcastWalk<3> w(dims, {&cond.dims(), &x.dims(), &y.dims()});
  const int64_t n = r.size();
  if (x.isString()) {
    auto& out = r.mutableStrings();
    const auto& sx = x.stringValues();
    const auto& sy = y.stringValues();
    for (int64_t k = 0; k < n; ++k, w.next()) out[k] = pc[w.at(0)] ? sx[w.at(1)] : sy[w.at(2)];
    return {r};
  }
  const size_t es = ir::elementSize(x.dtype());
  if (es == 0) unsupported("Where of " + describe(x));
  const std::byte* px = x.bytes().data();
  const std::byte* py = y.bytes().data();
  std::byte* out = r.mutableData<std::byte>();
  for (int64_t k = 0; k < n; ++k, w.next()) {
    const std::byte* from = pc[w.at(0)] ? px + w.at(1) * es : py + w.at(2) * es;
    std::memcpy(out + static_cast<size_t>(k) * es, from, es);
  }
  return {r};
}

}  // namespace

void registerLogicKernels(KernelRegistry& r) {
  const auto eq = []<typename T>(T x, T y) { return x == y; };
  const auto lt = []<typename T>(T x, T y) { return x < y; };
  const auto gt = []<typename T>(T x, T y) { return x > y; };
  const auto le = []<typename T>(T x, T y) { return x <= y; };
  const auto ge = []<typename T>(T x, T y) { return x >= y; };
  for (bool legacy : {true, false}) {
    const int since = legacy ? 1 : 7;
    r.add("Equal", since, comparison("Equal", legacy, eq));
    r.add("Less", since, comparison("Less", legacy, lt));
    r.add("Greater", since, comparison("Greater", legacy, gt));
    r.add("And", since, logical("And", legacy, [](bool x, bool y) { return x && y; }));
    r.add("Or", since, logical("Or", legacy, [](bool x, bool y) { return x || y; }));
    r.add("Xor", since, logical("Xor", legacy, [](bool x, bool y) { return x != y; }));
  }
  r.add("LessOrEqual", 12, comparison("LessOrEqual", false, le));
  r.add("GreaterOrEqual", 12, comparison("GreaterOrEqual", false, ge));
  r.add("Not", 1, logicalNot);
  r.add("BitShift", 11, bitShift);
  r.add("BitwiseAnd", 18, bitwise("BitwiseAnd", []<typename T>(T x, T y) { return x & y; }));
  r.add("BitwiseOr", 18, bitwise("BitwiseOr", []<typename T>(T x, T y) { return x | y; }));
  r.add("BitwiseXor", 18, bitwise("BitwiseXor", []<typename T>(T x, T y) { return x ^ y; }));
  r.add("BitwiseNot", 18, bitwiseNot);
  r.add("Where", 9, where, HalfTypes::AsIs);
}

}  // namespace fb::eval::elementwise
