// AffineGrid (opset 20): the sampling grid GridSample reads, theta applied to the normalised coordinates of every
// output position (x along the last axis first, as GridSample expects them). An axis of one element sits at 0.
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/dispatch.h"

namespace fb::eval {

namespace {

double normalised(int64_t i, int64_t len, bool alignCorners) {
  if (len <= 1) return 0;
  const double x = static_cast<double>(i), n = static_cast<double>(len);
  return alignCorners ? -1 + 2 * x / (n - 1) : -1 + (2 * x + 1) / n;
}

template <typename T>
Tensor affineGrid(const Tensor& theta, const std::vector<int64_t>& spatial, bool alignCorners) {
  const int64_t batch = theta.dim(0);
  const size_t k = spatial.size();
  std::vector<int64_t> dims = {batch};
  dims.insert(dims.end(), spatial.begin(), spatial.end());
  dims.push_back(static_cast<int64_t>(k));
  Tensor g = Tensor::empty(theta.dtype(), dims);
  int64_t points = 1;
  for (int64_t d : spatial) points *= d;
  const T* th = theta.data<T>();
  T* out = g.mutableData<T>();
  const int64_t cols = static_cast<int64_t>(k) + 1;
#pragma omp parallel for schedule(static) if (g.size() > 65536)
  for (int64_t job = 0; job < batch * points; ++job) {
    const int64_t n = job / points;
    int64_t rest = job % points;
    // Homogeneous coordinates, innermost spatial axis first: (x, y[, z], 1).
    std::vector<T> h(static_cast<size_t>(cols), T(1));
    for (size_t a = k; a-- > 0;) {
      h[k - 1 - a] = static_cast<T>(normalised(rest % spatial[a], spatial[a], alignCorners));
      rest /= spatial[a];
    }
    const T* m = th + n * static_cast<int64_t>(k) * cols;
    for (size_t r = 0; r < k; ++r) {
      T s = 0;
      for (int64_t q = 0; q < cols; ++q) s += m[r * cols + q] * h[q];
      out[job * static_cast<int64_t>(k) + r] = s;
    }
  }
  return g;
}

}  // namespace

std::vector<Value> affineGridKernel(const KernelContext& c) {
  const Tensor& theta = c.input(0);
  const Tensor& size = c.input(1);
  if (size.rank() != 1 || (size.size() != 4 && size.size() != 5))
    badInput("AffineGrid size " + describe(size) + " is not [N, C, H, W] or [N, C, D, H, W]");
  const std::vector<int64_t> s = size.toInt64s();
  const int64_t k = size.size() - 2;
  if (theta.rank() != 3 || theta.dim(1) != k || theta.dim(2) != k + 1 || theta.dim(0) != s[0])
    badInput("AffineGrid theta " + describe(theta) + " does not fit size [" + std::to_string(s[0]) + ", ...] of " +
             std::to_string(k) + " spatial axes");
  std::vector<int64_t> spatial(s.begin() + 2, s.end());
  for (int64_t d : spatial)
    if (d < 0) badInput("AffineGrid size has a negative dimension");
  const bool alignCorners = c.node.attrInt("align_corners", 0) != 0;
  return {visitFloating(theta.dtype(), [&]<typename T>() { return affineGrid<T>(theta, spatial, alignCorners); })};
}

}  // namespace fb::eval
