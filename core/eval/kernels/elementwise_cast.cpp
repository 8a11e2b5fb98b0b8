// Cast and CastLike: every element type to every other, strings both ways, and the narrow types (float8 with
// `saturate` from opset 19, int4/uint4 from 21, float4 from 23, float8e8m0 with `round_mode` from 24, int2/uint2
// from 25) encoded by elementwise_narrow_encode.cpp. Kept AsIs: float16/bfloat16 are converted here, exactly once.
#include <charconv>
#include <cmath>
#include <limits>

#include "eval/kernels/elementwise_parts.h"
#include "eval/runtime/half.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval::elementwise {

namespace {

struct CastOptions {
  bool saturate = true;
  std::string roundMode = "up";
};

CastOptions castOptions(const KernelContext& c) {
  CastOptions o;
  if (c.opset >= 19) o.saturate = c.node.attrInt("saturate", 1) != 0;
  if (c.opset >= 24) o.roundMode = c.node.attrString("round_mode", "up");
  return o;
}

bool encodedHere(ir::DataType t) { return ir::isNarrowType(t); }

// Element k of a numeric (or narrow) tensor as float: how narrow types are encoded, from float32 as ONNX does.
float floatAt(const Tensor& t, int64_t k) {
  switch (t.dtype()) {
    case ir::DataType::Float:
      return t.data<float>()[k];
    case ir::DataType::Float16:
      return halfBitsToFloat(t.data<uint16_t>()[k]);
    case ir::DataType::BFloat16:
      return bfloat16BitsToFloat(t.data<uint16_t>()[k]);
    default:
      return static_cast<float>(t.doubleAt(k));
  }
}

template <typename T>
std::string shortest(T v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);  // the shortest text that reads back as the same value
  return std::string(buf, res.ptr);
}

Tensor toStrings(const Tensor& x) {
  Tensor r = Tensor::empty(ir::DataType::String, x.dims());
  auto& out = r.mutableStrings();
  const int64_t n = x.size();
  switch (x.dtype()) {
    case ir::DataType::Double:
      for (int64_t k = 0; k < n; ++k) out[k] = shortest(x.data<double>()[k]);
      break;
    case ir::DataType::Bool:
      for (int64_t k = 0; k < n; ++k) out[k] = x.data<bool>()[k] ? "True" : "False";
      break;
    case ir::DataType::Int64:
      for (int64_t k = 0; k < n; ++k) out[k] = std::to_string(x.data<int64_t>()[k]);
      break;
    case ir::DataType::UInt64:
      for (int64_t k = 0; k < n; ++k) out[k] = std::to_string(x.data<uint64_t>()[k]);
      break;
    default:
      if (ir::isFloatingPoint(x.dtype()) || ir::isNarrowType(x.dtype())) {
        const bool integral = x.dtype() == ir::DataType::Int4 || x.dtype() == ir::DataType::UInt4 ||
                              x.dtype() == ir::DataType::Int2 || x.dtype() == ir::DataType::UInt2;
        for (int64_t k = 0; k < n; ++k) out[k] = integral ? std::to_string(x.int64At(k)) : shortest(floatAt(x, k));
      } else {
        for (int64_t k = 0; k < n; ++k) out[k] = std::to_string(x.int64At(k));
      }
  }
  return r;
}

// A string's number: decimal or scientific, "NaN", "INF", "-INF" (any case, a leading '+' allowed).
double parseNumber(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  if (b < e && s[b] == '+') ++b;
  double v = 0;
  auto res = std::from_chars(s.data() + b, s.data() + e, v);
  if (res.ec == std::errc::result_out_of_range) {
    const bool neg = b < e && s[b] == '-';
    return neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  if (res.ec != std::errc() || res.ptr != s.data() + e || b == e) {
    const std::string lower = [&] {
      std::string l(s.data() + b, e - b);
      for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return l;
    }();
    if (lower == "true") return 1;
    if (lower == "false") return 0;
    std::string shown = s.size() > 40 ? s.substr(0, 40) + "..." : s;
    badInput("Cast of the string '" + shown + "': not a number");
  }
  return v;
}

// int64/uint64 from a string without passing through double when the text is an integer.
template <typename T>
T parseInteger(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  if (b < e && s[b] == '+') ++b;
  T v{};
  auto res = std::from_chars(s.data() + b, s.data() + e, v);
  if (res.ec == std::errc() && res.ptr == s.data() + e && b < e) return v;
  return saturatingFromDouble<T>(parseNumber(s));
}

Tensor fromStrings(const Tensor& x, ir::DataType to, const CastOptions& o) {
  const auto& in = x.stringValues();
  const int64_t n = x.size();
  if (to == ir::DataType::Int64 || to == ir::DataType::UInt64) {
    Tensor r = Tensor::empty(to, x.dims());
    if (to == ir::DataType::Int64)
      for (int64_t k = 0; k < n; ++k) r.mutableData<int64_t>()[k] = parseInteger<int64_t>(in[k]);
    else
      for (int64_t k = 0; k < n; ++k) r.mutableData<uint64_t>()[k] = parseInteger<uint64_t>(in[k]);
    return r;
  }
  // Through double: exact for every other target type's values.
  Tensor wide = Tensor::empty(ir::DataType::Double, x.dims());
  for (int64_t k = 0; k < n; ++k) wide.mutableData<double>()[k] = parseNumber(in[k]);
  if (encodedHere(to))
    return packNarrow(to, x.dims(), [&](int64_t k) {
      return encodeNarrow(to, static_cast<float>(wide.data<double>()[k]), o.saturate, o.roundMode);
    });
  // Text to half types as other runtimes do it: read as float, then rounded to the half type.
  if (to == ir::DataType::Float16 || to == ir::DataType::BFloat16)
    return castTensor(castTensor(wide, ir::DataType::Float), to);
  return castTensor(wide, to);
}

Tensor castTo(const Tensor& x, ir::DataType to, const CastOptions& o) {
  if (x.dtype() == to) return x;
  if (to == ir::DataType::String) return toStrings(x);
  if (x.isString()) return fromStrings(x, to, o);
  if (encodedHere(to))
    return packNarrow(to, x.dims(),
                      [&](int64_t k) { return encodeNarrow(to, floatAt(x, k), o.saturate, o.roundMode); });
  if (ir::elementSize(to) == 0 && !ir::isNarrowType(to)) unsupported("Cast to " + std::string(ir::dataTypeName(to)));
  return castTensor(x, to);
}

std::vector<Value> cast(const KernelContext& c) {
  const ir::DataType to = elementTypeAttribute(c, "to");
  if (to == ir::DataType::Complex64 || to == ir::DataType::Complex128) unsupported("Cast to complex types");
  return {castTo(c.input(0), to, castOptions(c))};
}

std::vector<Value> castLike(const KernelContext& c) {
  const ir::DataType to = c.input(1).dtype();
  if (to == ir::DataType::Complex64 || to == ir::DataType::Complex128) unsupported("CastLike to complex types");
  return {castTo(c.input(0), to, castOptions(c))};
}

}  // namespace

void registerCastKernels(KernelRegistry& r) {
  // Cast-1 names the type as a string, Cast-6 as a code; strings from 9, bfloat16 from 13, and the narrow types'
  // encodings (19, 21, 23, 24, 25) read their attributes only where the model's opset defines them.
  r.add("Cast", 1, cast, HalfTypes::AsIs);
  r.add("Cast", 19, cast, HalfTypes::AsIs);
  r.add("Cast", 24, cast, HalfTypes::AsIs);
  r.add("CastLike", 15, castLike, HalfTypes::AsIs);
  r.add("CastLike", 19, castLike, HalfTypes::AsIs);
  r.add("CastLike", 24, castLike, HalfTypes::AsIs);
}

}  // namespace fb::eval::elementwise
