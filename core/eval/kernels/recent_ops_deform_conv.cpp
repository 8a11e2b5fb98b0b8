// DeformConv-19/22 (2-D): a grouped convolution whose kernel taps are moved, per output position, by learned
// offsets (offset_group sets of (dy, dx) per tap) and optionally scaled by a mask. A moved tap reads the input
// bilinearly at its fractional position; neighbours outside the image count as zero. Computed in the input's
// float type.
#include <cmath>
#include <string>

#include "eval/kernels/recent_ops.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<int64_t> intsOr(const ir::Node& n, const char* name, std::vector<int64_t> def) {
  return n.hasAttr(name) ? n.attrInts(name) : def;
}

std::vector<Value> deformConv(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(1);
  const Tensor& offset = c.input(2);
  const Tensor* bias = c.optionalInput(3);
  const Tensor* mask = c.optionalInput(4);
  if (x.rank() != 4) unsupported("DeformConv of " + describe(x) + ": only 2-D (4-D input) is implemented");
  if (w.rank() != 4 || offset.rank() != 4 || w.dtype() != x.dtype() || offset.dtype() != x.dtype())
    badInput("DeformConv's W " + describe(w) + " and offset " + describe(offset) + " do not fit X " + describe(x));
  const int64_t n = x.dim(0), ic = x.dim(1), ih = x.dim(2), iw = x.dim(3);
  const int64_t oc = w.dim(0), kh = w.dim(2), kw = w.dim(3);
  const int64_t group = c.node.attrInt("group", 1), offsetGroup = c.node.attrInt("offset_group", 1);
  const std::vector<int64_t> kernel = intsOr(c.node, "kernel_shape", {kh, kw});
  const std::vector<int64_t> strides = intsOr(c.node, "strides", {1, 1});
  const std::vector<int64_t> dilations = intsOr(c.node, "dilations", {1, 1});
  const std::vector<int64_t> pads = intsOr(c.node, "pads", {0, 0, 0, 0});
  if (kernel != std::vector<int64_t>{kh, kw} || strides.size() != 2 || dilations.size() != 2 || pads.size() != 4 ||
      strides[0] < 1 || strides[1] < 1 || dilations[0] < 1 || dilations[1] < 1 || pads[0] < 0 || pads[1] < 0 ||
      pads[2] < 0 || pads[3] < 0)
    badInput("DeformConv's kernel_shape, strides, dilations or pads do not fit W " + describe(w));
  if (group < 1 || offsetGroup < 1 || ic != w.dim(1) * group || oc % group != 0 || ic % offsetGroup != 0)
    badInput("DeformConv's group " + std::to_string(group) + " / offset_group " + std::to_string(offsetGroup) +
             " do not fit X " + describe(x) + " and W " + describe(w));
  const int64_t oh = (ih + pads[0] + pads[2] - ((kh - 1) * dilations[0] + 1)) / strides[0] + 1;
  const int64_t ow = (iw + pads[1] + pads[3] - ((kw - 1) * dilations[1] + 1)) / strides[1] + 1;
  if (oh < 1 || ow < 1) badInput("DeformConv's kernel does not fit the padded input " + describe(x));
  const int64_t taps = kh * kw;
  if (offset.dims() != std::vector<int64_t>{n, offsetGroup * taps * 2, oh, ow})
    badInput("DeformConv's offset must be [" + std::to_string(n) + ", " + std::to_string(offsetGroup * taps * 2) +
             ", " + std::to_string(oh) + ", " + std::to_string(ow) + "], got " + describe(offset));
  if (mask && (mask->dtype() != x.dtype() || mask->dims() != std::vector<int64_t>{n, offsetGroup * taps, oh, ow}))
    badInput("DeformConv's mask must be [" + std::to_string(n) + ", " + std::to_string(offsetGroup * taps) + ", " +
             std::to_string(oh) + ", " + std::to_string(ow) + "], got " + describe(*mask));
  if (bias && (bias->dtype() != x.dtype() || bias->dims() != std::vector<int64_t>{oc}))
    badInput("DeformConv's B must be [" + std::to_string(oc) + "], got " + describe(*bias));

  return {visitFloating(x.dtype(), [&]<typename T>() -> Tensor {
    Tensor y = Tensor::empty(x.dtype(), {n, oc, oh, ow});
    const T* xd = x.data<T>();
    const T* wd = w.data<T>();
    const T* od = offset.data<T>();
    T* yd = y.mutableData<T>();
    const int64_t icPerGroup = ic / group, ocPerGroup = oc / group, icPerOffsetGroup = ic / offsetGroup;
    // Bilinear read of channel plane `plane` at (py, px); corners outside the image are zero.
    auto sample = [&](const T* plane, T py, T px) -> T {
      // Wholly outside (or not a number): nothing to read, and no huge value to convert to an index.
      if (!(py > T(-1) && py < static_cast<T>(ih) && px > T(-1) && px < static_cast<T>(iw))) return T(0);
      const T y0f = std::floor(py), x0f = std::floor(px);
      const T fy = py - y0f, fx = px - x0f;
      const int64_t y0 = static_cast<int64_t>(y0f), x0 = static_cast<int64_t>(x0f);
      T acc = 0;
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
          const int64_t yy = y0 + dy, xx = x0 + dx;
          if (yy < 0 || yy >= ih || xx < 0 || xx >= iw) continue;
          acc += (dy ? fy : 1 - fy) * (dx ? fx : 1 - fx) * plane[yy * iw + xx];
        }
      return acc;
    };
    for (int64_t b = 0; b < n; ++b)
      for (int64_t o = 0; o < oc; ++o) {
        const int64_t g = o / ocPerGroup;
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            T acc = bias ? bias->data<T>()[o] : T(0);
            for (int64_t cc = 0; cc < icPerGroup; ++cc) {
              const int64_t ch = g * icPerGroup + cc;
              const int64_t og = ch / icPerOffsetGroup;
              const T* plane = xd + (b * ic + ch) * ih * iw;
              for (int64_t a = 0; a < kh; ++a)
                for (int64_t e = 0; e < kw; ++e) {
                  const int64_t tap = og * taps + a * kw + e;
                  const T dy = od[((b * offsetGroup * taps * 2 + tap * 2) * oh + i) * ow + j];
                  const T dx = od[((b * offsetGroup * taps * 2 + tap * 2 + 1) * oh + i) * ow + j];
                  const T py = static_cast<T>(i * strides[0] - pads[0] + a * dilations[0]) + dy;
                  const T px = static_cast<T>(j * strides[1] - pads[1] + e * dilations[1]) + dx;
                  T v = sample(plane, py, px) * wd[((o * icPerGroup + cc) * kh + a) * kw + e];
                  if (mask) v *= mask->data<T>()[((b * offsetGroup * taps + tap) * oh + i) * ow + j];
                  acc += v;
                }
            }
            yd[((b * oc + o) * oh + i) * ow + j] = acc;
          }
      }
    return y;
  })};
}

}  // namespace

void registerRecentDeformConvKernels(KernelRegistry& r) {
  r.add("DeformConv", 19, deformConv);
  r.add("DeformConv", 22, deformConv);  // bfloat16 (computed in float)
}

}  // namespace fb::eval
