// AveragePool-19/22 with dilations other than 1: opset 17's AveragePool has no dilations, but a depthwise Conv
// with every weight 1/|kernel| and the same dilations sums the same window elements and divides by the same
// count, whenever that count does not vary (no padding, or padding counted).
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"
#include "schema/opsets_18_26/static_shapes.h"

namespace fb::convert::onnx_onnx {

// Elements of one channel's kernel; the depthwise weights (channels x that) are written out, so both come
// from the file and must stay small.
static int64_t kernelWeightCount(const ir::Node& n, int64_t channels, const std::vector<int64_t>& kernel) {
  constexpr int64_t kLimit = int64_t(1) << 24;
  int64_t count = 1, total = 0;
  for (auto k : kernel)
    if (k <= 0 || __builtin_mul_overflow(count, k, &count) || count > kLimit)
      throw Unsupported(n.opType + ": kernel_shape empty or too large for a written-out Conv kernel");
  if (kernel.empty() || channels <= 0 || __builtin_mul_overflow(channels, count, &total) || total > kLimit)
    throw Unsupported(n.opType + ": channels x kernel too large for a written-out Conv kernel");
  return count;
}

// The depthwise Conv a dilated pool becomes: every weight `value` (channels x 1 x kernel), and the Conv attributes
// that carry the pool's window, dilations, strides, pads and auto_pad.
struct DepthwiseConv {
  onnx::TensorProto weights;
  std::string attrs;
};

static DepthwiseConv depthwiseConvFor(const ir::Node& n, int64_t channels, const std::vector<int64_t>& kernel,
                                      int64_t count, float value, const std::vector<int64_t>& pads) {
  DepthwiseConv c;
  c.weights.set_data_type(onnx::TensorProto::FLOAT);
  c.weights.add_dims(channels);
  c.weights.add_dims(1);
  for (auto k : kernel) c.weights.add_dims(k);
  for (int64_t i = 0; i < channels * count; ++i) c.weights.add_float_data(value);
  c.attrs = "kernel_shape = " + intList(kernel) + ", group = " + std::to_string(channels) +
            ", dilations = " + intList(n.attrInts("dilations"));
  if (n.hasAttr("strides")) c.attrs += ", strides = " + intList(n.attrInts("strides"));
  if (!pads.empty()) c.attrs += ", pads = " + intList(pads);
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET") c.attrs += ", auto_pad = \"" + autoPad + "\"";
  return c;
}

void averagePoolDilatedTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  if (n.attrInt("ceil_mode", 0) != 0)
    throw Unsupported("AveragePool-19 dilations with ceil_mode=1: windows past the end have no Conv form");
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  auto pads = n.attrInts("pads");
  const bool padded = (autoPad != "NOTSET" && autoPad != "VALID") ||
                      std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; });
  if (padded && n.attrInt("count_include_pad", 0) == 0)
    throw Unsupported("AveragePool-19 dilations with padding not counted: the divisor varies per window; no Conv form");
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->size() < 3) throw Unsupported("AveragePool-19 dilations: the channel count must be static");
  const int64_t channels = (*shape)[1];
  auto kernel = n.attrInts("kernel_shape");
  const int64_t count = kernelWeightCount(n, channels, kernel);
  const DepthwiseConv conv =
      depthwiseConvFor(n, channels, kernel, count, 1.0f / static_cast<float>(count), n.attrInts("pads"));
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Const("mean_weights", conv.weights);
        b.Add(("Y = Conv <" + conv.attrs + "> (X, mean_weights)").c_str());
      },
      "AveragePool with dilations written as a depthwise Conv of 1/" + std::to_string(count));
}

}  // namespace fb::convert::onnx_onnx

namespace fb::convert::onnx_onnx {

// LpPool-18/22 with dilations other than 1: (sum over the dilated window of |x|^p)^(1/p), the sum being a
// depthwise Conv of ones with the same dilations.
void lpPoolDilatedTo17(ir::Node& n, HandlerContext& ctx, const std::vector<int64_t>& pads) {
  requireFloat32(n, ctx);
  auto shape = ctx.staticShape(n.input(0));
  if (!shape || shape->size() < 3) throw Unsupported("LpPool-18 dilations: the channel count must be static");
  const int64_t channels = (*shape)[1];
  const int64_t p = n.attrInt("p", 2);
  auto kernel = n.attrInts("kernel_shape");
  const int64_t count = kernelWeightCount(n, channels, kernel);
  const DepthwiseConv conv = depthwiseConvFor(n, channels, kernel, count, 1.0f, pads);
  replaceByBody17(
      n, ctx, {"X"}, {"Y"},
      [&](onnx::FunctionBuilder& b) {
        b.Add("ax = Abs(X)");
        b.Add(("p = Constant <value_float = " + floatText(static_cast<double>(p)) + "> ()").c_str());
        b.Add(("inv_p = Constant <value_float = " + floatText(1.0 / static_cast<double>(p)) + "> ()").c_str());
        b.Add("powered = Pow(ax, p)");
        b.Const("ones", conv.weights);
        b.Add(("summed = Conv <" + conv.attrs + "> (powered, ones)").c_str());
        b.Add("Y = Pow(summed, inv_p)");
      },
      "LpPool with dilations written as Abs/Pow + depthwise Conv of ones + Pow(1/p)");
}

}  // namespace fb::convert::onnx_onnx

namespace fb::convert::onnx_onnx {

// LpPool-18/22 with ceil_mode=1: the windows ceil_mode adds run past the end of the padded input and sum what is
// there. Explicit end pads that reach the last window's end give opset 17's floor rule the same windows, and the
// padding's zeros add nothing to a sum of |x|^p. The output size is FlowBridge's pool rule's (a window that would
// start in the end padding is dropped, as opset 22 says), so the input's spatial dims must be static.
std::vector<int64_t> lpPoolCeilModePads(const ir::Node& n, const HandlerContext& ctx) {
  if (n.attrString("auto_pad", "NOTSET") != "NOTSET")
    throw Unsupported("LpPool-18 ceil_mode=1 with auto_pad: only explicit pads have an opset-17 form");
  const auto in = ctx.staticShape(n.input(0));
  if (!in || in->size() < 3)
    throw Unsupported("LpPool-18 ceil_mode=1: the input's spatial dims must be static to write the end pads");
  const size_t sp = in->size() - 2;
  const schema::DimsOf dimsOf = [&](const ir::Value* v) { return v == n.input(0) ? in : std::nullopt; };
  const schema::ValuesOf valuesOf = [](const ir::Value*) -> const std::vector<int64_t>* { return nullptr; };
  const auto outs = schema::opsets_18_26::staticOutputShapes(n, ctx.sourceOpset, dimsOf, valuesOf);
  if (outs.empty() || !outs[0] || outs[0]->size() != in->size())
    throw Unsupported("LpPool-18 ceil_mode=1: the pooling attributes do not give an output size");
  std::vector<int64_t> k = n.attrInts("kernel_shape"), s = n.attrInts("strides"), d = n.attrInts("dilations"),
                       pads = n.attrInts("pads");
  if (s.empty()) s.assign(sp, 1);
  if (d.empty()) d.assign(sp, 1);
  if (pads.empty()) pads.assign(2 * sp, 0);
  for (size_t i = 0; i < sp; ++i) {
    const int64_t x = (*in)[i + 2], o = (*outs[0])[i + 2], window = (k[i] - 1) * d[i] + 1;
    const int64_t end = std::max(pads[i + sp], (o - 1) * s[i] + window - x - pads[i]);
    // What opset 17 computes with these pads; a larger count would mean padding wider than the kernel.
    if ((x + pads[i] + end - window) / s[i] + 1 != o)
      throw Unsupported("LpPool-18 ceil_mode=1: end padding wider than the window has no opset-17 form");
    pads[i + sp] = end;
  }
  return pads;
}

}  // namespace fb::convert::onnx_onnx
