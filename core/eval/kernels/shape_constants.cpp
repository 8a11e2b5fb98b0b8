// Ops that make a tensor from attributes or a few scalars: Constant, ConstantOfShape, Range, EyeLike, OneHot. Their
// sizes come from data (a shape input, a depth, a range's bounds), so every one is allocated through Tensor::empty,
// which refuses what overflows or exceeds the run's memory budget before anything is written.
#include <algorithm>
#include <cmath>

#include "eval/kernels/shape_parts.h"
#include "eval/runtime/dispatch.h"

namespace fb::eval::shape {

namespace {

// A sparse_value attribute as the dense tensor it stands for (zeros, or empty strings, elsewhere).
Tensor densify(const ir::SparseTensor& s) {
  const Tensor values = Tensor::fromModel(s.values);
  const Tensor indices = Tensor::fromModel(s.indices);
  Tensor out = Tensor::zeros(values.dtype(), s.dims);
  const int64_t nnz = values.size();
  const int64_t rank = static_cast<int64_t>(s.dims.size());
  std::vector<int64_t> idx = indexValues(indices, "the sparse constant's indices");
  const bool linear = indices.rank() == 1;
  if (static_cast<int64_t>(idx.size()) != (linear ? nnz : checkedMul(nnz, rank)))
    badInput("the sparse constant's indices " + describe(indices) + " do not fit its " + std::to_string(nnz) +
             " values");
  const std::vector<int64_t> strides = stridesOf(s.dims);
  ElementMover mover(values, out, "Constant");
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t at = 0;
    if (linear) {
      at = idx[k];
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t i = idx[k * rank + d];
        if (i < 0 || i >= s.dims[d]) badInput("a sparse constant's index is out of its dims");
        at += i * strides[d];
      }
    }
    if (at < 0 || at >= out.size()) badInput("a sparse constant's index is out of its dims");
    mover.copy(at, k, 1);
  }
  return out;
}

std::vector<Value> constant(const KernelContext& c) {
  for (const ir::Attribute& a : c.node.attributes) {
    if (a.name == "value" && !a.tensors.empty()) return {Tensor::fromModel(a.tensors[0])};
    if (a.name == "sparse_value" && !a.sparseTensors.empty()) return {densify(a.sparseTensors[0])};
    if (a.name == "value_float") return {Tensor::scalar(ir::DataType::Float, a.f)};
    if (a.name == "value_floats") {
      std::vector<float> v(a.floats.begin(), a.floats.end());
      return {Tensor::floats({static_cast<int64_t>(v.size())}, v)};
    }
    if (a.name == "value_int") return {Tensor::int64s({}, {a.i})};
    if (a.name == "value_ints") return {Tensor::int64s({static_cast<int64_t>(a.ints.size())}, a.ints)};
    if (a.name == "value_string") return {Tensor::strings({}, {std::string(a.s)})};
    if (a.name == "value_strings") {
      std::vector<std::string> v(a.strings.begin(), a.strings.end());
      const int64_t n = static_cast<int64_t>(v.size());
      return {Tensor::strings({n}, std::move(v))};
    }
  }
  badInput("Constant has none of value, sparse_value, value_float(s), value_int(s), value_string(s)");
}

std::vector<Value> constantOfShape(const KernelContext& c) {
  std::vector<int64_t> dims = indexValues(c.input(0), "ConstantOfShape's shape");
  const ir::Attribute* a = c.node.attr("value");
  const Tensor value =
      a && !a->tensors.empty() ? Tensor::fromModel(a->tensors[0]) : Tensor::scalar(ir::DataType::Float, 0.0);
  if (value.size() != 1) badInput("ConstantOfShape's value is " + describe(value) + " where one element is expected");
  if (isPacked(value.dtype())) {
    const Tensor code = unpackCodes(value);
    Tensor codes = Tensor::empty(code.dtype(), std::move(dims));
    ElementMover(code, codes, "ConstantOfShape").fill(0, codes.size(), code);
    return {packCodes(codes, value.dtype())};
  }
  Tensor out = Tensor::empty(value.dtype(), std::move(dims));
  ElementMover(value, out, "ConstantOfShape").fill(0, out.size(), value);
  return {out};
}

// Elements of [start, limit) by delta: ceil((limit - start) / delta), at least 0.
template <typename T>
int64_t rangeCount(T start, T limit, T delta) {
  if (delta == T{0}) badInput("Range's delta is 0");
  if constexpr (std::is_integral_v<T>) {
    const int64_t lo = static_cast<int64_t>(start), hi = static_cast<int64_t>(limit), d = static_cast<int64_t>(delta);
    if (hi == lo || (hi > lo) != (d > 0)) return 0;
    // The distance and the step as unsigned: exact for any two int64 values (their difference is below 2^64).
    const uint64_t span = d > 0 ? static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)
                                : static_cast<uint64_t>(lo) - static_cast<uint64_t>(hi);
    const uint64_t step = d > 0 ? static_cast<uint64_t>(d) : uint64_t{0} - static_cast<uint64_t>(d);
    const uint64_t n = span / step + (span % step != 0);
    if (n > static_cast<uint64_t>(INT64_MAX)) badInput("Range has more elements than int64 can count");
    return static_cast<int64_t>(n);
  } else {
    const double n = std::ceil(static_cast<double>(limit - start) / static_cast<double>(delta));
    if (std::isnan(n)) badInput("Range's bounds are not numbers");
    if (n <= 0) return 0;
    if (n > 9.0e18) badInput("Range has more elements than int64 can count");
    return static_cast<int64_t>(n);
  }
}

std::vector<Value> range(const KernelContext& c) {
  const Tensor& s = c.input(0);
  const Tensor& l = c.input(1);
  const Tensor& d = c.input(2);
  if (s.dtype() != l.dtype() || s.dtype() != d.dtype())
    badInput("Range of " + describe(s) + ", " + describe(l) + " and " + describe(d) + ": types differ");
  if (s.size() != 1 || l.size() != 1 || d.size() != 1) badInput("Range's start, limit and delta must be scalars");
  return {visitNumeric(s.dtype(), [&]<typename T>() -> Tensor {
    if constexpr (std::is_same_v<T, bool>) {
      unsupported("Range of bool");
    } else {
      const T start = s.data<T>()[0], limit = l.data<T>()[0], delta = d.data<T>()[0];
      const int64_t n = rangeCount(start, limit, delta);
      Tensor out = Tensor::empty(s.dtype(), {n});
      T* o = out.mutableData<T>();
      if constexpr (std::is_integral_v<T>) {
        // Every value lies in [start, limit): exact in T, computed in unsigned arithmetic so no step can overflow.
        using U = std::make_unsigned_t<T>;
        U v = static_cast<U>(start);
        for (int64_t k = 0; k < n; ++k, v = static_cast<U>(v + static_cast<U>(delta))) o[k] = static_cast<T>(v);
      } else {
        // Accumulated in T, as ONNX's function body for Range (and ONNX Runtime) compute it.
        T v = start;
        for (int64_t k = 0; k < n; ++k, v += delta) o[k] = v;
      }
      return out;
    }
  })};
}

std::vector<Value> eyeLike(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() != 2) badInput("EyeLike of " + describe(x) + ": the input must be 2-D");
  const ir::DataType t = c.node.hasAttr("dtype") ? static_cast<ir::DataType>(c.node.attrInt("dtype", 1)) : x.dtype();
  if (!ir::isKnownDataType(static_cast<int32_t>(t)) || t == ir::DataType::Undefined)
    badInput("EyeLike's dtype " + std::to_string(static_cast<int>(t)) + " is not an element type");
  const Tensor one = Tensor::scalar(t, 1.0);
  Tensor out = Tensor::zeros(t, x.dims());
  const ElementMover mover(one, out, "EyeLike");
  const int64_t rows = x.dim(0), cols = x.dim(1);
  // A diagonal beyond the matrix has no element in it: clamping k keeps i + k from overflowing.
  const int64_t k = std::clamp<int64_t>(c.node.attrInt("k", 0), -rows, cols);
  for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i) mover.copy(i * cols + i + k, 0, 1);
  return {out};
}

std::vector<Value> oneHot(const KernelContext& c) {
  const Tensor& indices = c.input(0);
  const Tensor& depthT = c.input(1);
  const Tensor& values = c.input(2);
  if (depthT.size() != 1) badInput("OneHot's depth is " + describe(depthT) + " where one value is expected");
  if (values.size() != 2) badInput("OneHot's values are " + describe(values) + " where [off, on] is expected");
  const double depthValue = depthT.doubleAt(0);
  if (!(depthValue >= 0 && depthValue < 9.0e18)) badInput("OneHot's depth " + std::to_string(depthValue));
  const int64_t depth = static_cast<int64_t>(depthValue);
  const int64_t rank = static_cast<int64_t>(indices.rank());
  const int64_t axis = normalizeAxis(c.node.attrInt("axis", -1), rank + 1, "OneHot's axis");
  std::vector<int64_t> dims = indices.dims();
  dims.insert(dims.begin() + axis, depth);
  Tensor out = Tensor::empty(values.dtype(), dims);
  if (out.size() == 0) return {out};
  const ElementMover mover(values, out, "OneHot");
  mover.fill(0, out.size(), values, 0);
  int64_t inner = 1;
  for (int64_t k = axis; k < rank; ++k) inner *= indices.dim(k);
  const int64_t n = indices.size();
  for (int64_t k = 0; k < n; ++k) {
    const double v = indices.doubleAt(k);
    if (!(v > -9.0e18 && v < 9.0e18)) continue;
    int64_t i = static_cast<int64_t>(v);
    if (i < 0 && c.opset >= 11) i += depth;  // negative indices count from the end from opset 11 on
    if (i < 0 || i >= depth) continue;       // out of range: all off
    const int64_t outer = k / inner, within = k % inner;
    mover.copy((outer * depth + i) * inner + within, 1, 1);
  }
  return {out};
}

}  // namespace

void registerConstantKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Constant", 1, constant, asIs);  // sparse_value from 11, value_* forms from 12: each form only where it exists
  r.add("ConstantOfShape", 9, constantOfShape, asIs);
  r.add("Range", 11, range, asIs);
  r.add("EyeLike", 9, eyeLike, asIs);
  r.add("OneHot", 9, oneHot, asIs);  // negative indices count from the end from 11
  r.add("OneHot", 11, oneHot, asIs);
}

}  // namespace fb::eval::shape
