// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear: per-tensor (opset 10), per-axis (13), blocked (21)
// scales; zero points of int8/uint8/int16/uint16/int32 and the narrow types (int4/uint4, int2/uint2, float8,
// float4), encoded as Cast encodes them. Kept AsIs: scales of float16/bfloat16 decide the division's precision,
// and the output type is not always the scale's.
#include <cmath>
#include <limits>

#include "eval/kernels/elementwise_parts.h"
#include "eval/runtime/half.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval::elementwise {

namespace {

// Which scale element each element of x uses: per tensor, per axis, or per block along the axis.
class ScaleIndex {
 public:
  ScaleIndex(const KernelContext& c, const Tensor& x, const Tensor& scale, const Tensor* zeroPoint) {
    if (zeroPoint && zeroPoint->dims() != scale.dims() && !(zeroPoint->size() == 1 && scale.size() == 1))
      badInput("zero point " + describe(*zeroPoint) + " and scale " + describe(scale) + " differ in shape");
    const int64_t block = c.opset >= 21 ? c.node.attrInt("block_size", 0) : 0;
    if (block < 0) badInput("block_size is negative");
    if (block == 0 && (scale.rank() == 0 || scale.size() == 1)) return;  // per tensor
    if (c.opset < 13) badInput("scale " + describe(scale) + " is not a scalar (per-axis scales need opset 13)");
    const int64_t rank = static_cast<int64_t>(x.rank());
    int64_t axis = c.node.attrInt("axis", 1);
    if (axis < -rank || axis >= rank) badInput("axis " + std::to_string(axis) + " is out of range for " + describe(x));
    if (axis < 0) axis += rank;
    const auto ax = static_cast<size_t>(axis);
    axisDim_ = x.dim(ax);
    inner_ = 1;
    for (size_t k = ax + 1; k < x.rank(); ++k) inner_ *= x.dim(k);
    if (block == 0) {
      if (scale.rank() != 1 || scale.dim(0) != axisDim_)
        badInput("per-axis scale " + describe(scale) + " does not match axis " + std::to_string(axis) + " of " +
                 describe(x));
      mode_ = Mode::PerAxis;
      return;
    }
    if (scale.rank() != x.rank())
      badInput("blocked scale " + describe(scale) + " is not of " + describe(x) + "'s rank");
    for (size_t k = 0; k < x.rank(); ++k) {
      const int64_t want = k == ax ? (x.dim(k) + block - 1) / block : x.dim(k);
      if (scale.dim(k) != want)
        badInput("blocked scale " + describe(scale) + " does not fit " + describe(x) + " in blocks of " +
                 std::to_string(block) + " along axis " + std::to_string(axis));
    }
    block_ = block;
    scaleAxisDim_ = scale.dim(ax);
    mode_ = Mode::Blocked;
  }

  int64_t operator()(int64_t k) const {
    switch (mode_) {
      case Mode::PerTensor:
        return 0;
      case Mode::PerAxis:
        return (k / inner_) % axisDim_;
      case Mode::Blocked: {
        const int64_t outer = k / (inner_ * axisDim_);
        const int64_t along = (k / inner_) % axisDim_;
        return (outer * scaleAxisDim_ + along / block_) * inner_ + k % inner_;
      }
    }
    return 0;
  }

 private:
  enum class Mode { PerTensor, PerAxis, Blocked };
  Mode mode_ = Mode::PerTensor;
  int64_t axisDim_ = 1, inner_ = 1, block_ = 1, scaleAxisDim_ = 1;
};

bool isScaleType(ir::DataType t) {
  return t == ir::DataType::Float || t == ir::DataType::Float16 || t == ir::DataType::BFloat16;
}

// The quotient rounded to the precision the division is done in (float, or a half type).
float roundedTo(ir::DataType precision, float q) {
  if (precision == ir::DataType::Float16) return halfBitsToFloat(floatToHalfBits(q));
  if (precision == ir::DataType::BFloat16) return bfloat16BitsToFloat(floatToBfloat16Bits(q));
  return q;
}

template <typename T>
Tensor quantizeToInteger(const KernelContext& c, const Tensor& x, ir::DataType to, const Tensor& scale,
                         const Tensor* zp, const ScaleIndex& index, ir::DataType precision) {
  // Widened once (shared when already float / int32): the loop then reads plain arrays.
  const Tensor xf = castTensor(x, ir::DataType::Float);
  const Tensor sf = castTensor(scale, ir::DataType::Float);
  const Tensor zi = zp ? castTensor(*zp, ir::DataType::Int32) : Tensor();
  const float* px = xf.data<float>();
  const float* ps = sf.data<float>();
  const int32_t* pz = zp ? zi.data<int32_t>() : nullptr;
  Tensor r = Tensor::empty(to, x.dims());
  T* out = r.mutableData<T>();
  constexpr float lo = static_cast<float>(std::numeric_limits<T>::lowest());
  constexpr float hi = static_cast<float>(std::numeric_limits<T>::max());
  forChunks(x.size(), c.threads(), [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      const int64_t s = index(k);
      const float q = roundedTo(precision, px[k] / ps[s]);
      // Exact in float: |rounded q| < 2^24 or far outside every target's range, and the zero point is small.
      float v = std::nearbyint(q) + static_cast<float>(pz ? pz[s] : 0);
      if (std::isnan(v)) v = 0;
      out[k] = static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
    }
  });
  return r;
}

std::vector<Value> quantizeLinear(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& scale = c.input(1);
  const Tensor* zp = c.optionalInput(2);
  if (!isScaleType(scale.dtype()) && scale.dtype() != ir::DataType::Int32)
    badInput("QuantizeLinear's scale " + describe(scale) + " is not of a float type");
  if (x.isString() || x.dtype() == ir::DataType::Bool) badInput("QuantizeLinear of " + describe(x));
  ir::DataType to = zp ? zp->dtype() : ir::DataType::UInt8;
  if (c.opset >= 21 && c.node.attrInt("output_dtype", 0) != 0) {
    const ir::DataType asked = elementTypeAttribute(c, "output_dtype");
    if (zp && asked != zp->dtype())
      badInput("output_dtype " + std::string(ir::dataTypeName(asked)) + " differs from the zero point's " +
               describe(*zp));
    to = asked;
  }
  ir::DataType precision = scale.dtype() == ir::DataType::Int32 ? ir::DataType::Float : scale.dtype();
  if (c.opset >= 23 && c.node.attrInt("precision", 0) != 0) {
    precision = elementTypeAttribute(c, "precision");
    if (!isScaleType(precision))
      unsupported("QuantizeLinear with precision " + std::string(ir::dataTypeName(precision)));
  }
  const ScaleIndex index(c, x, scale, zp);
  const bool saturate = c.opset < 19 || c.node.attrInt("saturate", 1) != 0;
  switch (to) {
    case ir::DataType::UInt8:
      return {quantizeToInteger<uint8_t>(c, x, to, scale, zp, index, precision)};
    case ir::DataType::Int8:
      return {quantizeToInteger<int8_t>(c, x, to, scale, zp, index, precision)};
    case ir::DataType::UInt16:
      return {quantizeToInteger<uint16_t>(c, x, to, scale, zp, index, precision)};
    case ir::DataType::Int16:
      return {quantizeToInteger<int16_t>(c, x, to, scale, zp, index, precision)};
    default:
      break;
  }
  if (!ir::isNarrowType(to)) unsupported("QuantizeLinear to " + std::string(ir::dataTypeName(to)));
  const bool integral =
      to == ir::DataType::Int4 || to == ir::DataType::UInt4 || to == ir::DataType::Int2 || to == ir::DataType::UInt2;
  return {packNarrow(to, x.dims(), [&](int64_t k) {
    const int64_t s = index(k);
    float q = roundedTo(precision, static_cast<float>(x.doubleAt(k)) / static_cast<float>(scale.doubleAt(s)));
    if (integral) q = std::nearbyint(q);  // then saturated by the encoding
    return encodeNarrow(to, q + static_cast<float>(zp ? zp->doubleAt(s) : 0.0), saturate);
  })};
}

std::vector<Value> dequantizeLinear(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& scale = c.input(1);
  const Tensor* zp = c.optionalInput(2);
  if (!isScaleType(scale.dtype())) badInput("DequantizeLinear's scale " + describe(scale) + " is not of a float type");
  if (zp && zp->dtype() != x.dtype())
    badInput("DequantizeLinear of " + describe(x) + " with a zero point of another type, " + describe(*zp));
  if (x.isString() || x.dtype() == ir::DataType::Bool || ir::isFloatingPoint(x.dtype()))
    badInput("DequantizeLinear of " + describe(x));
  if (x.dtype() == ir::DataType::Int32 && zp)
    for (int64_t k = 0; k < zp->size(); ++k)
      if (zp->int64At(k) != 0) badInput("DequantizeLinear of int32 needs a zero point of 0");
  ir::DataType to = scale.dtype();
  if (c.opset >= 23 && c.node.attrInt("output_dtype", 0) != 0) {
    to = elementTypeAttribute(c, "output_dtype");
    if (!isScaleType(to)) badInput("DequantizeLinear's output_dtype " + std::string(ir::dataTypeName(to)));
  }
  const ScaleIndex index(c, x, scale, zp);
  Tensor y = Tensor::empty(ir::DataType::Float, x.dims());
  float* out = y.mutableData<float>();
  const Tensor sf = castTensor(scale, ir::DataType::Float);
  const float* ps = sf.data<float>();
  auto integerLoop = [&]<typename T>() {
    // The difference exactly, as an integer, before scaling.
    const Tensor zi = zp ? castTensor(*zp, ir::DataType::Int64) : Tensor();
    const int64_t* pz = zp ? zi.data<int64_t>() : nullptr;
    const T* px = x.data<T>();
    forChunks(x.size(), c.threads(), [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) {
        const int64_t s = index(k);
        out[k] = static_cast<float>(static_cast<int64_t>(px[k]) - (pz ? pz[s] : 0)) * ps[s];
      }
    });
  };
  switch (x.dtype()) {
    case ir::DataType::Int8:
      integerLoop.template operator()<int8_t>();
      break;
    case ir::DataType::UInt8:
      integerLoop.template operator()<uint8_t>();
      break;
    case ir::DataType::Int16:
      integerLoop.template operator()<int16_t>();
      break;
    case ir::DataType::UInt16:
      integerLoop.template operator()<uint16_t>();
      break;
    case ir::DataType::Int32:
      integerLoop.template operator()<int32_t>();
      break;
    default: {  // the narrow types, through their exact decoding
      const bool integral = x.dtype() == ir::DataType::Int4 || x.dtype() == ir::DataType::UInt4 ||
                            x.dtype() == ir::DataType::Int2 || x.dtype() == ir::DataType::UInt2;
      if (!ir::isNarrowType(x.dtype())) unsupported("DequantizeLinear of " + describe(x));
      for (int64_t k = 0; k < x.size(); ++k) {
        const int64_t s = index(k);
        if (integral)
          out[k] = static_cast<float>(x.int64At(k) - (zp ? zp->int64At(s) : 0)) * ps[s];
        else
          out[k] = (static_cast<float>(x.doubleAt(k)) - (zp ? static_cast<float>(zp->doubleAt(s)) : 0.f)) * ps[s];
      }
    }
  }
  if (to != ir::DataType::Float) return {castTensor(y, to)};
  return {y};
}

std::vector<Value> dynamicQuantizeLinear(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.dtype() != ir::DataType::Float) unsupported("DynamicQuantizeLinear of " + describe(x) + " (float only)");
  const float* in = x.data<float>();
  const int64_t n = x.size();
  // The range always includes 0, so that 0 is exactly representable.
  float lo = 0, hi = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (!std::isfinite(in[k])) badInput("DynamicQuantizeLinear of an input holding NaN or infinity (no finite range)");
    lo = std::min(lo, in[k]);
    hi = std::max(hi, in[k]);
  }
  const float scale = (hi - lo) / 255.f;
  float zeroPoint = 0;
  if (scale > 0) zeroPoint = std::clamp(std::nearbyint(0.f - lo / scale), 0.f, 255.f);
  Tensor y = Tensor::empty(ir::DataType::UInt8, x.dims());
  uint8_t* out = y.mutableData<uint8_t>();
  for (int64_t k = 0; k < n; ++k) {
    const float v = scale > 0 ? std::nearbyint(in[k] / scale) + zeroPoint : zeroPoint;
    out[k] = static_cast<uint8_t>(std::clamp(v, 0.f, 255.f));
  }
  Tensor s = Tensor::scalar(ir::DataType::Float, scale);
  Tensor z = Tensor::scalar(ir::DataType::UInt8, zeroPoint);
  return {y, s, z};
}

}  // namespace

void registerQuantizeKernels(KernelRegistry& r) {
  // 10: per tensor; 13: per axis; 19: float8, saturate, half scales; 21: blocks, output_dtype, 4-bit;
  // 23: precision, float4, DequantizeLinear's output_dtype. One function reads what the model's opset defines.
  for (int since : {10, 13, 19, 21, 23}) {
    r.add("QuantizeLinear", since, quantizeLinear, HalfTypes::AsIs);
    r.add("DequantizeLinear", since, dequantizeLinear, HalfTypes::AsIs);
  }
  r.add("DynamicQuantizeLinear", 11, dynamicQuantizeLinear);
}

}  // namespace fb::eval::elementwise
