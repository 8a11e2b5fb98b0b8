// New ops of opsets 18-23 whose ONNX definition (a function body, or the operator text) has an exact opset-17
// expression: each written here as an opset-17 body for the node at hand. Float only where ONNX Runtime's
// kernels are float only; shapes must be static where the body needs sizes as constants.
#include <algorithm>
#include <cmath>
#include <string>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"
#include "ir/graph.h"

namespace fb::convert::onnx_onnx {
namespace {

std::string ints(const std::vector<int64_t>& v) { return intList(v); }

std::vector<int64_t> requireStaticShape(const ir::Node& n, const HandlerContext& ctx, const char* why) {
  auto s = ctx.staticShape(n.input(0));
  if (!s) throw Unsupported(n.opType + ": the input's shape is not static, and " + why);
  return *s;
}

}  // namespace

// GroupNormalization: mean and variance over each group of channels (and all spatial positions), then the
// scale and bias: per group at 18, per channel at 21 (stash_type only matters for non-float inputs).
void groupNormalizationTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  if (!n.hasAttr("num_groups")) throw Unsupported("GroupNormalization: num_groups is missing");
  const int64_t groups = n.attrInt("num_groups", 1);
  const double eps = n.attrFloat("epsilon", 1e-5f);
  const bool perChannel = ctx.sourceOpset >= 21;
  auto rank = ctx.rank(n.input(0));
  if (perChannel && !rank)
    throw Unsupported("GroupNormalization-21: the input's rank is unknown (scale must broadcast per channel)");
  replaceByBody17(
      n, ctx, {"X", "scale", "bias"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("grouped", std::vector<int64_t>{0, groups, -1});
        b.Add("xg = Reshape(X, grouped)");
        b.Add("mean = ReduceMean <axes = [2], keepdims = 1> (xg)");
        b.Add("d = Sub(xg, mean)");
        b.Add("d2 = Mul(d, d)");
        b.Add("var = ReduceMean <axes = [2], keepdims = 1> (d2)");
        b.Add(("eps = Constant <value_float = " + floatText(eps) + "> ()").c_str());
        b.Add("ve = Add(var, eps)");
        b.Add("sd = Sqrt(ve)");
        b.Add("norm = Div(d, sd)");
        b.Add("xshape = Shape(X)");
        if (!perChannel) {
          b.Const("pergroup", std::vector<int64_t>{groups, 1});
          b.Add("sg = Reshape(scale, pergroup)");
          b.Add("bg = Reshape(bias, pergroup)");
          b.Add("scaled = Mul(norm, sg)");
          b.Add("shifted = Add(scaled, bg)");
          b.Add("Y = Reshape(shifted, xshape)");
        } else {
          std::vector<int64_t> perCh{-1};
          for (int64_t i = 2; i < *rank; ++i) perCh.push_back(1);
          b.Const("perchannel", perCh);
          b.Add("back = Reshape(norm, xshape)");
          b.Add("sc = Reshape(scale, perchannel)");
          b.Add("bc = Reshape(bias, perchannel)");
          b.Add("scaled = Mul(back, sc)");
          b.Add("Y = Add(scaled, bc)");
        }
      },
      perChannel ? "GroupNormalization-21 written with opset-17 ops (scale/bias per channel)"
                 : "GroupNormalization-18 written with opset-17 ops (scale/bias per group)");
}

// RMSNormalization: x / sqrt(mean(x^2 over axes [axis, rank)) + epsilon) * scale.
void rmsNormalizationTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  int64_t axis = n.attrInt("axis", -1);
  std::vector<int64_t> axes;
  if (axis == -1) {
    axes = {-1};
  } else {
    auto rank = ctx.rank(n.input(0));
    if (!rank)
      throw Unsupported("RMSNormalization: axis=" + std::to_string(axis) + " needs the rank, which is unknown");
    for (int64_t a = axis < 0 ? axis + *rank : axis; a < *rank; ++a) axes.push_back(a);
  }
  const double eps = n.attrFloat("epsilon", 1e-5f);
  replaceByBody17(
      n, ctx, {"X", "scale"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Add("x2 = Mul(X, X)");
        b.Add(("ms = ReduceMean <axes = " + ints(axes) + ", keepdims = 1> (x2)").c_str());
        b.Add(("eps = Constant <value_float = " + floatText(eps) + "> ()").c_str());
        b.Add("me = Add(ms, eps)");
        b.Add("rms = Sqrt(me)");
        b.Add("norm = Div(X, rms)");
        b.Add("Y = Mul(norm, scale)");
      },
      "RMSNormalization written with opset-17 ops");
}

// RotaryEmbedding: the first rotary_embedding_dim channels of each head rotate by the position's angle, as
// halves (x1, x2) or as interleaved pairs; the rest pass through.
void rotaryEmbeddingTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  auto rank = ctx.rank(n.input(0));
  if (!rank || (*rank != 3 && *rank != 4))
    throw Unsupported("RotaryEmbedding: the input's rank must be known (3 or 4)");
  const int64_t heads = n.attrInt("num_heads", 0);
  if (*rank == 3 && heads <= 0) throw Unsupported("RotaryEmbedding: a 3-D input needs num_heads");
  const bool interleaved = n.attrInt("interleaved", 0) != 0;
  const int64_t rd = n.attrInt("rotary_embedding_dim", 0);
  const bool positions = n.input(3) != nullptr;
  replaceByBody17(
      n, ctx,
      positions ? std::vector<std::string>{"X", "cos_cache", "sin_cache", "position_ids"}
                : std::vector<std::string>{"X", "cos_cache", "sin_cache"},
      {"Y"},
      [&](onnx::FunctionBuilder& b) {
        // x4: (batch, heads, seq, head) for 4-D input, (batch, seq, heads, head) for 3-D; cos/sin broadcast over heads.
        if (*rank == 3) {
          b.Const("split_heads", std::vector<int64_t>{0, 0, heads, -1});
          b.Add("x4 = Reshape(X, split_heads)");
        } else {
          b.Add("x4 = Identity(X)");
        }
        if (positions) {
          b.Add("cg = Gather <axis = 0> (cos_cache, position_ids)");
          b.Add("sg = Gather <axis = 0> (sin_cache, position_ids)");
        } else {
          b.Add("cg = Identity(cos_cache)");
          b.Add("sg = Identity(sin_cache)");
        }
        b.Const("head_axis", std::vector<int64_t>{*rank == 3 ? 2 : 1});
        b.Add("cos = Unsqueeze(cg, head_axis)");
        b.Add("sin = Unsqueeze(sg, head_axis)");
        if (rd > 0) {
          b.Const("rot_start", std::vector<int64_t>{0});
          b.Const("rot_end", std::vector<int64_t>{rd});
          b.Const("pass_end", std::vector<int64_t>{INT64_MAX});
          b.Const("last", std::vector<int64_t>{3});
          b.Add("xr = Slice(x4, rot_start, rot_end, last)");
          b.Add("xp = Slice(x4, rot_end, pass_end, last)");
        } else {
          b.Add("xr = Identity(x4)");
        }
        if (!interleaved) {
          b.Add("x1, x2 = Split <axis = 3> (xr)");
        } else {
          b.Const("pairs", std::vector<int64_t>{0, 0, 0, -1, 2});
          b.Const("pair_axis", std::vector<int64_t>{4});
          b.Add("xpairs = Reshape(xr, pairs)");
          b.Add("p1, p2 = Split <axis = 4> (xpairs)");
          b.Add("x1 = Squeeze(p1, pair_axis)");
          b.Add("x2 = Squeeze(p2, pair_axis)");
        }
        b.Add("c1 = Mul(cos, x1)");
        b.Add("s2 = Mul(sin, x2)");
        b.Add("real = Sub(c1, s2)");
        b.Add("s1 = Mul(sin, x1)");
        b.Add("c2 = Mul(cos, x2)");
        b.Add("imag = Add(s1, c2)");
        if (!interleaved) {
          b.Add("rot = Concat <axis = 3> (real, imag)");
        } else {
          b.Add("ru = Unsqueeze(real, pair_axis)");
          b.Add("iu = Unsqueeze(imag, pair_axis)");
          b.Add("rpairs = Concat <axis = 4> (ru, iu)");
          b.Const("unpair", std::vector<int64_t>{0, 0, 0, -1});
          b.Add("rot = Reshape(rpairs, unpair)");
        }
        const char* out4 = *rank == 3 ? "y4" : "Y";
        std::string joined =
            rd > 0 ? std::string(out4) + " = Concat <axis = 3> (rot, xp)" : std::string(out4) + " = Identity(rot)";
        b.Add(joined.c_str());
        if (*rank == 3) {
          b.Const("merge_heads", std::vector<int64_t>{0, 0, -1});
          b.Add("Y = Reshape(y4, merge_heads)");
        }
      },
      std::string("RotaryEmbedding written with opset-17 ops (") + (interleaved ? "interleaved" : "halves") + ")");
}

// AffineGrid: the base grid of normalized coordinates (x along W first; a constant for a constant size) times
// theta transposed.
void affineGridTo17(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && t != ir::DataType::Float)
    throw Unsupported("AffineGrid on " + std::string(ir::dataTypeName(t)) + ": only float is decomposed");
  auto size = ctx.constantInts(n.input(1));
  if (!size || (size->size() != 4 && size->size() != 5))
    throw Unsupported("AffineGrid: size must be a constant of 4 or 5 values; the base grid is built from it");
  const bool align = n.attrInt("align_corners", 0) != 0;
  const size_t spatial = size->size() - 2;
  std::vector<int64_t> dims(size->begin() + 2, size->end());  // (H, W) or (D, H, W)
  auto coord = [&](int64_t i, int64_t count) -> double {
    if (align) return count == 1 ? 0.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(count - 1);
    return (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(count) - 1.0;
  };
  int64_t points = 1;
  for (auto d : dims) {
    if (d <= 0) throw Unsupported("AffineGrid: size holds a non-positive dimension");
    points *= d;
  }
  if (align)
    for (auto d : dims)
      if (d == 1) throw Unsupported("AffineGrid: align_corners=1 with a dimension of 1 is not decomposed");
  if (points > (1 << 22)) throw Unsupported("AffineGrid: the base grid would hold more than 4M points");
  std::vector<float> base;
  base.reserve(static_cast<size_t>(points) * (spatial + 1));
  for (int64_t p = 0; p < points; ++p) {
    // p runs over (D,) H, W with W fastest; a row is (x, y[, z], 1).
    std::vector<int64_t> idx(spatial);
    int64_t rest = p;
    for (size_t k = spatial; k-- > 0;) {
      idx[k] = rest % dims[k];
      rest /= dims[k];
    }
    for (size_t k = spatial; k-- > 0;) base.push_back(static_cast<float>(coord(idx[k], dims[k])));
    base.push_back(1.0f);
  }
  std::vector<int64_t> outShape{(*size)[0]};
  outShape.insert(outShape.end(), dims.begin(), dims.end());
  outShape.push_back(static_cast<int64_t>(spatial));
  replaceByBody17(
      n, ctx, {"theta", "size"}, {"grid"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("base", floatTensor({points, static_cast<int64_t>(spatial + 1)}, base));
        b.Add("thetaT = Transpose <perm = [0, 2, 1]> (theta)");
        b.Add("flat = MatMul(base, thetaT)");
        b.Const("grid_shape", outShape);
        b.Add("grid = Reshape(flat, grid_shape)");
      },
      "AffineGrid written as a constant base grid times theta");
}

// CenterCropPad: per axis, a centered window when the input is larger (Slice), centered zero padding when it
// is smaller (Pad); the odd element goes to the end in both cases.
void centerCropPadTo17(ir::Node& n, HandlerContext& ctx) {
  auto shape = requireStaticShape(n, ctx, "the crop and pad amounts must be constants at opset 17");
  auto target = ctx.constantInts(n.input(1));
  if (!target) throw Unsupported("CenterCropPad: shape is computed at run time; opset 17 needs constant amounts");
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> axes = n.hasAttr("axes") ? n.attrInts("axes") : std::vector<int64_t>{};
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  if (axes.size() != target->size()) throw Unsupported("CenterCropPad: shape and axes differ in length");
  std::vector<int64_t> sliceAxes, starts, ends, pads(2 * rank, 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a = axes[k] < 0 ? axes[k] + rank : axes[k];
    if (a < 0 || a >= rank) throw Unsupported("CenterCropPad: axis out of range");
    int64_t in = shape[a], want = (*target)[k];
    if (in > want) {
      sliceAxes.push_back(a);
      starts.push_back((in - want) / 2);
      ends.push_back((in - want) / 2 + want);
    } else if (in < want) {
      pads[a] = (want - in) / 2;
      pads[a + rank] = want - in - (want - in) / 2;
    }
  }
  const bool padding = std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; });
  replaceByBody17(
      n, ctx, {"input_data", "shape"}, {"output_data"},
      [&](onnx::FunctionBuilder& b) {
        std::string cur = "input_data";
        if (!sliceAxes.empty()) {
          b.Const("starts", starts);
          b.Const("ends", ends);
          b.Const("axes", sliceAxes);
          b.Add(
              (std::string(padding ? "cropped" : "output_data") + " = Slice(input_data, starts, ends, axes)").c_str());
          cur = "cropped";
        }
        if (padding) {
          b.Const("pads", pads);
          b.Add(("output_data = Pad(" + cur + ", pads)").c_str());
        } else if (sliceAxes.empty()) {
          b.Add("output_data = Identity(input_data)");
        }
      },
      "CenterCropPad written as Slice/Pad with constant amounts");
}

// BitwiseNot: ~x = (all ones) - x, exact for every integer type (two's complement, no overflow).
void bitwiseNotTo17(ir::Node& n, HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  size_t width = 0;
  onnx::TensorProto ones;
  switch (t) {
    case ir::DataType::Int8:
      width = 1;
      ones.set_data_type(onnx::TensorProto::INT8);
      break;
    case ir::DataType::UInt8:
      width = 1;
      ones.set_data_type(onnx::TensorProto::UINT8);
      break;
    case ir::DataType::Int16:
      width = 2;
      ones.set_data_type(onnx::TensorProto::INT16);
      break;
    case ir::DataType::UInt16:
      width = 2;
      ones.set_data_type(onnx::TensorProto::UINT16);
      break;
    case ir::DataType::Int32:
      width = 4;
      ones.set_data_type(onnx::TensorProto::INT32);
      break;
    case ir::DataType::UInt32:
      width = 4;
      ones.set_data_type(onnx::TensorProto::UINT32);
      break;
    case ir::DataType::Int64:
      width = 8;
      ones.set_data_type(onnx::TensorProto::INT64);
      break;
    case ir::DataType::UInt64:
      width = 8;
      ones.set_data_type(onnx::TensorProto::UINT64);
      break;
    default:
      throw Unsupported("BitwiseNot: the input's integer type is unknown; the all-ones constant needs it");
  }
  ones.set_raw_data(std::string(width, '\xff'));
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("ones", ones);
        b.Add("Y = Sub(ones, X)");
      },
      "BitwiseNot written as (all ones) - x");
}

}  // namespace fb::convert::onnx_onnx
