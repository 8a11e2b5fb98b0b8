#include "eval/runtime/value_conversion.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "eval/runtime/dispatch.h"
#include "eval/runtime/half.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

template <typename To>
To saturate(double v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != 0;
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else {
    if (std::isnan(v)) return To{0};
    const double lo = static_cast<double>(std::numeric_limits<To>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<To>::max());
    if (v <= lo) return std::numeric_limits<To>::lowest();
    if (v >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);  // truncates toward zero
  }
}

// Reads element k of any readable type as the widest type that holds it exactly.
template <typename To>
void castInto(const Tensor& t, To* out) {
  const int64_t n = t.size();
  const ir::DataType from = t.dtype();
  if (from == ir::DataType::Int64 || from == ir::DataType::UInt64) {
    // Through double would lose int64's low bits (2^53 and above).
    visitNumeric(from, [&]<typename From>() {
      const From* in = t.data<From>();
      for (int64_t k = 0; k < n; ++k) {
        if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool>) {
          out[k] = static_cast<To>(in[k]);
        } else {
          out[k] = saturate<To>(static_cast<double>(in[k]));
        }
      }
    });
    return;
  }
  switch (from) {
    case ir::DataType::Float: {
      const float* in = t.data<float>();
      for (int64_t k = 0; k < n; ++k) out[k] = saturate<To>(in[k]);
      return;
    }
    case ir::DataType::Float16: {
      const uint16_t* in = t.data<uint16_t>();
      for (int64_t k = 0; k < n; ++k) out[k] = saturate<To>(halfBitsToFloat(in[k]));
      return;
    }
    case ir::DataType::BFloat16: {
      const uint16_t* in = t.data<uint16_t>();
      for (int64_t k = 0; k < n; ++k) out[k] = saturate<To>(bfloat16BitsToFloat(in[k]));
      return;
    }
    default:
      for (int64_t k = 0; k < n; ++k) out[k] = saturate<To>(t.doubleAt(k));
  }
}

}  // namespace

Tensor castTensor(const Tensor& t, ir::DataType to) {
  if (t.dtype() == to) return t;
  if (t.isString() || to == ir::DataType::String)
    unsupported("casts to and from strings are the Cast kernel's, not castTensor's");
  Tensor r = Tensor::empty(to, t.dims());
  const int64_t n = t.size();
  if (to == ir::DataType::Float16 || to == ir::DataType::BFloat16) {
    std::vector<float> tmp(static_cast<size_t>(n));
    castInto<float>(t, tmp.data());
    uint16_t* out = r.mutableData<uint16_t>();
    if (to == ir::DataType::Float16)
      for (int64_t k = 0; k < n; ++k) out[k] = floatToHalfBits(tmp[k]);
    else
      for (int64_t k = 0; k < n; ++k) out[k] = floatToBfloat16Bits(tmp[k]);
    return r;
  }
  visitNumeric(to, [&]<typename To>() { castInto<To>(t, r.mutableData<To>()); });
  return r;
}

void checkInputFits(const ir::Value& v, const Value& x) {
  const ir::TypeInfo& declared = v.type;
  if (declared.kind != ir::TypeInfo::Kind::Tensor) return;  // sequences and optionals: checked by their readers
  auto where = [&] {
    return "input '" + v.name() + "' is " + describe(x) + " where the model declares " + declared.toString();
  };
  if (!x.isTensor()) {
    if (x.isNone()) return;
    badInput(where());
  }
  const Tensor& t = x.tensor();
  if (declared.elemType != ir::DataType::Undefined && declared.elemType != t.dtype()) badInput(where());
  if (!declared.shape) return;
  if (declared.shape->size() != t.rank()) badInput(where());
  for (size_t k = 0; k < t.rank(); ++k) {
    const ir::Dim& d = (*declared.shape)[k];
    if (d.isValue() && d.value != t.dim(k)) badInput(where());
  }
}

}  // namespace fb::eval
