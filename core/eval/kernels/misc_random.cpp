// Random tensors: RandomNormal, RandomUniform, their *Like forms, Bernoulli and Multinomial. Values come from a
// 64-bit Mersenne Twister seeded by the node's `seed` attribute, or by a fixed seed without one, so a run is
// reproducible; they are not the values another runtime draws (no two runtimes share a generator), which is why
// the node tests of these ops can compare only shapes and types. Uniform doubles are built from the generator's
// top 53 bits and normals by Box-Muller, not through std:: distributions whose output differs between libraries.
#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "eval/kernels/misc_family.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval {

namespace {

constexpr uint64_t kDefaultSeed = 0x5eed'f10b'41d6e;

class Generator {
 public:
  explicit Generator(const ir::Node& n) : engine_(seedOf(n)) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1p-53; }  // [0, 1)
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  static uint64_t seedOf(const ir::Node& n) {
    if (!n.hasAttr("seed")) return kDefaultSeed;
    return std::bit_cast<uint32_t>(n.attrFloat("seed", 0));
  }
  std::mt19937_64 engine_;
};

ir::DataType floatTypeAttr(const ir::Node& n, ir::DataType fallback) {
  if (!n.hasAttr("dtype")) return fallback;
  const auto t = static_cast<ir::DataType>(n.attrInt("dtype", 1));
  if (t != ir::DataType::Float && t != ir::DataType::Double && t != ir::DataType::Float16 &&
      t != ir::DataType::BFloat16)
    badInput(n.opType + " dtype " + std::to_string(n.attrInt("dtype", 1)) + " is not a float type");
  return t;
}

// `values` (in double) as a tensor of type `t`.
Tensor ofType(std::vector<int64_t> dims, const std::vector<double>& values, ir::DataType t) {
  Tensor d = Tensor::empty(ir::DataType::Double, std::move(dims));
  std::copy(values.begin(), values.end(), d.mutableData<double>());
  return castTensor(d, t);
}

// Draws `dims`' worth of values: uniform in [low, high) or normal(mean, scale).
Tensor draw(const ir::Node& n, std::vector<int64_t> dims, ir::DataType t, bool normal) {
  Tensor::empty(t, dims);  // charged (and checked) before the draws
  const int64_t count = checkedElementCount(dims);
  Generator g(n);
  std::vector<double> v(static_cast<size_t>(count));
  if (normal) {
    const double mean = n.attrFloat("mean", 0), scale = n.attrFloat("scale", 1);
    for (double& x : v) x = mean + scale * g.normal();
  } else {
    const double low = n.attrFloat("low", 0), high = n.attrFloat("high", 1);
    for (double& x : v) x = low + (high - low) * g.uniform();
  }
  return ofType(std::move(dims), v, t);
}

std::vector<Value> randomOf(const KernelContext& c, bool normal) {
  const ir::Attribute* shape = c.node.attr("shape");
  if (!shape) badInput(c.node.opType + " needs a shape attribute");
  return {draw(c.node, shape->ints, floatTypeAttr(c.node, ir::DataType::Float), normal)};
}

std::vector<Value> randomLike(const KernelContext& c, bool normal) {
  const Tensor& x = c.input(0);
  ir::DataType fallback = x.dtype();
  if (!ir::isFloatingPoint(fallback)) fallback = ir::DataType::Float;  // any input type; floats come out
  return {draw(c.node, x.dims(), floatTypeAttr(c.node, fallback), normal)};
}

std::vector<Value> bernoulli(const KernelContext& c) {
  const Tensor& p = c.input(0);
  if (!ir::isFloatingPoint(p.dtype())) badInput("Bernoulli probabilities must be floats, got " + describe(p));
  const ir::DataType t = c.node.hasAttr("dtype") ? static_cast<ir::DataType>(c.node.attrInt("dtype", 1)) : p.dtype();
  Tensor::empty(t == ir::DataType::String ? ir::DataType::Double : t, p.dims());
  if (t == ir::DataType::String) badInput("Bernoulli cannot output strings");
  Generator g(c.node);
  std::vector<double> v(static_cast<size_t>(p.size()));
  for (int64_t k = 0; k < p.size(); ++k) v[k] = g.uniform() < p.doubleAt(k) ? 1.0 : 0.0;
  return {ofType(p.dims(), v, t)};
}

// Samples class indices from each row of unnormalised log-probabilities.
std::vector<Value> multinomial(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() != 2 || !ir::isFloatingPoint(x.dtype()))
    badInput("Multinomial input must be [batch, classes] floats, got " + describe(x));
  const int64_t samples = c.node.attrInt("sample_size", 1);
  const auto t = static_cast<ir::DataType>(c.node.attrInt("dtype", 6));
  if (t != ir::DataType::Int32 && t != ir::DataType::Int64) badInput("Multinomial dtype must be int32 or int64");
  const int64_t batch = x.dim(0), classes = x.dim(1);
  if (samples < 0) badInput("Multinomial sample_size " + std::to_string(samples));
  if (classes == 0 && samples > 0) badInput("Multinomial over zero classes");
  Tensor y = Tensor::empty(t, {batch, samples});
  Generator g(c.node);
  std::vector<double> cumulative(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    double mx = -INFINITY;
    for (int64_t k = 0; k < classes; ++k) mx = std::max(mx, x.doubleAt(b * classes + k));
    double total = 0;
    for (int64_t k = 0; k < classes; ++k) {
      total += std::exp(x.doubleAt(b * classes + k) - (std::isfinite(mx) ? mx : 0));
      cumulative[k] = total;
    }
    for (int64_t s = 0; s < samples; ++s) {
      const double u = g.uniform() * total;
      int64_t k = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
      if (k >= classes) k = classes - 1;
      if (t == ir::DataType::Int32)
        y.mutableData<int32_t>()[b * samples + s] = static_cast<int32_t>(k);
      else
        y.mutableData<int64_t>()[b * samples + s] = k;
    }
  }
  return {y};
}

}  // namespace

void registerRandomKernels(KernelRegistry& r) {
  // Inputs are read as they are (float16 included); outputs have the type the node asks for.
  r.add(
      "RandomNormal", 1, [](const KernelContext& c) { return randomOf(c, true); }, HalfTypes::AsIs);
  r.add(
      "RandomUniform", 1, [](const KernelContext& c) { return randomOf(c, false); }, HalfTypes::AsIs);
  r.add(
      "RandomNormalLike", 1, [](const KernelContext& c) { return randomLike(c, true); }, HalfTypes::AsIs);
  r.add(
      "RandomUniformLike", 1, [](const KernelContext& c) { return randomLike(c, false); }, HalfTypes::AsIs);
  r.add("Bernoulli", 15, bernoulli, HalfTypes::AsIs);
  r.add("Multinomial", 7, multinomial, HalfTypes::AsIs);
}

}  // namespace fb::eval
