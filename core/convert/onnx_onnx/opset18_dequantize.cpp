// DequantizeLinear-19..25 of a constant weight whose form opset 17 lacks (blocked scales, or float8/int4/int2/
// float4 data): the weight is dequantized here, into a float Constant. Exact: for data of 8 bits or fewer,
// x - zero_point is exact in float, and (x - zero_point) * scale is one float multiplication, as ONNX Runtime
// computes it.
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"
#include "ir/packed_types.h"

namespace fb::convert::onnx_onnx {
namespace {

bool eightBitsOrFewer(ir::DataType t) {
  return t == ir::DataType::Int8 || t == ir::DataType::UInt8 || ir::isNarrowType(t);
}

}  // namespace

bool foldConstantDequantize(ir::Node& n, HandlerContext& ctx) {
  const ir::Tensor* x = n.input(0) ? n.input(0)->initializer() : nullptr;
  const ir::Tensor* scale = n.input(1) ? n.input(1)->initializer() : nullptr;
  const ir::Tensor* zp = n.input(2) ? n.input(2)->initializer() : nullptr;
  const int64_t block = n.attrInt("block_size", 0);
  if (!x || !scale || (n.input(2) && !zp) || !eightBitsOrFewer(x->dtype)) return false;
  if (block == 0 && !ir::isNarrowType(x->dtype)) return false;  // opset 17 has this form as it is
  if (scale->dtype != ir::DataType::Float) return false;
  const int64_t outType = n.attrInt("output_dtype", 0);
  if (outType != 0 && outType != 1) return false;
  const int64_t rank = static_cast<int64_t>(x->dims.size());
  int64_t axis = n.attrInt("axis", 1);
  if (axis < 0) axis += rank;
  const bool perTensor = scale->numElements() == 1 && block == 0;
  if (!perTensor && (axis < 0 || axis >= rank))
    throw Unsupported("DequantizeLinear: axis " + std::to_string(axis) + " is out of range");
  if (block != 0) {
    if (static_cast<int64_t>(scale->dims.size()) != rank)
      throw Unsupported("DequantizeLinear: blocked scale of another rank");
    for (int64_t d = 0; d < rank; ++d) {
      int64_t want = d == axis ? (x->dims[d] + block - 1) / block : x->dims[d];
      if (scale->dims[d] != want) throw Unsupported("DequantizeLinear: blocked scale shape does not match the data");
    }
  } else if (!perTensor && scale->numElements() != x->dims[axis]) {
    throw Unsupported("DequantizeLinear: per-axis scale length does not match the data");
  }
  if (x->numElements() > (int64_t(1) << 26)) throw Unsupported("DequantizeLinear: weight too large to dequantize here");
  const auto xs = x->asDouble();
  const auto ss = scale->asDouble();
  const auto zs = zp ? zp->asDouble() : std::vector<double>(ss.size(), 0.0);
  if (zs.size() != ss.size()) throw Unsupported("DequantizeLinear: zero point and scale differ in shape");
  ctx.note = std::string(ir::dataTypeName(x->dtype)) + " weight dequantized to float" +
             (block ? " (blocks of " + std::to_string(block) + ")" : "") + ": (x - zero_point) * scale, exact";
  if (!ctx.commit()) return true;
  // Strides of x, and of the scale for the blocked form.
  std::vector<int64_t> xStride(rank, 1), sStride(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) xStride[d] = xStride[d + 1] * x->dims[d + 1];
  if (block != 0)
    for (int64_t d = rank - 2; d >= 0; --d) sStride[d] = sStride[d + 1] * scale->dims[d + 1];
  onnx::TensorProto y;
  y.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : x->dims) y.add_dims(d);
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    int64_t si = 0;
    if (perTensor) {
      si = 0;
    } else if (block == 0) {
      si = (i / xStride[axis]) % x->dims[axis];
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        int64_t c = (i / xStride[d]) % x->dims[d];
        si += (d == axis ? c / block : c) * sStride[d];
      }
    }
    const float diff = static_cast<float>(xs[i]) - static_cast<float>(zs[si]);
    y.add_float_data(diff * static_cast<float>(ss[si]));
  }
  std::vector<std::string> ins{"x", "x_scale"};
  if (n.input(2)) ins.push_back("x_zero_point");
  replaceByBody17(
      n, ctx, ins, {"y"}, [&](onnx::FunctionBuilder& b) { b.Const("y", y); }, "DequantizeLinear folded");
  ctx.note = std::string(ir::dataTypeName(x->dtype)) + " weight dequantized to float" +
             (block ? " (blocks of " + std::to_string(block) + ")" : "") + ": (x - zero_point) * scale, exact";
  return true;
}

}  // namespace fb::convert::onnx_onnx
