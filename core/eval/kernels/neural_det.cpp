// Det: LU decomposition with partial pivoting per matrix, in the input's float type (oneDNN has no determinant).
#include <cmath>
#include <vector>

#include "eval/kernels/neural_families.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

template <typename T>
T determinant(std::vector<T>& a, int64_t n) {
  T det = 1;
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col])) pivot = r;
    if (a[pivot * n + col] == T{0}) return T{0};
    if (pivot != col) {
      for (int64_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
      det = -det;
    }
    const T p = a[col * n + col];
    det *= p;
    for (int64_t r = col + 1; r < n; ++r) {
      const T f = a[r * n + col] / p;
      for (int64_t k = col; k < n; ++k) a[r * n + k] -= f * a[col * n + k];
    }
  }
  return det;
}

std::vector<Value> det(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2))
    badInput("Det needs square matrices [..., M, M], given " + describe(x));
  const int64_t n = x.dim(x.rank() - 1);
  std::vector<int64_t> outDims(x.dims().begin(), x.dims().end() - 2);
  Tensor y = Tensor::empty(x.dtype(), outDims);
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    std::vector<T> m(static_cast<size_t>(n * n));
    for (int64_t b = 0; b < y.size(); ++b) {
      std::copy(px + b * n * n, px + (b + 1) * n * n, m.begin());
      y.mutableData<T>()[b] = determinant(m, n);
    }
  });
  return {y};
}

}  // namespace

void registerDetKernels(KernelRegistry& r) { r.add("Det", 11, det); }

}  // namespace fb::eval
