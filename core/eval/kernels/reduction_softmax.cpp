// Softmax, LogSoftmax and Hardmax. Their meaning changed at opset 13: before it the input is seen as a 2-D matrix
// [prod(dims before axis), prod(dims from axis)] (axis defaults to 1) and each row is normalised; from 13 they work
// along the one axis given (default -1). Both are a walk over (outer, axis, inner), the older form with inner = 1.
// Float math stays in the element type (rows of floats take reduction_exp.h's four-lane exp); the row's maximum
// is subtracted first so exp never overflows.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_exp.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

enum class Normalise { Softmax, LogSoftmax, Hardmax };

AxisSplit layoutFor(const KernelContext& c, const Tensor& x) {
  if (c.opset >= 13) {
    const size_t axis = normalizeAxis(c.node.attrInt("axis", -1), std::max<size_t>(x.rank(), 1));
    return splitAt(x.dims(), axis);
  }
  // Coerced to 2-D: axis may equal the rank (then every row holds one element).
  const int64_t rank = static_cast<int64_t>(x.rank());
  int64_t axis = c.node.attrInt("axis", 1);
  if (axis < -rank || axis > rank)
    badInput("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  AxisSplit s;
  for (int64_t k = 0; k < rank; ++k) (k < axis ? s.outer : s.axis) *= x.dim(static_cast<size_t>(k));
  return s;
}

// The row's largest element (a NaN is passed over here; it spoils the row through exp).
template <typename T>
T rowMax(const T* x, int64_t n) {
  int64_t a = 1;
  T m = x[0];
#if defined(__SSE2__)
  if constexpr (std::is_same_v<T, float>) {
    if (n >= 4) {
      __m128 m4 = _mm_loadu_ps(x);
      for (a = 4; a + 4 <= n; a += 4) m4 = _mm_max_ps(_mm_loadu_ps(x + a), m4);
      float lanes[4];
      _mm_storeu_ps(lanes, m4);
      m = lanes[0];
      for (float l : lanes) m = l > m ? l : m;
    }
  }
#endif
  for (; a < n; ++a) m = x[a] > m ? x[a] : m;
  return m;
}

// y[a] *= factor over the row.
template <typename T>
void scaleRow(T* y, int64_t n, T factor) {
  int64_t a = 0;
#if defined(__SSE2__)
  if constexpr (std::is_same_v<T, float>) {
    const __m128 f = _mm_set1_ps(factor);
    for (; a + 4 <= n; a += 4) _mm_storeu_ps(y + a, _mm_mul_ps(_mm_loadu_ps(y + a), f));
  }
#endif
  for (; a < n; ++a) y[a] *= factor;
}

// Sum of exp(x - shift) over the row, each exp stored in y when `store`.
template <typename T>
T rowExpSum(const T* x, T* y, int64_t n, T shift, bool store) {
  if constexpr (std::is_same_v<T, float>) {
    return expSumOfRow(x, store ? y : nullptr, n, shift);
  } else {
    T sum = 0;
    for (int64_t a = 0; a < n; ++a) {
      const T e = std::exp(x[a] - shift);
      if (store) y[a] = e;
      sum += e;
    }
    return sum;
  }
}

// One contiguous row of `n` (> 0) elements, normalised into `y`. A NaN in the row makes the whole row NaN.
template <typename T>
void normaliseRow(const T* x, T* y, int64_t n, Normalise how) {
  if (how == Normalise::Hardmax) {
    int64_t at = 0;
    for (int64_t a = 1; a < n; ++a)
      if (x[a] > x[at]) at = a;
    for (int64_t a = 0; a < n; ++a) y[a] = a == at ? T{1} : T{0};
    return;
  }
  T mx = rowMax(x, n);
  if (std::isinf(mx)) mx = mx > 0 ? mx : T{0};  // all -inf: exp gives 0s; +inf: NaN, as other runtimes
  if (how == Normalise::Softmax) {
    scaleRow(y, n, T{1} / rowExpSum(x, y, n, mx, true));
    return;
  }
  const T shift = mx + std::log(rowExpSum(x, y, n, mx, false));
  for (int64_t a = 0; a < n; ++a) y[a] = x[a] - shift;
}

// A block of `n` rows of `inner` elements (one outer index): normalised along n, every inner loop contiguous.
template <typename T>
void normaliseBlock(const T* x, T* y, int64_t n, int64_t inner, Normalise how, std::vector<T>& mx, std::vector<T>& sum,
                    std::vector<int64_t>& at) {
  mx.assign(x, x + inner);
  at.assign(static_cast<size_t>(inner), 0);
  for (int64_t a = 1; a < n; ++a)
    for (int64_t i = 0; i < inner; ++i)
      if (x[a * inner + i] > mx[i]) mx[i] = x[a * inner + i], at[i] = a;
  if (how == Normalise::Hardmax) {
    for (int64_t a = 0; a < n; ++a)
      for (int64_t i = 0; i < inner; ++i) y[a * inner + i] = at[i] == a ? T{1} : T{0};
    return;
  }
  for (T& m : mx)
    if (std::isinf(m)) m = m > 0 ? m : T{0};
  sum.assign(static_cast<size_t>(inner), T{0});
  for (int64_t a = 0; a < n; ++a)
    for (int64_t i = 0; i < inner; ++i) {
      const T e = std::exp(x[a * inner + i] - mx[i]);
      if (how == Normalise::Softmax) y[a * inner + i] = e;
      sum[i] += e;
    }
  if (how == Normalise::Softmax) {
    for (T& v : sum) v = T{1} / v;
    for (int64_t a = 0; a < n; ++a)
      for (int64_t i = 0; i < inner; ++i) y[a * inner + i] *= sum[i];
    return;
  }
  for (int64_t i = 0; i < inner; ++i) sum[i] = mx[i] + std::log(sum[i]);
  for (int64_t a = 0; a < n; ++a)
    for (int64_t i = 0; i < inner; ++i) y[a * inner + i] = x[a * inner + i] - sum[i];
}

std::vector<Value> normalise(const KernelContext& c, Normalise how) {
  const Tensor& x = c.input(0);
  const AxisSplit s = layoutFor(c, x);
  return {visitFloating(x.dtype(), [&]<typename T>() {
    Tensor y = Tensor::empty(x.dtype(), x.dims());
    const T* p = x.data<T>();
    T* q = y.mutableData<T>();
    if (s.axis == 0 || x.size() == 0) return y;
    // Rows (or blocks) are independent and each is done by one thread: results do not depend on the thread count.
    if (s.inner == 1) {
#pragma omp parallel for num_threads(c.threads()) if (x.size() > 16384 && s.outer > 1)
      for (int64_t o = 0; o < s.outer; ++o) normaliseRow(p + o * s.axis, q + o * s.axis, s.axis, how);
      return y;
    }
#pragma omp parallel num_threads(c.threads()) if (x.size() > 16384 && s.outer > 1)
    {
      std::vector<T> mx, sum;
      std::vector<int64_t> at;
#pragma omp for
      for (int64_t o = 0; o < s.outer; ++o) {
        const int64_t base = o * s.axis * s.inner;
        normaliseBlock(p + base, q + base, s.axis, s.inner, how, mx, sum, at);
      }
    }
    return y;
  })};
}

}  // namespace

void registerSoftmaxKernels(KernelRegistry& r) {
  const std::pair<const char*, Normalise> ops[] = {
      {"Softmax", Normalise::Softmax}, {"LogSoftmax", Normalise::LogSoftmax}, {"Hardmax", Normalise::Hardmax}};
  for (const auto& [name, how] : ops) {
    const Normalise h = how;
    KernelFn fn = [h](const KernelContext& c) { return normalise(c, h); };
    r.add(name, 1, fn);
    r.add(name, 13, fn);  // along one axis (default -1) instead of the 2-D coercion
  }
}

}  // namespace fb::eval
