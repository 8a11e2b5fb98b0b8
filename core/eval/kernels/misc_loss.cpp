// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. Input (N, C, d1..dk) and integer targets (N, d1..dk):
// each element's loss is -input[n, target, d...] * weight[target] (weight 1 without a weight input); targets equal
// to ignore_index lose nothing and weigh nothing. "none" keeps the per-element losses, "sum" adds them, "mean"
// divides the sum by the summed weights of the elements not ignored. SoftmaxCrossEntropyLoss applies LogSoftmax
// along C first and can return it as a second output. Sums accumulate in double.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "eval/kernels/misc_family.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

struct LossShape {
  int64_t n = 0, c = 0, d = 1;  // batch, classes, product of the trailing dims
};

LossShape checkShapes(const Tensor& input, const Tensor& target, const Tensor* weight, const std::string& op) {
  if (input.rank() < 2) badInput(op + " needs an input of rank >= 2, got " + describe(input));
  if (target.rank() != input.rank() - 1) badInput(op + " target " + describe(target) + " for input " + describe(input));
  LossShape s{input.dim(0), input.dim(1), 1};
  if (target.dim(0) != s.n) badInput(op + " target " + describe(target) + " for input " + describe(input));
  for (size_t k = 2; k < input.rank(); ++k) {
    if (target.dim(k - 1) != input.dim(k))
      badInput(op + " target " + describe(target) + " for input " + describe(input));
    s.d *= input.dim(k);
  }
  if (target.dtype() != ir::DataType::Int64 && target.dtype() != ir::DataType::Int32)
    badInput(op + " targets must be int32 or int64, got " + describe(target));
  if (weight && (weight->rank() != 1 || weight->dim(0) != s.c))
    badInput(op + " weight " + describe(*weight) + " for " + std::to_string(s.c) + " classes");
  return s;
}

// The loss of `logProb` (laid out as (N, C, D)) against the targets.
template <typename T>
Tensor nll(const T* logProb, const Tensor& target, const Tensor* weight, const LossShape& s,
           const std::vector<int64_t>& targetDims, const std::string& reduction, std::optional<int64_t> ignore,
           ir::DataType type, const std::string& op) {
  const T* w = weight ? weight->data<T>() : nullptr;
  const int64_t count = s.n * s.d;
  Tensor none;
  T* perElement = nullptr;
  if (reduction == "none") {
    none = Tensor::empty(type, targetDims);
    perElement = none.mutableData<T>();
  } else if (reduction != "sum" && reduction != "mean") {
    badInput(op + " reduction '" + reduction + "' (none, sum or mean)");
  }
  double sum = 0, weights = 0;
  for (int64_t k = 0; k < count; ++k) {
    const int64_t n = k / s.d, d = k % s.d;
    const int64_t t = target.int64At(k);
    if (ignore && t == *ignore) {
      if (perElement) perElement[k] = T{0};
      continue;
    }
    if (t < 0 || t >= s.c)
      badInput(op + " target " + std::to_string(t) + " is not a class in 0.." + std::to_string(s.c - 1));
    const double wt = w ? static_cast<double>(w[t]) : 1.0;
    const double loss = -static_cast<double>(logProb[(n * s.c + t) * s.d + d]) * wt;
    if (perElement) perElement[k] = static_cast<T>(loss);
    sum += loss;
    weights += wt;
  }
  if (perElement) return none;
  Tensor out = Tensor::empty(type, {});
  *out.mutableData<T>() = static_cast<T>(reduction == "sum" ? sum : sum / weights);
  return out;
}

std::optional<int64_t> ignoreIndex(const KernelContext& c) {
  if (!c.node.hasAttr("ignore_index")) return std::nullopt;
  return c.node.attrInt("ignore_index", 0);
}

std::vector<Value> negativeLogLikelihood(const KernelContext& c) {
  const Tensor& input = c.input(0);
  const Tensor& target = c.input(1);
  const Tensor* weight = c.optionalInput(2);
  const std::string op = "NegativeLogLikelihoodLoss";
  const LossShape s = checkShapes(input, target, weight, op);
  if (weight && weight->dtype() != input.dtype()) badInput(op + " weight type differs from the input's");
  return {visitFloating(input.dtype(), [&]<typename T>() {
    return nll<T>(input.data<T>(), target, weight, s, target.dims(), c.node.attrString("reduction", "mean"),
                  ignoreIndex(c), input.dtype(), op);
  })};
}

std::vector<Value> softmaxCrossEntropy(const KernelContext& c) {
  const Tensor& scores = c.input(0);
  const Tensor& labels = c.input(1);
  const Tensor* weight = c.optionalInput(2);
  const std::string op = "SoftmaxCrossEntropyLoss";
  const LossShape s = checkShapes(scores, labels, weight, op);
  if (weight && weight->dtype() != scores.dtype()) badInput(op + " weight type differs from the scores'");
  return visitFloating(scores.dtype(), [&]<typename T>() {
    Tensor logProb = Tensor::empty(scores.dtype(), scores.dims());
    const T* x = scores.data<T>();
    T* lp = logProb.mutableData<T>();
    for (int64_t n = 0; n < s.n; ++n)
      for (int64_t d = 0; d < s.d; ++d) {
        const int64_t base = n * s.c * s.d + d;
        T mx = s.c ? x[base] : T{0};
        for (int64_t k = 1; k < s.c; ++k) mx = std::max(mx, x[base + k * s.d]);
        if (std::isinf(mx)) mx = T{0};
        T sum = 0;
        for (int64_t k = 0; k < s.c; ++k) sum += std::exp(x[base + k * s.d] - mx);
        const T shift = mx + std::log(sum);
        for (int64_t k = 0; k < s.c; ++k) lp[base + k * s.d] = x[base + k * s.d] - shift;
      }
    Tensor loss = nll<T>(lp, labels, weight, s, labels.dims(), c.node.attrString("reduction", "mean"), ignoreIndex(c),
                         scores.dtype(), op);
    return std::vector<Value>{loss, logProb};
  });
}

}  // namespace

void registerLossKernels(KernelRegistry& r) {
  r.add("NegativeLogLikelihoodLoss", 12, negativeLogLikelihood);
  r.add("SoftmaxCrossEntropyLoss", 12, softmaxCrossEntropy);
}

}  // namespace fb::eval
