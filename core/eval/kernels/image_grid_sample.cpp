// GridSample: opset 16 (4-D input, modes bilinear / nearest / bicubic) and opset 20 (any spatial rank, modes
// linear / nearest / cubic), as ONNX's reference (after PyTorch) computes it: grid coordinates are unnormalised
// per axis (grid's last axis lists them innermost axis first), border and reflection move a coordinate that
// leaves the borders back inside, and each tap of the interpolation reads zero (zeros), the nearest edge (border)
// or its mirror image (reflection) when it falls outside. With cubic and border this differs from ONNX Runtime and
// PyTorch, which clamp only the taps: the reference is what ONNX's own tests hold kernels to.
#include <cmath>
#include <string>
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval {

namespace {

enum class Mode { Nearest, Linear, Cubic };
constexpr size_t kMaxAxes = 6;      // spatial axes (ONNX defines no limit; PyTorch stops at 3)
constexpr int64_t kMaxCombos = 64;  // taps of a point: 2^6 (linear, six axes) or 4^3 (cubic, three axes)
enum class Padding { Zeros, Border, Reflection };

// x moved into [lo, hi] by reflecting at the borders as often as needed.
double reflect(double x, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    const double dx = lo - x;
    const double n = std::floor(dx / range);
    const double r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double dx = x - hi;
    const double n = std::floor(dx / range);
    const double r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? hi - r : lo + r;
  }
  return x;
}

double cubicWeight(double d) {
  constexpr double a = -0.75;
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0;
}

struct Setup {
  Mode mode;
  Padding padding;
  bool alignCorners;
};

template <typename T>
Tensor sample(const Tensor& x, const Tensor& grid, const Setup& st) {
  const size_t k = x.rank() - 2;
  const int64_t batch = x.dim(0), channels = x.dim(1);
  std::vector<int64_t> inDims(x.dims().begin() + 2, x.dims().end());
  std::vector<int64_t> outDims = {batch, channels};
  for (size_t a = 1; a + 1 < grid.rank(); ++a) outDims.push_back(grid.dim(a));
  Tensor y = Tensor::empty(x.dtype(), outDims);
  int64_t inPlane = 1, outPlane = 1;
  for (int64_t d : inDims) inPlane *= d;
  for (size_t a = 2; a < outDims.size(); ++a) outPlane *= outDims[a];
  if (y.size() == 0) return y;
  if (inPlane == 0) badInput("GridSample cannot sample an input with an empty spatial axis: " + describe(x));
  std::vector<int64_t> stride(k, 1);
  for (size_t a = k - 1; a-- > 0;) stride[a] = stride[a + 1] * inDims[a + 1];
  const int taps = st.mode == Mode::Nearest ? 1 : st.mode == Mode::Linear ? 2 : 4;
  int64_t combos = 1;
  for (size_t a = 0; a < k; ++a) combos *= taps;
  const T* px = x.data<T>();
  const T* pg = grid.data<T>();
  T* py = y.mutableData<T>();
#pragma omp parallel for schedule(static) if (y.size() > 16384)
  for (int64_t job = 0; job < batch * outPlane; ++job) {
    const int64_t n = job / outPlane, o = job % outPlane;
    const T* g = pg + job * static_cast<int64_t>(k);
    // Per axis: the taps' indices (-1: reads zero) and weights.
    int64_t idx[kMaxAxes * 4];
    double wt[kMaxAxes * 4];
    for (size_t a = 0; a < k; ++a) {
      const double len = static_cast<double>(inDims[a]);
      const double lo = st.alignCorners ? 0 : -0.5, hi = st.alignCorners ? len - 1 : len - 0.5;
      // Unnormalised in the element type, as ONNX Runtime and the reference do (nearest rounds the result).
      const T norm = g[k - 1 - a], lenT = static_cast<T>(inDims[a]);
      double c = static_cast<double>(st.alignCorners ? (norm + 1) / 2 * (lenT - 1) : ((norm + 1) * lenT - 1) / 2);
      if (st.mode == Mode::Nearest) c = k == 3 ? std::round(c) : std::nearbyint(c);
      if (c < lo || c > hi) {
        if (st.padding == Padding::Border) c = std::clamp(c, 0.0, len - 1);
        if (st.padding == Padding::Reflection) c = reflect(c, lo, hi);
      }
      if (!std::isfinite(c)) c = -8;  // a NaN or infinite grid value reads as far outside
      c = std::clamp(c, -8.0, len + 8);
      const double base = st.mode == Mode::Nearest ? std::trunc(c) : std::floor(c);
      const double f = c - base;
      for (int t = 0; t < taps; ++t) {
        const int64_t first = st.mode == Mode::Cubic ? -1 : 0;
        int64_t at = static_cast<int64_t>(base) + first + t;
        double w = 1;
        if (st.mode == Mode::Linear) w = t == 0 ? 1 - f : f;
        if (st.mode == Mode::Cubic) w = cubicWeight(static_cast<double>(first + t) - f);
        if (at < 0 || at >= inDims[a]) {
          if (st.padding == Padding::Zeros)
            at = -1;
          else if (st.padding == Padding::Border)
            at = std::clamp<int64_t>(at, 0, inDims[a] - 1);
          else
            at = std::clamp<int64_t>(static_cast<int64_t>(reflect(static_cast<double>(at), lo, hi)), 0, inDims[a] - 1);
        }
        idx[a * taps + t] = at;
        wt[a * taps + t] = w;
      }
    }
    // The taps of every axis combined once per point (offset and weight), then read for each channel.
    int64_t offsets[kMaxCombos];
    T weights[kMaxCombos];
    int used = 0;
    for (int64_t m = 0; m < combos; ++m) {
      int64_t rest = m, offset = 0;
      T w = 1;
      bool zero = false;
      for (size_t a = k; a-- > 0;) {
        const int t = static_cast<int>(rest % taps);
        rest /= taps;
        const int64_t at = idx[a * taps + t];
        if (at < 0) {
          zero = true;
          break;
        }
        offset += at * stride[a];
        w *= static_cast<T>(wt[a * taps + t]);
      }
      if (zero) continue;
      offsets[used] = offset;
      weights[used++] = w;
    }
    for (int64_t ch = 0; ch < channels; ++ch) {
      const T* plane = px + (n * channels + ch) * inPlane;
      T sum = 0;
      for (int m = 0; m < used; ++m) sum += weights[m] * plane[offsets[m]];
      py[(n * channels + ch) * outPlane + o] = sum;
    }
  }
  return y;
}

}  // namespace

std::vector<Value> gridSampleKernel(const KernelContext& c) {
  const ir::Node& node = c.node;
  const Tensor& x = c.input(0);
  Tensor grid = c.input(1);
  if (x.rank() < 3) badInput("GridSample input " + describe(x) + " has no spatial axes");
  if (c.opset < 20 && x.rank() != 4) badInput("GridSample-16 takes a 4-D input, not " + describe(x));
  if (grid.rank() != x.rank() || grid.dim(0) != x.dim(0) || grid.dim(grid.rank() - 1) != int64_t(x.rank() - 2))
    badInput("GridSample grid " + describe(grid) + " does not fit input " + describe(x));
  const bool newNames = c.opset >= 20;
  const std::string mode = node.attrString("mode", newNames ? "linear" : "bilinear");
  Setup st{};
  if (mode == "nearest")
    st.mode = Mode::Nearest;
  else if (mode == (newNames ? "linear" : "bilinear"))
    st.mode = Mode::Linear;
  else if (mode == (newNames ? "cubic" : "bicubic"))
    st.mode = Mode::Cubic;
  else
    badInput("GridSample mode '" + mode.substr(0, 32) + "' is not known at opset " + std::to_string(c.opset));
  const std::string padding = node.attrString("padding_mode", "zeros");
  if (padding == "zeros")
    st.padding = Padding::Zeros;
  else if (padding == "border")
    st.padding = Padding::Border;
  else if (padding == "reflection")
    st.padding = Padding::Reflection;
  else
    badInput("GridSample padding_mode '" + padding.substr(0, 32) + "' is not known");
  st.alignCorners = node.attrInt("align_corners", 0) != 0;
  if (x.rank() - 2 > kMaxAxes) unsupported("GridSample beyond " + std::to_string(kMaxAxes) + " spatial axes");
  if (st.mode == Mode::Cubic && x.rank() - 2 > 3) unsupported("GridSample cubic beyond three spatial axes");
  if (!ir::isFloatingPoint(x.dtype())) unsupported("GridSample of " + describe(x) + " (float types only)");
  if (!ir::isFloatingPoint(grid.dtype())) badInput("GridSample grid " + describe(grid) + " is not of a float type");
  if (grid.dtype() != x.dtype()) grid = castTensor(grid, x.dtype());
  return {visitFloating(x.dtype(), [&]<typename T>() { return sample<T>(x, grid, st); })};
}

}  // namespace fb::eval
