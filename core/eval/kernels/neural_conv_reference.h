#pragma once
// Convolution and transposed convolution as plain loops over any spatial rank: the kernels for element types and
// ranks oneDNN has no primitive for (double, the integer variants, more than three spatial dims), and what the
// quantized variants accumulate in. Positions in the padding contribute nothing.
#include <cstdint>
#include <vector>

#include "eval/kernels/neural_window.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

// The shapes of one (transposed) convolution: batch, input and output channels, groups, and the window.
struct ConvShape {
  int64_t batch = 0, inChannels = 0, outChannels = 0, groups = 1;
  Window window;
};

// Windows larger than this are refused: a pooling kernel_shape is only an attribute, and 2^20 x 2^20 of it in a
// file of a few hundred bytes must not enumerate 2^40 positions.
inline constexpr int64_t kMaxWindowPositions = int64_t{1} << 24;

// Each kernel position's spatial offsets (before dilation), in row-major order.
inline std::vector<std::vector<int64_t>> kernelOffsets(const std::vector<int64_t>& kernel) {
  std::vector<std::vector<int64_t>> all;
  std::vector<int64_t> k(kernel.size(), 0);
  int64_t count = 1;
  for (int64_t d : kernel)
    if (d < 0 || __builtin_mul_overflow(count, d, &count) || count > kMaxWindowPositions)
      unsupported("a window of more than 2^24 positions");
  all.reserve(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) {
    all.push_back(k);
    for (size_t a = kernel.size(); a-- > 0;) {
      if (++k[a] < kernel[a]) break;
      k[a] = 0;
    }
  }
  return all;
}

// y[n, m, o...] = sum over the group's input channels c and kernel positions k of x[n, c, o*s - pb + k*d] *
// w[m, c, k]; `x(index)` and `w(index)` give elements as Acc, store(index, acc) writes output element `index`.
template <typename Acc, typename XAt, typename WAt, typename Store>
void convolveReference(const ConvShape& s, XAt x, WAt w, Store store) {
  const Window& win = s.window;
  const size_t r = win.rank();
  const auto offsets = kernelOffsets(win.kernel);
  const int64_t inSpatial = win.inCount(), outSpatial = win.outCount(), kSize = win.kernelCount();
  const int64_t cPerGroup = s.inChannels / s.groups, mPerGroup = s.outChannels / s.groups;
  std::vector<int64_t> o(r, 0), inputAt(offsets.size());
  for (int64_t op = 0; op < outSpatial; ++op) {
    // The input position each kernel position reads at this output position (-1: padding).
    for (size_t k = 0; k < offsets.size(); ++k) {
      int64_t flat = 0;
      for (size_t a = 0; a < r; ++a) {
        const int64_t p = o[a] * win.strides[a] - win.padBegin[a] + offsets[k][a] * win.dilations[a];
        if (p < 0 || p >= win.in[a]) {
          flat = -1;
          break;
        }
        flat = flat * win.in[a] + p;
      }
      inputAt[k] = flat;
    }
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t g = 0; g < s.groups; ++g)
        for (int64_t mg = 0; mg < mPerGroup; ++mg) {
          const int64_t m = g * mPerGroup + mg;
          Acc acc{};
          for (int64_t cg = 0; cg < cPerGroup; ++cg) {
            const int64_t xBase = (n * s.inChannels + g * cPerGroup + cg) * inSpatial;
            const int64_t wBase = (m * cPerGroup + cg) * kSize;
            for (int64_t k = 0; k < kSize; ++k)
              if (inputAt[k] >= 0) acc += x(xBase + inputAt[k]) * w(wBase + k);
          }
          store((n * s.outChannels + m) * outSpatial + op, acc);
        }
    for (size_t a = r; a-- > 0;) {
      if (++o[a] < win.out[a]) break;
      o[a] = 0;
    }
  }
}

// The transposed convolution: each input element x[n, c, i...] adds x * w[c, m, k] to y[n, m, i*s - pb + k*d]
// (W is [C, M/groups, kernel...]). `y` must start zeroed (or at the bias); add(index, value) accumulates.
template <typename Acc, typename XAt, typename WAt, typename Add>
void convolveTransposedReference(const ConvShape& s, XAt x, WAt w, Add add) {
  const Window& win = s.window;  // `in` is X's spatial dims, `out` Y's
  const size_t r = win.rank();
  const auto offsets = kernelOffsets(win.kernel);
  const int64_t inSpatial = win.inCount(), outSpatial = win.outCount(), kSize = win.kernelCount();
  const int64_t cPerGroup = s.inChannels / s.groups, mPerGroup = s.outChannels / s.groups;
  std::vector<int64_t> i(r, 0), outputAt(offsets.size());
  for (int64_t ip = 0; ip < inSpatial; ++ip) {
    for (size_t k = 0; k < offsets.size(); ++k) {
      int64_t flat = 0;
      for (size_t a = 0; a < r; ++a) {
        const int64_t p = i[a] * win.strides[a] - win.padBegin[a] + offsets[k][a] * win.dilations[a];
        if (p < 0 || p >= win.out[a]) {
          flat = -1;
          break;
        }
        flat = flat * win.out[a] + p;
      }
      outputAt[k] = flat;
    }
    for (int64_t n = 0; n < s.batch; ++n)
      for (int64_t g = 0; g < s.groups; ++g)
        for (int64_t cg = 0; cg < cPerGroup; ++cg) {
          const int64_t c = g * cPerGroup + cg;
          const Acc xv = x((n * s.inChannels + c) * inSpatial + ip);
          for (int64_t mg = 0; mg < mPerGroup; ++mg) {
            const int64_t m = g * mPerGroup + mg;
            const int64_t wBase = (c * mPerGroup + mg) * kSize;
            const int64_t yBase = (n * s.outChannels + m) * outSpatial;
            for (int64_t k = 0; k < kSize; ++k)
              if (outputAt[k] >= 0) add(yBase + outputAt[k], xv * w(wBase + k));
          }
        }
    for (size_t a = r; a-- > 0;) {
      if (++i[a] < win.in[a]) break;
      i[a] = 0;
    }
  }
}

}  // namespace fb::eval
