#include "eval/kernels/recurrent_product.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <type_traits>

#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

const dnnl::engine& cpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

}  // namespace

template <typename T>
struct TransposedProduct<T>::Primitive {
  dnnl::memory::desc a, b, c;
  dnnl::matmul matmul;
  dnnl::stream stream;  // one per product: each direction's steps run on one thread
};

template <typename T>
TransposedProduct<T>::TransposedProduct(int64_t m, int64_t k, int64_t n, bool accumulate)
    : m_(m), k_(k), n_(n), accumulate_(accumulate) {
  if constexpr (std::is_same_v<T, float>) {
    if (m == 0 || n == 0 || k == 0) return;  // oneDNN has no zero-sized products; run() handles them
    using dt = dnnl::memory::data_type;
    try {
      auto p = std::make_unique<Primitive>();
      p->a = dnnl::memory::desc({m, k}, dt::f32, {k, 1});
      p->b = dnnl::memory::desc({k, n}, dt::f32, {1, k});  // b stored [N, K]: read transposed by strides
      p->c = dnnl::memory::desc({m, n}, dt::f32, {n, 1});
      dnnl::primitive_attr attr;
      if (accumulate) {
        dnnl::post_ops ops;
        ops.append_sum(1.0f);
        attr.set_post_ops(ops);
      }
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p->a, p->b, p->c), attr, cpuEngine());
      p->matmul = dnnl::matmul(pd);
      p->stream = dnnl::stream(cpuEngine());
      primitive_ = std::move(p);
    } catch (const dnnl::error& e) {
      unsupported(std::string("oneDNN cannot build a recurrent matrix product: ") + e.what());
    }
  }
}

template <typename T>
TransposedProduct<T>::~TransposedProduct() = default;

template <typename T>
void TransposedProduct<T>::run(const T* a, const T* b, T* c) const {
  if (m_ == 0 || n_ == 0) return;
  if (primitive_) {
    dnnl::stream& stream = primitive_->stream;
    dnnl::memory ma(primitive_->a, cpuEngine(), const_cast<T*>(a));
    dnnl::memory mb(primitive_->b, cpuEngine(), const_cast<T*>(b));
    dnnl::memory mc(primitive_->c, cpuEngine(), c);
    primitive_->matmul.execute(stream, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    stream.wait();
    return;
  }
  const int64_t m = m_, k = k_, n = n_;
  const bool accumulate = accumulate_;
#pragma omp parallel for schedule(static) if (m * n * k > 32768)
  for (int64_t i = 0; i < m; ++i) {
    const T* ai = a + i * k;
    T* ci = c + i * n;
    for (int64_t j = 0; j < n; ++j) {
      const T* bj = b + j * k;
      T sum = 0;
      for (int64_t q = 0; q < k; ++q) sum += ai[q] * bj[q];
      ci[j] = accumulate ? ci[j] + sum : sum;
    }
  }
}

template class TransposedProduct<float>;
template class TransposedProduct<double>;

}  // namespace fb::eval
