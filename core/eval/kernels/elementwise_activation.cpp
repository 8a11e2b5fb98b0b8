// Activations and Clip, computed in the element type the model gives (float16/bfloat16 as float, rounded back
// once by the runner); attribute defaults as ONNX's operator docs give them.
#include <cmath>
#include <limits>

#include "eval/kernels/elementwise_parts.h"

namespace fb::eval::elementwise {

namespace {

// An activation on float types: f(x, attributes) computed in T. `make` reads the node's attributes once and
// returns the per-element function.
template <typename Make>
KernelFn floatingActivation(Make make) {
  return [make](const KernelContext& c) -> std::vector<Value> {
    const Tensor& x = c.input(0);
    return {visitFloating(x.dtype(), [&]<typename T>() {
      auto f = make.template operator()<T>(c.node);
      return unaryMap<T, T>(x, x.dtype(), f, c.threads());
    })};
  };
}

template <typename T>
T sigmoidOf(T v) {
  // exp of a large positive argument would overflow: take the form whose exp is at most 1.
  if (v >= T{0}) return T{1} / (T{1} + std::exp(-v));
  const T e = std::exp(v);
  return e / (T{1} + e);
}

template <typename T>
T softplusOf(T v) {
  return v > T{0} ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
}

std::vector<Value> relu(const KernelContext& c) {
  const Tensor& x = c.input(0);
  return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    return unaryMap<T, T>(
        x, x.dtype(), [](T v) { return v > T{0} ? v : T{0}; }, c.threads());
  })};
}

std::vector<Value> prelu(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& slope = c.input(1);
  requireSameType("PRelu", {&x, &slope});
  Tensor r = visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    return binaryBroadcast<T, T, T>(
        x, slope, x.dtype(), [](T v, T s) { return v < T{0} ? wrappingMul(v, s) : v; }, c.threads());
  });
  // The slope broadcasts to X, never the other way.
  if (r.dims() != x.dims()) badInput("PRelu's slope " + describe(slope) + " does not broadcast to " + describe(x));
  return {r};
}

std::vector<Value> shrink(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const double bias = c.node.attrFloat("bias", 0.f);
  const double lambd = c.node.attrFloat("lambd", 0.5f);
  return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    return unaryMap<T, T>(
        x, x.dtype(),
        [&](T v) -> T {
          if constexpr (std::is_floating_point_v<T>) {
            const T l = static_cast<T>(lambd), b = static_cast<T>(bias);
            return v < -l ? v + b : (v > l ? v - b : T{0});
          } else {
            const double d = static_cast<double>(v);
            return d < -lambd ? saturatingFromDouble<T>(d + bias)
                              : (d > lambd ? saturatingFromDouble<T>(d - bias) : T{0});
          }
        },
        c.threads());
  })};
}

// Clip before opset 11: bounds are attributes (unbounded when absent before opset 6, float's limits from 6).
std::vector<Value> clipAttributes(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const float unbounded = c.opset < 6 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::max();
  const float lo = c.node.attrFloat("min", -unbounded), hi = c.node.attrFloat("max", unbounded);
  return {visitFloating(x.dtype(), [&]<typename T>() {
    const T l = static_cast<T>(lo), h = static_cast<T>(hi);
    return unaryMap<T, T>(
        x, x.dtype(),
        [&](T v) {
          const T up = v < l ? l : v;
          return up > h ? h : up;
        },
        c.threads());
  })};
}

// Clip from opset 11: bounds are optional 0-d (or one-element) inputs of X's type; min > max gives max.
std::vector<Value> clipInputs(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor* lo = c.optionalInput(1);
  const Tensor* hi = c.optionalInput(2);
  for (const Tensor* b : {lo, hi}) {
    if (!b) continue;
    if (b->dtype() != x.dtype()) badInput("Clip bound " + describe(*b) + " is not of " + describe(x) + "'s type");
    if (b->size() != 1) badInput("Clip bound " + describe(*b) + " is not a scalar");
  }
  return {visitArithmetic(x.dtype(), c.node.opType, [&]<typename T>() {
    const T l = lo ? lo->data<T>()[0] : std::numeric_limits<T>::lowest();
    const T h = hi ? hi->data<T>()[0] : std::numeric_limits<T>::max();
    const bool hasLo = lo != nullptr, hasHi = hi != nullptr;
    return unaryMap<T, T>(
        x, x.dtype(),
        [&](T v) {
          const T up = hasLo && v < l ? l : v;
          return hasHi && up > h ? h : up;
        },
        c.threads());
  })};
}

}  // namespace

void registerActivationKernels(KernelRegistry& r) {
  r.add("Relu", 1, relu);
  r.add("Sigmoid", 1, floatingActivation([]<typename T>(const ir::Node&) { return [](T v) { return sigmoidOf(v); }; }));
  r.add("HardSigmoid", 1, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 0.2f)), beta = static_cast<T>(n.attrFloat("beta", 0.5f));
          return [=](T v) { return std::max(T{0}, std::min(T{1}, alpha * v + beta)); };
        }));
  r.add("HardSwish", 14, floatingActivation([]<typename T>(const ir::Node&) {
          return [](T v) { return v * std::max(T{0}, std::min(T{1}, v / T{6} + T{0.5})); };
        }));
  r.add("LeakyRelu", 1, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 0.01f));
          return [=](T v) { return v < T{0} ? alpha * v : v; };
        }));
  r.add("PRelu", 1, prelu);
  r.add("Elu", 1, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 1.f));
          return [=](T v) { return v < T{0} ? alpha * (std::exp(v) - T{1}) : v; };
        }));
  r.add("Selu", 1, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 1.67326319217681884765625f));
          const T gamma = static_cast<T>(n.attrFloat("gamma", 1.05070102214813232421875f));
          return [=](T v) { return v <= T{0} ? gamma * (alpha * std::exp(v) - alpha) : gamma * v; };
        }));
  r.add("Celu", 12, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 1.f));
          if (alpha == T{0}) badInput("Celu's alpha is 0");
          return [=](T v) { return std::max(T{0}, v) + std::min(T{0}, alpha * (std::exp(v / alpha) - T{1})); };
        }));
  r.add("Softplus", 1,
        floatingActivation([]<typename T>(const ir::Node&) { return [](T v) { return softplusOf(v); }; }));
  r.add("Softsign", 1,
        floatingActivation([]<typename T>(const ir::Node&) { return [](T v) { return v / (T{1} + std::fabs(v)); }; }));
  r.add("Shrink", 9, shrink);
  r.add("ThresholdedRelu", 10, floatingActivation([]<typename T>(const ir::Node& n) {
          const T alpha = static_cast<T>(n.attrFloat("alpha", 1.f));
          return [=](T v) { return v > alpha ? v : T{0}; };
        }));
  r.add("Mish", 18, floatingActivation([]<typename T>(const ir::Node&) {
          return [](T v) { return v * std::tanh(softplusOf(v)); };
        }));
  r.add("Gelu", 20, floatingActivation([]<typename T>(const ir::Node& n) {
          const std::string approximate = n.attrString("approximate", "none");
          if (approximate != "none" && approximate != "tanh")
            badInput("Gelu's approximate is '" + approximate + "' (none or tanh)");
          const bool tanhForm = approximate == "tanh";
          return [=](T v) {
            if (tanhForm) {
              const T k = static_cast<T>(0.7978845608028654);  // sqrt(2 / pi)
              return T{0.5} * v * (T{1} + std::tanh(k * (v + static_cast<T>(0.044715) * v * v * v)));
            }
            return T{0.5} * v * (T{1} + std::erf(v * static_cast<T>(0.7071067811865476)));
          };
        }));
  r.add("Clip", 1, clipAttributes);
  r.add("Clip", 11, clipInputs);
}

}  // namespace fb::eval::elementwise
