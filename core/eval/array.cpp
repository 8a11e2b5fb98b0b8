#include "eval/array.h"

#include "eval/eval_budget.h"

#include <cstring>

namespace fb::eval {

bool isSupportedType(ir::DataType t) {
  using D = ir::DataType;
  switch (t) {
    case D::Float:
    case D::Double:
    case D::Int8:
    case D::Int16:
    case D::Int32:
    case D::Int64:
    case D::UInt8:
    case D::UInt16:
    case D::UInt32:
    case D::UInt64:
    case D::Bool:
      return true;
    default:
      return false;
  }
}

int64_t checkedInt64(double v) {
  // -2^63 and 2^63 are exact doubles: every double in between converts.
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
    throw Unsupported("a value out of the range of 64-bit integers");
  return static_cast<int64_t>(v);
}

int64_t elementCount(const std::vector<int64_t>& dims) {
  // Dims may come from a file or from values being folded: a negative dim or an overflow is not a shape.
  int64_t n = 1;
  for (auto d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) throw Unsupported("dims that are negative or overflow");
  return n;
}

Array Array::ints(std::vector<int64_t> dims, std::vector<int64_t> v, ir::DataType t) {
  Array a;
  a.dtype = t;
  a.dims = std::move(dims);
  a.i = std::move(v);
  return a;
}

Array Array::floats(std::vector<int64_t> dims, std::vector<double> v, ir::DataType t) {
  Array a;
  a.dtype = t;
  a.dims = std::move(dims);
  a.f = std::move(v);
  return a;
}

Array Array::zeros(ir::DataType t, std::vector<int64_t> dims) {
  Array a;
  a.dtype = t;
  a.dims = std::move(dims);
  size_t n = static_cast<size_t>(elementCount(a.dims));
  chargeArray(n);
  if (a.isFloat())
    a.f.assign(n, 0.0);
  else
    a.i.assign(n, 0);
  return a;
}

Array Array::copy() const {
  chargeArray(size());
  return *this;
}

Array Array::fromTensor(const ir::Tensor& t) {
  if (!isSupportedType(t.dtype)) throw Unsupported("element type not supported by the evaluator");
  Array a;
  a.dtype = t.dtype;
  a.dims = t.dims;
  chargeArray(static_cast<uint64_t>(elementCount(a.dims)));
  if (a.isFloat())
    a.f = t.asDouble();
  else
    a.i = t.asInt64();
  if (static_cast<int64_t>(a.size()) != elementCount(a.dims)) throw Unsupported("tensor '" + t.name + "' has no data");
  return a;
}

namespace {
template <typename T, typename S>
std::string pack(const std::vector<S>& v) {
  std::string out(v.size() * sizeof(T), '\0');
  for (size_t k = 0; k < v.size(); ++k) {
    T x = static_cast<T>(v[k]);
    std::memcpy(out.data() + k * sizeof(T), &x, sizeof(T));
  }
  return out;
}
}  // namespace

ir::Tensor Array::toTensor(const std::string& name) const {
  using D = ir::DataType;
  ir::Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.dims = dims;
  std::string raw;
  switch (dtype) {
    case D::Float:
      raw = pack<float>(f);
      break;
    case D::Double:
      raw = pack<double>(f);
      break;
    case D::Int8:
      raw = pack<int8_t>(i);
      break;
    case D::Int16:
      raw = pack<int16_t>(i);
      break;
    case D::Int32:
      raw = pack<int32_t>(i);
      break;
    case D::Int64:
      raw = pack<int64_t>(i);
      break;
    case D::UInt8:
      raw = pack<uint8_t>(i);
      break;
    case D::UInt16:
      raw = pack<uint16_t>(i);
      break;
    case D::UInt32:
      raw = pack<uint32_t>(i);
      break;
    case D::UInt64:
      raw = pack<uint64_t>(i);
      break;
    case D::Bool: {
      std::vector<int64_t> b(i.size());
      for (size_t k = 0; k < i.size(); ++k) b[k] = i[k] != 0;
      raw = pack<uint8_t>(b);
      break;
    }
    default:
      throw Unsupported("element type not supported by the evaluator");
  }
  t.setBytes(std::move(raw));
  return t;
}

}  // namespace fb::eval
