#pragma once
// Elementwise loops over broadcast operands, for every kernel family: the result's shape by ONNX's
// multidirectional broadcasting, and the operands' elements visited by strides (eval/broadcast_walk.h), with a
// plain loop when the shapes are equal (the common case, and the one the compiler vectorises).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <vector>

#include "eval/broadcast_walk.h"
#include "eval/shape_rules.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"

namespace fb::eval {

// The broadcast shape of several operands; throws RunError(BadInput) when they do not broadcast.
inline std::vector<int64_t> broadcastDims(const std::vector<const std::vector<int64_t>*>& shapes) {
  std::vector<int64_t> out;
  for (const auto* s : shapes) {
    auto joined = broadcastShapes(out, *s);
    if (!joined) {
      std::string a, b;
      for (int64_t d : out) a += (a.empty() ? "" : ",") + std::to_string(d);
      for (int64_t d : *s) b += (b.empty() ? "" : ",") + std::to_string(d);
      badInput("shapes [" + a + "] and [" + b + "] do not broadcast");
    }
    out = std::move(*joined);
  }
  return out;
}

// body(begin, end) over [0, n) in chunks, on up to `threads` threads when there is more than one chunk. The first
// exception a chunk throws is rethrown here (none may leave an OpenMP region). Elementwise results do not depend
// on the split.
template <typename Body>
void forChunks(int64_t n, int threads, Body body) {
  constexpr int64_t kChunk = int64_t{1} << 15;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  if (threads <= 1 || chunks <= 1) {
    body(int64_t{0}, n);
    return;
  }
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      body(c * kChunk, std::min(n, (c + 1) * kChunk));
    } catch (...) {
#pragma omp critical(fb_eval_for_chunks_error)
      if (!error) error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  }
  if (error) std::rethrow_exception(error);
}

// out[k] = f(a[ia], b[ib]) over the broadcast of a and b; the result has element type R.
template <typename A, typename B, typename R, typename F>
Tensor binaryBroadcast(const Tensor& a, const Tensor& b, ir::DataType resultType, F f, int threads = 1) {
  std::vector<int64_t> dims = broadcastDims({&a.dims(), &b.dims()});
  Tensor r = Tensor::empty(resultType, dims);
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  R* pr = r.mutableData<R>();
  const int64_t n = r.size();
  if (a.dims() == b.dims()) {
    forChunks(n, threads, [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) pr[k] = f(pa[k], pb[k]);
    });
  } else if (b.size() == 1) {
    const B y = pb[0];
    forChunks(n, threads, [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) pr[k] = f(pa[k], y);
    });
  } else if (a.size() == 1) {
    const A x = pa[0];
    forChunks(n, threads, [&](int64_t begin, int64_t end) {
      for (int64_t k = begin; k < end; ++k) pr[k] = f(x, pb[k]);
    });
  } else {
    forChunks(n, threads, [&](int64_t begin, int64_t end) {
      BroadcastWalk<2> w(dims, {&a.dims(), &b.dims()});
      w.seek(begin);
      for (int64_t k = begin; k < end; ++k, w.next()) pr[k] = f(pa[w.at(0)], pb[w.at(1)]);
    });
  }
  return r;
}

// out[k] = f(in[k]); the result has element type R.
template <typename T, typename R, typename F>
Tensor unaryMap(const Tensor& in, ir::DataType resultType, F f, int threads = 1) {
  Tensor r = Tensor::empty(resultType, in.dims());
  const T* p = in.data<T>();
  R* q = r.mutableData<R>();
  forChunks(in.size(), threads, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) q[k] = f(p[k]);
  });
  return r;
}

}  // namespace fb::eval
