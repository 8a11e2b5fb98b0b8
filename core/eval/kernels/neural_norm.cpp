// Normalizations, LRN and MeanVarianceNormalization. Float BatchNormalization (inference), LayerNormalization and
// LRN (odd windows) run on oneDNN's primitives (neural_norm_onednn.cpp); the rest (double, training-mode batch
// statistics, BatchNormalization's per-position parameters before opset 9, Instance/Group/RMS normalization and MVN,
// for which oneDNN has no primitive) are plain loops in the input's float type, with each slice's mean and variance
// accumulated in double (two passes: the variance of the centred values, not E[x^2] - E[x]^2, so that large means do
// not cancel the variance away).
#include <cmath>

#include "eval/kernels/broadcast.h"
#include "eval/kernels/neural_families.h"
#include "eval/kernels/neural_norm_onednn.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

struct Moments {
  double mean = 0, variance = 0;
};

template <typename T>
Moments momentsOf(const T* x, int64_t n, int64_t stride = 1) {
  Moments m;
  if (n == 0) return m;
  double sum = 0;
  for (int64_t k = 0; k < n; ++k) sum += static_cast<double>(x[k * stride]);
  m.mean = sum / static_cast<double>(n);
  double sq = 0;
  for (int64_t k = 0; k < n; ++k) {
    const double d = static_cast<double>(x[k * stride]) - m.mean;
    sq += d * d;
  }
  m.variance = sq / static_cast<double>(n);
  return m;
}

int64_t product(const std::vector<int64_t>& d, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t k = from; k < to; ++k) p *= d[k];
  return p;
}

// A per-channel parameter: one value per channel, or (BatchNormalization's spatial = 0) one per channel and position.
const Tensor& channelParam(const KernelContext& c, size_t k, int64_t channels, int64_t perChannel, const char* what) {
  const Tensor& t = c.input(k);
  if (t.dtype() != c.input(0).dtype() && k != 0)
    badInput(std::string(what) + " " + describe(t) + " is not of X's type");
  if (t.size() != channels && t.size() != channels * perChannel)
    badInput(std::string(what) + " " + describe(t) + " does not hold one value per channel (" +
             std::to_string(channels) + ")");
  return t;
}

std::vector<Value> batchNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 2) badInput("BatchNormalization needs [N, C, ...], given " + describe(x));
  const int64_t n = x.dim(0), ch = x.dim(1), inner = product(x.dims(), 2, x.rank());
  const double eps = c.node.attrFloat("epsilon", 1e-5f);
  const bool training = c.opset >= 14 && c.node.attrInt("training_mode", 0) != 0;
  const Tensor& scale = channelParam(c, 1, ch, inner, "scale");
  const Tensor& bias = channelParam(c, 2, ch, inner, "B");
  const Tensor& mean = channelParam(c, 3, ch, inner, "input_mean");
  const Tensor& var = channelParam(c, 4, ch, inner, "input_var");
  const bool perPosition = scale.size() != ch;  // spatial = 0 before opset 9
  if (perPosition &&
      (training || bias.size() != scale.size() || mean.size() != scale.size() || var.size() != scale.size()))
    badInput("BatchNormalization's parameters do not agree in size");
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  if (!training && !perPosition && x.dtype() == ir::DataType::Float && x.rank() <= 5 && x.size() > 0) {
    onednn::batchNormalize(x, scale.data<float>(), bias.data<float>(), mean.data<float>(), var.data<float>(),
                           static_cast<float>(eps), y);
    return {y};
  }
  std::vector<Value> outs;
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    const T *ps = scale.data<T>(), *pb = bias.data<T>(), *pm = mean.data<T>(), *pv = var.data<T>();
    std::vector<double> useMean(static_cast<size_t>(ch)), useVar(static_cast<size_t>(ch));
    if (training) {
      for (int64_t q = 0; q < ch; ++q) {
        double sum = 0, sq = 0;
        for (int64_t b = 0; b < n; ++b)
          for (int64_t k = 0; k < inner; ++k) sum += static_cast<double>(px[(b * ch + q) * inner + k]);
        const double count = static_cast<double>(n * inner);
        const double mu = count > 0 ? sum / count : 0;
        for (int64_t b = 0; b < n; ++b)
          for (int64_t k = 0; k < inner; ++k) {
            const double d = static_cast<double>(px[(b * ch + q) * inner + k]) - mu;
            sq += d * d;
          }
        useMean[q] = mu;
        useVar[q] = count > 0 ? sq / count : 0;
      }
    }
    for (int64_t b = 0; b < n; ++b)
      for (int64_t q = 0; q < ch; ++q)
        for (int64_t k = 0; k < inner; ++k) {
          const int64_t p = perPosition ? q * inner + k : q;
          const double mu = training ? useMean[q] : static_cast<double>(pm[p]);
          const double v = training ? useVar[q] : static_cast<double>(pv[p]);
          const int64_t e = (b * ch + q) * inner + k;
          py[e] = static_cast<T>((static_cast<double>(px[e]) - mu) / std::sqrt(v + eps) * static_cast<double>(ps[p]) +
                                 static_cast<double>(pb[p]));
        }
    outs.push_back(y);
    if (training) {
      const double momentum = c.node.attrFloat("momentum", 0.9f);
      Tensor runMean = Tensor::empty(x.dtype(), {ch}), runVar = Tensor::empty(x.dtype(), {ch});
      for (int64_t q = 0; q < ch; ++q) {
        runMean.mutableData<T>()[q] =
            static_cast<T>(static_cast<double>(pm[q]) * momentum + useMean[q] * (1 - momentum));
        runVar.mutableData<T>()[q] = static_cast<T>(static_cast<double>(pv[q]) * momentum + useVar[q] * (1 - momentum));
      }
      outs.push_back(runMean);
      outs.push_back(runVar);
    }
  });
  return outs;
}

// y = (x - mean) / sqrt(var + eps) * scale + bias over [outer, inner] slices; scale(k) and bias(k) take the
// element's flat index.
template <typename T, typename Scale, typename Bias>
void normalizeSlices(const T* x, T* y, int64_t outer, int64_t inner, double eps, Scale scale, Bias bias,
                     double* meanOut = nullptr, double* invStdOut = nullptr) {
  for (int64_t o = 0; o < outer; ++o) {
    const Moments m = momentsOf(x + o * inner, inner);
    const double inv = 1.0 / std::sqrt(m.variance + eps);
    if (meanOut) meanOut[o] = m.mean;
    if (invStdOut) invStdOut[o] = inv;
    for (int64_t k = 0; k < inner; ++k) {
      const int64_t e = o * inner + k;
      y[e] = static_cast<T>((static_cast<double>(x[e]) - m.mean) * inv * scale(e) + bias(e));
    }
  }
}

std::vector<Value> instanceNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 3) badInput("InstanceNormalization needs [N, C, spatial...], given " + describe(x));
  const int64_t ch = x.dim(1), inner = product(x.dims(), 2, x.rank());
  const Tensor& scale = channelParam(c, 1, ch, 1, "scale");
  const Tensor& bias = channelParam(c, 2, ch, 1, "B");
  const double eps = c.node.attrFloat("epsilon", 1e-5f);
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  visitFloating(x.dtype(), [&]<typename T>() {
    const T *ps = scale.data<T>(), *pb = bias.data<T>();
    normalizeSlices<T>(
        x.data<T>(), y.mutableData<T>(), x.dim(0) * ch, inner, eps,
        [&](int64_t e) { return static_cast<double>(ps[(e / inner) % ch]); },
        [&](int64_t e) { return static_cast<double>(pb[(e / inner) % ch]); });
  });
  return {y};
}

int64_t normalizedAxis(const KernelContext& c, const Tensor& x, int64_t fallback) {
  const int64_t r = static_cast<int64_t>(x.rank());
  int64_t axis = c.node.attrInt("axis", fallback);
  if (axis < -r || axis >= r) badInput("axis " + std::to_string(axis) + " is outside rank " + std::to_string(r));
  return axis < 0 ? axis + r : axis;
}

// A parameter broadcast (unidirectionally) to the normalized dims X.shape[axis:]: its element for each position of
// a slice, as a vector of `inner` doubles.
std::vector<double> sliceParam(const Tensor* t, const Tensor& x, size_t axis, double fallback, const char* what) {
  const std::vector<int64_t> inner(x.dims().begin() + static_cast<std::ptrdiff_t>(axis), x.dims().end());
  const int64_t count = product(inner, 0, inner.size());
  if (!t) return std::vector<double>(static_cast<size_t>(count), fallback);
  if (t->rank() > inner.size() || broadcastDims({&t->dims(), &inner}) != inner)
    badInput(std::string(what) + " " + describe(*t) + " does not broadcast to the normalized dims");
  std::vector<double> v(static_cast<size_t>(count));
  const std::vector<double> src = t->toDoubles();
  BroadcastWalk<1> w(inner, {&t->dims()});
  for (int64_t k = 0; k < count; ++k, w.next()) v[static_cast<size_t>(k)] = src[w.at(0)];
  return v;
}

std::vector<int64_t> statsDims(const Tensor& x, size_t axis) {
  std::vector<int64_t> d = x.dims();
  for (size_t k = axis; k < d.size(); ++k) d[k] = 1;
  return d;
}

std::vector<Value> layerNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const size_t axis = static_cast<size_t>(normalizedAxis(c, x, -1));
  const int64_t outer = product(x.dims(), 0, axis), inner = product(x.dims(), axis, x.rank());
  const std::vector<double> scale = sliceParam(&c.input(1), x, axis, 1, "Scale");
  const std::vector<double> bias = sliceParam(c.optionalInput(2), x, axis, 0, "B");
  const double eps = c.node.attrFloat("epsilon", 1e-5f);
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  // Mean and InvStdDev are in the stash type: float (1) unless the model asks for another.
  const int64_t stash = c.node.attrInt("stash_type", 1);
  if (stash != 1 && stash != 11) unsupported("stash_type " + std::to_string(stash) + " (float and double only)");
  const ir::DataType statType = stash == 11 ? ir::DataType::Double : ir::DataType::Float;
  std::vector<double> mean(static_cast<size_t>(outer)), invStd(static_cast<size_t>(outer));
  if (x.dtype() == ir::DataType::Float && x.size() > 0) {
    const std::vector<float> scaleF(scale.begin(), scale.end()), biasF(bias.begin(), bias.end());
    std::vector<float> meanF(static_cast<size_t>(outer)), varF(static_cast<size_t>(outer));
    onednn::layerNormalize(x.data<float>(), y.mutableData<float>(), outer, inner, scaleF.data(), biasF.data(),
                           static_cast<float>(eps), meanF.data(), varF.data());
    for (size_t k = 0; k < meanF.size(); ++k) {
      mean[k] = meanF[k];
      invStd[k] = 1.0 / std::sqrt(static_cast<double>(varF[k]) + eps);
    }
  } else {
    visitFloating(x.dtype(), [&]<typename T>() {
      normalizeSlices<T>(
          x.data<T>(), y.mutableData<T>(), outer, inner, eps,
          [&](int64_t e) { return scale[static_cast<size_t>(e % inner)]; },
          [&](int64_t e) { return bias[static_cast<size_t>(e % inner)]; }, mean.data(), invStd.data());
    });
  }
  std::vector<Value> outs{y};
  for (const std::vector<double>* v : {&mean, &invStd}) {
    Tensor t = Tensor::empty(statType, statsDims(x, axis));
    for (int64_t k = 0; k < outer; ++k) {
      if (statType == ir::DataType::Double)
        t.mutableData<double>()[k] = (*v)[static_cast<size_t>(k)];
      else
        t.mutableData<float>()[k] = static_cast<float>((*v)[static_cast<size_t>(k)]);
    }
    outs.push_back(t);
  }
  return outs;
}

std::vector<Value> groupNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 2) badInput("GroupNormalization needs [N, C, ...], given " + describe(x));
  const int64_t groups = c.node.attrInt("num_groups", 0);
  const int64_t ch = x.dim(1), spatial = product(x.dims(), 2, x.rank());
  if (groups <= 0 || ch % groups != 0)
    badInput("num_groups " + std::to_string(groups) + " does not divide the " + std::to_string(ch) + " channels");
  // Opset 18 takes one scale and bias per group, 21 one per channel.
  const int64_t perParam = c.opset >= 21 ? ch : groups;
  const Tensor& scale = c.input(1);
  const Tensor& bias = c.input(2);
  if (scale.size() != perParam || bias.size() != perParam)
    badInput("scale " + describe(scale) + " and bias " + describe(bias) + " must hold " + std::to_string(perParam) +
             " values");
  const std::vector<double> s = scale.toDoubles(), b = bias.toDoubles();
  const double eps = c.node.attrFloat("epsilon", 1e-5f);
  const int64_t inner = ch / groups * spatial;
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  auto param = [&](int64_t e) {
    const int64_t channel = (e / spatial) % ch;
    return static_cast<size_t>(perParam == ch ? channel : channel / (ch / groups));
  };
  visitFloating(x.dtype(), [&]<typename T>() {
    normalizeSlices<T>(
        x.data<T>(), y.mutableData<T>(), x.dim(0) * groups, inner, eps, [&](int64_t e) { return s[param(e)]; },
        [&](int64_t e) { return b[param(e)]; });
  });
  return {y};
}

std::vector<Value> rmsNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const size_t axis = static_cast<size_t>(normalizedAxis(c, x, -1));
  const int64_t outer = product(x.dims(), 0, axis), inner = product(x.dims(), axis, x.rank());
  const std::vector<double> scale = sliceParam(&c.input(1), x, axis, 1, "scale");
  const double eps = c.node.attrFloat("epsilon", 1e-5f);
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    for (int64_t o = 0; o < outer; ++o) {
      double sq = 0;
      for (int64_t k = 0; k < inner; ++k) sq += static_cast<double>(px[o * inner + k]) * px[o * inner + k];
      const double inv = 1.0 / std::sqrt(sq / static_cast<double>(std::max<int64_t>(inner, 1)) + eps);
      for (int64_t k = 0; k < inner; ++k)
        py[o * inner + k] =
            static_cast<T>(static_cast<double>(px[o * inner + k]) * inv * scale[static_cast<size_t>(k)]);
    }
  });
  return {y};
}

std::vector<Value> lrn(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 2) badInput("LRN needs [N, C, ...], given " + describe(x));
  const int64_t size = c.node.attrInt("size", 0);
  if (size <= 0) badInput("LRN needs a positive size");
  const double alpha = c.node.attrFloat("alpha", 1e-4f), beta = c.node.attrFloat("beta", 0.75f),
               bias = c.node.attrFloat("bias", 1.0f);
  const int64_t ch = x.dim(1), spatial = product(x.dims(), 2, x.rank());
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  if (x.dtype() == ir::DataType::Float && x.rank() == 4 && size % 2 == 1 && x.size() > 0) {
    onednn::localResponseNormalize(x, size, static_cast<float>(alpha), static_cast<float>(beta),
                                   static_cast<float>(bias), y);
    return {y};
  }
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    for (int64_t b = 0; b < x.dim(0); ++b)
      for (int64_t q = 0; q < ch; ++q)
        for (int64_t k = 0; k < spatial; ++k) {
          double sq = 0;
          for (int64_t j = std::max<int64_t>(0, q - before); j <= std::min(ch - 1, q + after); ++j) {
            const double v = static_cast<double>(px[(b * ch + j) * spatial + k]);
            sq += v * v;
          }
          const int64_t e = (b * ch + q) * spatial + k;
          py[e] = static_cast<T>(static_cast<double>(px[e]) /
                                 std::pow(bias + alpha / static_cast<double>(size) * sq, beta));
        }
  });
  return {y};
}

std::vector<Value> meanVarianceNormalization(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t r = static_cast<int64_t>(x.rank());
  std::vector<int64_t> axes = c.node.hasAttr("axes") ? c.node.attrInts("axes") : std::vector<int64_t>{0, 2, 3};
  std::vector<bool> reduced(static_cast<size_t>(r), false);
  for (int64_t a : axes) {
    if (a < -r || a >= r) badInput("axis " + std::to_string(a) + " is outside rank " + std::to_string(r));
    reduced[static_cast<size_t>(a < 0 ? a + r : a)] = true;
  }
  // Kept dims index the statistics; reduced dims are walked within each.
  std::vector<int64_t> keptDims(x.dims());
  for (size_t k = 0; k < keptDims.size(); ++k)
    if (reduced[k]) keptDims[k] = 1;
  const int64_t slices = product(keptDims, 0, keptDims.size());
  const int64_t per = slices == 0 ? 0 : x.size() / slices;
  std::vector<double> sum(static_cast<size_t>(slices)), sq(static_cast<size_t>(slices));
  Tensor y = Tensor::empty(x.dtype(), x.dims());
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    {
      BroadcastWalk<1> w(x.dims(), {&keptDims});
      for (int64_t e = 0; e < x.size(); ++e, w.next()) sum[w.at(0)] += static_cast<double>(px[e]);
    }
    for (double& s : sum) s /= static_cast<double>(std::max<int64_t>(per, 1));
    {
      BroadcastWalk<1> w(x.dims(), {&keptDims});
      for (int64_t e = 0; e < x.size(); ++e, w.next()) {
        const double d = static_cast<double>(px[e]) - sum[w.at(0)];
        sq[w.at(0)] += d * d;
      }
    }
    BroadcastWalk<1> w(x.dims(), {&keptDims});
    for (int64_t e = 0; e < x.size(); ++e, w.next()) {
      const double sd = std::sqrt(sq[w.at(0)] / static_cast<double>(std::max<int64_t>(per, 1)));
      py[e] = static_cast<T>((static_cast<double>(px[e]) - sum[w.at(0)]) / (sd + 1e-9));
    }
  });
  return {y};
}

}  // namespace

void registerNormKernels(KernelRegistry& r) {
  r.add("BatchNormalization", 1, batchNormalization);
  r.add("InstanceNormalization", 1, instanceNormalization);
  r.add("LayerNormalization", 17, layerNormalization);
  r.add("GroupNormalization", 18, groupNormalization);
  r.add("RMSNormalization", 23, rmsNormalization);
  r.add("LRN", 1, lrn);
  r.add("MeanVarianceNormalization", 9, meanVarianceNormalization);
}

}  // namespace fb::eval
