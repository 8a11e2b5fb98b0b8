#pragma once
// Elementwise loops over broadcast operands, for every kernel family: the result's shape by ONNX's
// multidirectional broadcasting, and the operands' elements visited by strides (eval/broadcast_walk.h), with a
// plain loop when the shapes are equal (the common case, and the one the compiler vectorises).
#include <array>
#include <cstdint>
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

// out[k] = f(a[ia], b[ib]) over the broadcast of a and b; the result has element type R.
template <typename A, typename B, typename R, typename F>
Tensor binaryBroadcast(const Tensor& a, const Tensor& b, ir::DataType resultType, F f) {
  std::vector<int64_t> dims = broadcastDims({&a.dims(), &b.dims()});
  Tensor r = Tensor::empty(resultType, dims);
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  R* pr = r.mutableData<R>();
  const int64_t n = r.size();
  if (a.dims() == b.dims()) {
    for (int64_t k = 0; k < n; ++k) pr[k] = f(pa[k], pb[k]);
  } else if (b.size() == 1) {
    const B y = pb[0];
    for (int64_t k = 0; k < n; ++k) pr[k] = f(pa[k], y);
  } else if (a.size() == 1) {
    const A x = pa[0];
    for (int64_t k = 0; k < n; ++k) pr[k] = f(x, pb[k]);
  } else {
    BroadcastWalk<2> w(dims, {&a.dims(), &b.dims()});
    for (int64_t k = 0; k < n; ++k, w.next()) pr[k] = f(pa[w.at(0)], pb[w.at(1)]);
  }
  return r;
}

// out[k] = f(in[k]); the result has element type R.
template <typename T, typename R, typename F>
Tensor unaryMap(const Tensor& in, ir::DataType resultType, F f) {
  Tensor r = Tensor::empty(resultType, in.dims());
  const T* p = in.data<T>();
  R* q = r.mutableData<R>();
  const int64_t n = in.size();
  for (int64_t k = 0; k < n; ++k) q[k] = f(p[k]);
  return r;
}

}  // namespace fb::eval
