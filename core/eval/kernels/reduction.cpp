// The Reduce* ops, and the reduction family's registration. Which axes a node reduces comes from its `axes`
// attribute, or from its second input from opset 13 (ReduceSum) or 18 (the others), where an absent or empty axes
// input reduces everything unless noop_with_empty_axes asks for the input unchanged. A reduction over an empty set
// gives the operation's identity: 0 for sums, 1 for ReduceProd, the lowest / highest value of the type for
// ReduceMax / ReduceMin, -inf for the logarithms, NaN for ReduceMean of floats.
//
// Float sums (ReduceSum, ReduceMean, ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp, ReduceProd)
// accumulate in double (in input order; contiguous rows of floats in four interleaved lanes added in a fixed order):
// a float accumulator over the 10^6 elements of a large tensor loses several digits, the double one does not, and
// the result is rounded to float once. Integer reductions are exact (modulo 2^64 where they overflow, then narrowed
// to the element type as two's complement), int64 never through double.
#include <algorithm>
#include <cmath>
#include <memory>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "eval/kernels/reduction_axes.h"
#include "eval/kernels/reduction_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_families.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

enum class Reduce { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

struct AxesChoice {
  std::vector<bool> reduced;  // per input dim
  bool identity = false;      // noop_with_empty_axes with no axes: the input unchanged
};

AxesChoice chooseAxes(const KernelContext& c, size_t rank, int axesInputSince) {
  std::vector<int64_t> axes;
  bool given = false;
  if (c.opset >= axesInputSince) {
    // An axes attribute here is an older opset's form: ONNX's checker rejects it, and ignoring it would reduce
    // every axis instead of the ones meant.
    if (c.node.hasAttr("axes"))
      badInput(c.node.opType + " takes its axes as an input from opset " + std::to_string(axesInputSince) +
               "; this node (opset " + std::to_string(c.opset) + ") has an axes attribute");
    if (const Tensor* a = c.optionalInput(1)) {
      if (a->rank() > 1) badInput("axes must be a 1-D tensor, got " + describe(*a));
      if (a->dtype() != ir::DataType::Int64) badInput("axes must be int64, got " + describe(*a));
      axes = a->toInt64s();
      given = !axes.empty();
    }
  } else if (const ir::Attribute* at = c.node.attr("axes")) {
    axes = at->ints;
    given = !axes.empty();
  }
  AxesChoice choice;
  if (!given) {
    choice.identity = c.opset >= axesInputSince && c.node.attrInt("noop_with_empty_axes", 0) != 0;
    choice.reduced.assign(rank, true);
    return choice;
  }
  choice.reduced.assign(rank, false);
  for (int64_t a : axes) choice.reduced[normalizeAxis(a, rank, "reduction axis")] = true;
  return choice;
}

// Dims with their reduced flags, dims of 1 dropped and neighbours of the same kind merged: the fewest loops.
struct Segment {
  int64_t size;
  bool reduced;
};

std::vector<Segment> coalesce(const std::vector<int64_t>& dims, const std::vector<bool>& reduced) {
  std::vector<Segment> s;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == 1) continue;
    if (!s.empty() && s.back().reduced == reduced[k])
      s.back().size *= dims[k];
    else
      s.push_back({dims[k], reduced[k]});
  }
  return s;
}

// True when each output reduces one contiguous row of the input (the last axes reduced, the others kept).
bool isRows(const std::vector<Segment>& segs) {
  const size_t n = segs.size();
  return n > 0 && segs.back().reduced && (n == 1 || (n == 2 && !segs[0].reduced));
}

// The sum (or sum of squares) of a row of floats in double: four at a time into two pairs of doubles with SSE2,
// which the build's baseline target does not vectorise on its own; lanes are combined in a fixed order.
double sumFloatRow(const float* x, int64_t n, bool squares) {
  int64_t a = 0;
  double sum = 0;
#if defined(__SSE2__)
  __m128d lo = _mm_setzero_pd(), hi = _mm_setzero_pd();
  for (; a + 4 <= n; a += 4) {
    const __m128 v = _mm_loadu_ps(x + a);
    __m128d l = _mm_cvtps_pd(v), h = _mm_cvtps_pd(_mm_movehl_ps(v, v));
    if (squares) l = _mm_mul_pd(l, l), h = _mm_mul_pd(h, h);
    lo = _mm_add_pd(lo, l);
    hi = _mm_add_pd(hi, h);
  }
  double lanes[4];
  _mm_storeu_pd(lanes, lo);
  _mm_storeu_pd(lanes + 2, hi);
  sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
#endif
  for (; a < n; ++a) sum += squares ? static_cast<double>(x[a]) * x[a] : static_cast<double>(x[a]);
  return sum;
}

// acc[o] = fold(acc[o], map(x[i], o)) for every input element i, o being the output element i reduces into. Each
// output's elements are folded in input order by one thread, so results do not depend on the thread count. `x`
// holds at least one element (no dim is 0).
template <typename T, typename Acc, typename Map, typename Fold>
void foldInto(const T* x, const std::vector<Segment>& segs, Acc* acc, int64_t outCount, Map map, Fold fold,
              int threads) {
  if (segs.empty()) {  // a single element
    acc[0] = fold(acc[0], map(x[0], 0));
    return;
  }
  const size_t n = segs.size();
  if (isRows(segs)) {  // contiguous rows, one per output
    const int64_t len = segs.back().size;
#pragma omp parallel for num_threads(threads) if (outCount * len > 32768 && outCount > 1)
    for (int64_t o = 0; o < outCount; ++o) {
      const T* row = x + o * len;
      Acc a = acc[o];
      for (int64_t r = 0; r < len; ++r) a = fold(a, map(row[r], o));
      acc[o] = a;
    }
    return;
  }
  std::vector<int64_t> outStride(n);
  int64_t stride = 1, total = 1;
  for (size_t k = n; k-- > 0;) {
    outStride[k] = segs[k].reduced ? 0 : stride;
    if (!segs[k].reduced) stride *= segs[k].size;
    total *= segs[k].size;
  }
  const int64_t last = segs[n - 1].size;
  const bool lastReduced = segs[n - 1].reduced;
  std::vector<int64_t> idx(n, 0);
  int64_t outBase = 0;
  for (int64_t k = 0; k < total; k += last) {
    const T* p = x + k;
    if (lastReduced) {
      Acc a = acc[outBase];
      for (int64_t i = 0; i < last; ++i) a = fold(a, map(p[i], outBase));
      acc[outBase] = a;
    } else {
      Acc* q = acc + outBase;
      for (int64_t i = 0; i < last; ++i) q[i] = fold(q[i], map(p[i], outBase + i));
    }
    for (size_t d = n - 1; d-- > 0;) {
      outBase += outStride[d];
      if (++idx[d] < segs[d].size) break;
      outBase -= outStride[d] * segs[d].size;
      idx[d] = 0;
    }
  }
}

struct Shape {
  const std::vector<int64_t>& in;
  const std::vector<bool>& reduced;
  std::vector<int64_t> out;
  int64_t count = 1;  // input elements per output element
};

// out[o] = finish(acc, count, o) where acc folds map(x) over output o's elements, starting from `init`.
template <typename T, typename R, typename Acc, typename Map, typename Fold, typename Finish>
Tensor reduceWith(const Tensor& x, const Shape& s, int threads, Acc init, Map map, Fold fold, Finish finish) {
  Tensor out = Tensor::empty(dataTypeOf<R>(), s.out);
  const int64_t outCount = out.size();
  // A plain array, not std::vector: Acc may be bool.
  std::unique_ptr<Acc[]> acc(new Acc[static_cast<size_t>(outCount)]);
  std::fill(acc.get(), acc.get() + outCount, init);
  if (x.size() > 0) foldInto(x.data<T>(), coalesce(s.in, s.reduced), acc.get(), outCount, map, fold, threads);
  R* q = out.mutableData<R>();
  for (int64_t o = 0; o < outCount; ++o) q[o] = finish(acc[o], s.count, o);
  return out;
}

// Max and min that keep a NaN once one is seen, as numpy's and other runtimes' reductions do.
template <typename T>
T keepMax(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return b > a ? b : a;
}
template <typename T>
T keepMin(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return b < a ? b : a;
}

template <typename T>
Tensor reduceExtreme(const Tensor& x, const Shape& s, int threads, bool max) {
  auto same = [](T v, int64_t) { return v; };
  auto keep = [](T a, int64_t, int64_t) { return a; };
  if constexpr (std::is_same_v<T, bool>) {
    if (max)
      return reduceWith<T, T>(
          x, s, threads, false, same, [](bool a, bool b) { return a || b; }, keep);
    return reduceWith<T, T>(
        x, s, threads, true, same, [](bool a, bool b) { return a && b; }, keep);
  } else {
    using L = std::numeric_limits<T>;
    if (max) {
      const T lowest = L::has_infinity ? -L::infinity() : L::lowest();
      return reduceWith<T, T>(x, s, threads, lowest, same, keepMax<T>, keep);
    }
    const T highest = L::has_infinity ? L::infinity() : L::max();
    return reduceWith<T, T>(x, s, threads, highest, same, keepMin<T>, keep);
  }
}

// Sums of floats in double; of integers in uint64 arithmetic (wrapping, exact modulo 2^64).
template <typename T>
using SumOf = std::conditional_t<std::is_floating_point_v<T>, double, uint64_t>;

// The accumulated integer sum read as the element type's signedness, for division and the logarithms.
template <typename T>
double sumAsDouble(SumOf<T> a) {
  if constexpr (std::is_floating_point_v<T>)
    return a;
  else if constexpr (std::is_signed_v<T>)
    return static_cast<double>(static_cast<int64_t>(a));
  else
    return static_cast<double>(a);
}

template <typename T>
T fromDouble(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (std::isnan(v)) return T{0};
    if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

template <typename T>
Tensor reduceSumLike(const Tensor& x, const Shape& s, int threads, Reduce kind) {
  using A = SumOf<T>;
  if constexpr (std::is_same_v<T, float>) {
    // The transformer's case (ReduceMean over the last axis): whole rows, summed by sumFloatRow.
    const auto segs = coalesce(s.in, s.reduced);
    const bool squares = kind == Reduce::SumSquare || kind == Reduce::L2;
    if (x.size() > 0 && isRows(segs) && (squares || kind == Reduce::Sum || kind == Reduce::Mean)) {
      Tensor out = Tensor::empty(x.dtype(), s.out);
      const int64_t rows = out.size(), len = segs.back().size;
      const float* p = x.data<float>();
      float* q = out.mutableData<float>();
#pragma omp parallel for num_threads(threads) if (x.size() > 32768 && rows > 1)
      for (int64_t o = 0; o < rows; ++o) {
        const double sum = sumFloatRow(p + o * len, len, squares);
        q[o] = static_cast<float>(kind == Reduce::Mean ? sum / static_cast<double>(s.count)
                                  : kind == Reduce::L2 ? std::sqrt(sum)
                                                       : sum);
      }
      return out;
    }
  }
  auto add = [](A a, A b) { return static_cast<A>(a + b); };
  auto widen = [](T v) -> A {
    if constexpr (std::is_floating_point_v<T>)
      return static_cast<double>(v);
    else if constexpr (std::is_signed_v<T>)
      return static_cast<uint64_t>(static_cast<int64_t>(v));
    else
      return static_cast<uint64_t>(v);
  };
  auto asIs = [&](T v, int64_t) { return widen(v); };
  auto narrow = [](A a, int64_t, int64_t) { return static_cast<T>(a); };
  switch (kind) {
    case Reduce::Sum:
      return reduceWith<T, T>(x, s, threads, A{0}, asIs, add, narrow);
    case Reduce::SumSquare:
      return reduceWith<T, T>(
          x, s, threads, A{0}, [&](T v, int64_t) { return static_cast<A>(widen(v) * widen(v)); }, add, narrow);
    case Reduce::L1:
      return reduceWith<T, T>(
          x, s, threads, A{0},
          [&](T v, int64_t) {
            const A w = widen(v);
            if constexpr (std::is_signed_v<T>) return v < T{0} ? static_cast<A>(A{0} - w) : w;
            return w;
          },
          add, narrow);
    case Reduce::L2:
      return reduceWith<T, T>(
          x, s, threads, A{0}, [&](T v, int64_t) { return static_cast<A>(widen(v) * widen(v)); }, add,
          [](A a, int64_t, int64_t) { return fromDouble<T>(std::sqrt(sumAsDouble<T>(a))); });
    case Reduce::LogSum:
      return reduceWith<T, T>(x, s, threads, A{0}, asIs, add,
                              [](A a, int64_t, int64_t) { return fromDouble<T>(std::log(sumAsDouble<T>(a))); });
    case Reduce::Mean:
      return reduceWith<T, T>(x, s, threads, A{0}, asIs, add, [](A a, int64_t count, int64_t) -> T {
        if constexpr (std::is_floating_point_v<T>) {
          return static_cast<T>(a / static_cast<double>(count));  // 0 / 0: NaN for an empty set
        } else {
          if (count == 0) return T{0};
          if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<int64_t>(a) / count);
          return static_cast<T>(a / static_cast<uint64_t>(count));
        }
      });
    case Reduce::Prod:
      return reduceWith<T, T>(
          x, s, threads, A{1}, asIs, [](A a, A b) { return static_cast<A>(a * b); }, narrow);
    default:
      break;
  }
  unsupported("reduction kind");
}

// log(sum(exp(x))) with the largest element factored out, so that large inputs do not overflow.
template <typename T>
Tensor reduceLogSumExp(const Tensor& x, const Shape& s, int threads) {
  const int64_t outCount = checkedElementCount(s.out);
  std::vector<double> shift(static_cast<size_t>(outCount), -std::numeric_limits<double>::infinity());
  const auto segs = coalesce(s.in, s.reduced);
  if (x.size() > 0)
    foldInto(
        x.data<T>(), segs, shift.data(), outCount, [](T v, int64_t) { return static_cast<double>(v); }, keepMax<double>,
        threads);
  for (double& m : shift)
    if (!std::isfinite(m)) m = 0;
  return reduceWith<T, T>(
      x, s, threads, 0.0, [&](T v, int64_t o) { return std::exp(static_cast<double>(v) - shift[o]); },
      [](double a, double b) { return a + b; },
      [&](double a, int64_t, int64_t o) { return fromDouble<T>(std::log(a) + shift[o]); });
}

std::vector<Value> reduce(const KernelContext& c, Reduce kind, int axesInputSince) {
  const Tensor& x = c.input(0);
  const AxesChoice axes = chooseAxes(c, x.rank(), axesInputSince);
  if (axes.identity) return {x};
  const bool keepDims = c.node.attrInt("keepdims", 1) != 0;
  Shape s{x.dims(), axes.reduced, {}, 1};
  for (size_t k = 0; k < x.rank(); ++k) {
    if (axes.reduced[k]) s.count *= x.dim(k);
    if (!axes.reduced[k])
      s.out.push_back(x.dim(k));
    else if (keepDims)
      s.out.push_back(1);
  }
  const bool extreme = kind == Reduce::Max || kind == Reduce::Min;
  if (x.dtype() == ir::DataType::Bool) {
    if (!extreme) badInput(c.node.opType + " does not take bool inputs");
    if (c.opset < 20)
      badInput(c.node.opType + " takes bool inputs from opset 20, the model imports " + std::to_string(c.opset));
  }
  return {visitNumeric(x.dtype(), [&]<typename T>() -> Tensor {
    if (extreme) return reduceExtreme<T>(x, s, c.threads(), kind == Reduce::Max);
    if constexpr (std::is_same_v<T, bool>) {
      unsupported("bool reduction");
    } else {
      if (kind == Reduce::LogSumExp) return reduceLogSumExp<T>(x, s, c.threads());
      return reduceSumLike<T>(x, s, c.threads(), kind);
    }
  })};
}

}  // namespace

void registerReduceKernels(KernelRegistry& r) {
  // ReduceSum takes its axes as an input from opset 13, the others from 18; noop_with_empty_axes arrives with it.
  struct Op {
    const char* name;
    Reduce kind;
    int axesInputSince;
  };
  const Op ops[] = {{"ReduceSum", Reduce::Sum, 13},
                    {"ReduceMean", Reduce::Mean, 18},
                    {"ReduceMax", Reduce::Max, 18},
                    {"ReduceMin", Reduce::Min, 18},
                    {"ReduceProd", Reduce::Prod, 18},
                    {"ReduceL1", Reduce::L1, 18},
                    {"ReduceL2", Reduce::L2, 18},
                    {"ReduceLogSum", Reduce::LogSum, 18},
                    {"ReduceLogSumExp", Reduce::LogSumExp, 18},
                    {"ReduceSumSquare", Reduce::SumSquare, 18}};
  for (const Op& op : ops) {
    const Reduce kind = op.kind;
    const int since = op.axesInputSince;
    KernelFn fn = [kind, since](const KernelContext& c) { return reduce(c, kind, since); };
    r.add(op.name, 1, fn);
    r.add(op.name, since, fn);
    if (kind == Reduce::Max || kind == Reduce::Min) r.add(op.name, 20, fn);  // bool inputs
  }
}

void registerReductionKernels(KernelRegistry& r) {
  registerReduceKernels(r);
  registerArgKernels(r);
  registerSoftmaxKernels(r);
  registerTopKKernels(r);
  registerScanKernels(r);
  registerUniqueKernels(r);
  registerEinsumKernels(r);
}

}  // namespace fb::eval
