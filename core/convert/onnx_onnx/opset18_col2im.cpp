// Col2Im-18 with constant image and block shapes: the column blocks, laid out as (N, C*K, L1, L2, ...), go
// through a ConvTranspose with group C whose kernel for input channel (c, k) is one-hot at block position k:
// each block element lands where Col2Im puts it, and overlapping elements are summed, as Col2Im sums them.
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"

namespace fb::convert::onnx_onnx {

void col2ImTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  auto image = ctx.constantInts(n.input(1));
  auto block = ctx.constantInts(n.input(2));
  if (!image || !block || image->size() != block->size() || image->empty())
    throw Unsupported("Col2Im: image_shape and block_shape must be constants of the same length");
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->size() != 3) throw Unsupported("Col2Im: the input's shape must be static (N, C*K, L)");
  const size_t sp = image->size();
  auto attrOr = [&](const char* name, int64_t def, size_t len) {
    auto v = n.attrInts(name);
    if (v.empty()) v.assign(len, def);
    return v;
  };
  auto dil = attrOr("dilations", 1, sp), str = attrOr("strides", 1, sp), pads = attrOr("pads", 0, 2 * sp);
  if (dil.size() != sp || str.size() != sp || pads.size() != 2 * sp)
    throw Unsupported("Col2Im: attribute lengths do not match");
  // Values from the file: keep the arithmetic below (products, a divisor) in range.
  constexpr int64_t kLimit = int64_t(1) << 24;
  for (size_t i = 0; i < sp; ++i)
    if ((*block)[i] <= 0 || (*block)[i] > kLimit || (*image)[i] < 0 || (*image)[i] > kLimit || dil[i] <= 0 ||
        dil[i] > kLimit || str[i] <= 0 || str[i] > kLimit || pads[i] < 0 || pads[i] > kLimit || pads[i + sp] < 0 ||
        pads[i + sp] > kLimit)
      throw Unsupported("Col2Im: image/block shapes or attributes out of range");
  int64_t k = 1, blocks = 1;
  std::vector<int64_t> perAxis;
  for (size_t i = 0; i < sp; ++i) {
    if (__builtin_mul_overflow(k, (*block)[i], &k) || k > kLimit) throw Unsupported("Col2Im: the block is too large");
    int64_t l = ((*image)[i] + pads[i] + pads[i + sp] - dil[i] * ((*block)[i] - 1) - 1) / str[i] + 1;
    if (l <= 0) throw Unsupported("Col2Im: no block fits the image");
    perAxis.push_back(l);
    if (__builtin_mul_overflow(blocks, l, &blocks)) throw Unsupported("Col2Im: too many blocks");
  }
  if ((*shape)[1] % k || (*shape)[2] != blocks)
    throw Unsupported("Col2Im: the input's shape does not match image_shape/block_shape");
  const int64_t c = (*shape)[1] / k;
  int64_t weights = 0;
  if (__builtin_mul_overflow(c, k * k, &weights) || weights > kLimit)
    throw Unsupported("Col2Im: the one-hot kernel would be too large");
  onnx::TensorProto w;
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(c * k);
  w.add_dims(1);
  for (auto b : *block) w.add_dims(b);
  for (int64_t ch = 0; ch < c * k; ++ch)
    for (int64_t pos = 0; pos < k; ++pos) w.add_float_data(pos == ch % k ? 1.0f : 0.0f);
  std::vector<int64_t> grid{0, c * k};
  grid.insert(grid.end(), perAxis.begin(), perAxis.end());
  std::string attrs = "group = " + std::to_string(c) + ", kernel_shape = " + intList(*block) +
                      ", dilations = " + intList(dil) + ", strides = " + intList(str) + ", pads = " + intList(pads);
  replaceByBody17(
      n, ctx, {"input", "image_shape", "block_shape"}, {"output"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("grid", grid);
        b.Add("blocks = Reshape(input, grid)");
        b.Const("one_hot", w);
        b.Add(("output = ConvTranspose <" + attrs + "> (blocks, one_hot)").c_str());
      },
      "Col2Im written as Reshape + ConvTranspose with a one-hot kernel");
}

}  // namespace fb::convert::onnx_onnx
