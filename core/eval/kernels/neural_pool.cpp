// Pooling. Float max and average pooling go through oneDNN's pooling where its rules are ONNX's (MaxPool without the
// indices output; AveragePool unless count_include_pad would count the end overhang ceil_mode adds, which ONNX
// leaves out and oneDNN counts); everything else (the indices output, double and integer types, LpPool, more than
// three spatial dims) is a plain loop over the windows, as is every global pool (a reduction over each plane).
#include <cmath>
#include <limits>

#include "eval/eval_budget.h"
#include "eval/kernels/neural_conv_reference.h"
#include "eval/kernels/neural_families.h"
#include "eval/kernels/neural_onednn.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"
#include "ir/value.h"

namespace fb::eval {

namespace {

using dnnl::memory;

enum class PoolKind { Max, Average, Lp };

struct PoolShape {
  int64_t planes = 0;  // N * C
  Window window;
  std::vector<int64_t> outDims;
};

PoolShape poolShape(const KernelContext& c, const Tensor& x, const char* op) {
  const size_t r = spatialRankOf(x.dims(), op);
  if (!c.node.hasAttr("kernel_shape")) badInput(std::string(op) + " needs kernel_shape");
  const std::vector<int64_t> kernel = c.node.attrInts("kernel_shape");
  if (kernel.size() != r)
    badInput("kernel_shape has " + std::to_string(kernel.size()) + " dims for " + std::to_string(r) + " spatial dims");
  PoolShape s;
  s.planes = x.dim(0) * x.dim(1);
  s.window = slidingWindow(c.node, {x.dims().begin() + 2, x.dims().end()}, kernel, c.node.attrInt("ceil_mode", 0) != 0);
  s.outDims = {x.dim(0), x.dim(1)};
  s.outDims.insert(s.outDims.end(), s.window.out.begin(), s.window.out.end());
  // The work is outputs x window positions whichever path runs it (oneDNN's too): bounded, and charged to a fold's
  // operations budget, so that a kernel_shape of 2^20 x 2^20 in a tiny file is refused instead of run.
  int64_t positions = 1, pairs = 0;
  for (int64_t k : kernel)
    if (k <= 0 || __builtin_mul_overflow(positions, k, &positions) || positions > kMaxWindowPositions)
      unsupported(std::string(op) + " with a window of more than 2^24 positions");
  if (__builtin_mul_overflow(s.window.outCount(), positions, &pairs) || pairs > (int64_t{1} << 26))
    unsupported(std::string(op) + " of " + std::to_string(s.window.outCount()) + " outputs per plane over windows of " +
                std::to_string(positions) + " positions: beyond 2^26 steps per plane");
  chargeOperations(
      eval::saturatingProduct(static_cast<uint64_t>(pairs), static_cast<uint64_t>(std::max<int64_t>(s.planes, 1))));
  return s;
}

// For each output position: the input positions (flat in a plane) its window reads, and how many window positions
// fall in the input or the explicit pads (count_include_pad's divisor: the ceil_mode overhang is not counted).
struct WindowPlan {
  std::vector<int64_t> start;  // per output position, into `reads`
  std::vector<int64_t> reads;
  std::vector<int64_t> withPads;
};

WindowPlan planWindows(const Window& w) {
  WindowPlan p;
  const auto offsets = kernelOffsets(w.kernel);
  const size_t r = w.rank();
  std::vector<int64_t> o(r, 0);
  for (int64_t op = 0; op < w.outCount(); ++op) {
    p.start.push_back(static_cast<int64_t>(p.reads.size()));
    int64_t padded = 0;
    for (const auto& k : offsets) {
      int64_t flat = 0;
      bool inside = true, inPads = true;
      for (size_t a = 0; a < r; ++a) {
        const int64_t q = o[a] * w.strides[a] - w.padBegin[a] + k[a] * w.dilations[a];
        if (q < 0 || q >= w.in[a]) inside = false;
        if (q < -w.padBegin[a] || q >= w.in[a] + w.padEnd[a]) inPads = false;
        flat = flat * w.in[a] + q;
      }
      if (inside) p.reads.push_back(flat);
      padded += inPads;
    }
    p.withPads.push_back(padded);
    for (size_t a = r; a-- > 0;) {
      if (++o[a] < w.out[a]) break;
      o[a] = 0;
    }
  }
  p.start.push_back(static_cast<int64_t>(p.reads.size()));
  return p;
}

template <typename T>
void poolLoop(PoolKind kind, const PoolShape& s, const Tensor& x, Tensor& y, Tensor* indices, bool includePad, double p,
              bool columnMajorIndices) {
  const WindowPlan plan = planWindows(s.window);
  const int64_t inPlane = s.window.inCount(), outPlane = s.window.outCount();
  const T* px = x.data<T>();
  T* py = y.mutableData<T>();
  int64_t* pi = indices ? indices->mutableData<int64_t>() : nullptr;
  const std::vector<int64_t>& in = s.window.in;
  for (int64_t plane = 0; plane < s.planes; ++plane) {
    const T* xp = px + plane * inPlane;
    for (int64_t op = 0; op < outPlane; ++op) {
      const int64_t* r0 = plan.reads.data() + plan.start[op];
      const int64_t n = plan.start[op + 1] - plan.start[op];
      T& out = py[plane * outPlane + op];
      if (kind == PoolKind::Max) {
        T best = std::numeric_limits<T>::lowest();
        if constexpr (std::numeric_limits<T>::has_infinity) best = -std::numeric_limits<T>::infinity();
        int64_t at = -1;
        for (int64_t k = 0; k < n; ++k)
          if (at < 0 || xp[r0[k]] > best) {
            best = xp[r0[k]];
            at = r0[k];
          }
        out = best;
        if (pi) {
          int64_t idx = at;
          if (columnMajorIndices && at >= 0) {
            // Spatial digits of `at`, then recombined with the first spatial dim fastest.
            std::vector<int64_t> d(in.size());
            int64_t rest = at;
            for (size_t a = in.size(); a-- > 0;) {
              d[a] = rest % in[a];
              rest /= in[a];
            }
            idx = 0;
            for (size_t a = in.size(); a-- > 0;) idx = idx * in[a] + d[a];
          }
          pi[plane * outPlane + op] = plane * inPlane + idx;
        }
      } else if (kind == PoolKind::Average) {
        double sum = 0;
        for (int64_t k = 0; k < n; ++k) sum += static_cast<double>(xp[r0[k]]);
        const int64_t count = includePad ? plan.withPads[op] : n;
        out = static_cast<T>(count > 0 ? sum / static_cast<double>(count) : 0.0);
      } else {
        double sum = 0;
        for (int64_t k = 0; k < n; ++k) sum += std::pow(std::fabs(static_cast<double>(xp[r0[k]])), p);
        out = static_cast<T>(std::pow(sum, 1.0 / p));
      }
    }
  }
}

// oneDNN pooling of a float tensor; false when its rules would differ from ONNX's (the caller then loops).
bool poolFloat(PoolKind kind, const PoolShape& s, const Tensor& x, Tensor& y, bool includePad) {
  const Window& w = s.window;
  if (w.rank() > 3 || kind == PoolKind::Lp) return false;
  memory::dims padEnd;
  bool overhang = false;
  for (size_t a = 0; a < w.rank(); ++a) {
    // The end padding oneDNN needs to produce `out` windows (more than the explicit pads under ceil_mode).
    const int64_t need = (w.out[a] - 1) * w.strides[a] + w.extent(a) - w.in[a] - w.padBegin[a];
    overhang = overhang || need > w.padEnd[a];
    padEnd.push_back(std::max(need, w.padEnd[a]));
    // oneDNN's windows must each touch the input (ONNX's may lie in the pads only when kernel < pads).
    if (w.padBegin[a] >= w.extent(a) || padEnd.back() >= w.extent(a)) return false;
  }
  if (kind == PoolKind::Average && includePad && overhang) return false;
  const dnnl::algorithm alg = kind == PoolKind::Max ? dnnl::algorithm::pooling_max
                              : includePad          ? dnnl::algorithm::pooling_avg_include_padding
                                                    : dnnl::algorithm::pooling_avg_exclude_padding;
  memory::dims dil;
  for (int64_t d : w.dilations) dil.push_back(d - 1);
  onednn::guarded("pooling", [&] {
    const memory::desc src = onednn::plainDesc(x.dims()), dst = onednn::plainDesc(y.dims());
    dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, dst,
                                     memory::dims(w.strides.begin(), w.strides.end()),
                                     memory::dims(w.kernel.begin(), w.kernel.end()), dil,
                                     memory::dims(w.padBegin.begin(), w.padBegin.end()), padEnd);
    dnnl::pooling_v2_forward::primitive_desc pd(d, onednn::strictAttr(), onednn::cpuEngine());
    onednn::execute("pooling", dnnl::pooling_v2_forward(pd),
                    {{DNNL_ARG_SRC, onednn::wrap(src, x.data<float>())},
                     {DNNL_ARG_DST, onednn::wrap(dst, y.mutableData<float>())}});
  });
  return true;
}

double lpNorm(const KernelContext& c) {
  const ir::Attribute* a = c.node.attr("p");
  const double p = !a ? 2.0 : a->type == ir::AttrType::Float ? a->f : static_cast<double>(a->i);
  if (!(p > 0) || !std::isfinite(p)) badInput("p " + std::to_string(p) + " is not a positive number");
  return p;
}

std::vector<Value> pool(const KernelContext& c, PoolKind kind, const char* op) {
  const Tensor& x = c.input(0);
  const PoolShape s = poolShape(c, x, op);
  Tensor y = Tensor::empty(x.dtype(), s.outDims);
  const bool wantIndices =
      kind == PoolKind::Max && c.node.outputs().size() > 1 && c.node.output(1) && !c.node.output(1)->name().empty();
  Tensor indices = wantIndices ? Tensor::empty(ir::DataType::Int64, s.outDims) : Tensor();
  const bool includePad = c.node.attrInt("count_include_pad", 0) != 0;
  if (y.size() == 0) return wantIndices ? std::vector<Value>{y, indices} : std::vector<Value>{y};
  const bool columnMajor = c.node.attrInt("storage_order", 0) != 0;
  if (x.dtype() == ir::DataType::Float && !wantIndices && poolFloat(kind, s, x, y, includePad)) return {y};
  const double p = kind == PoolKind::Lp ? lpNorm(c) : 2.0;
  visitNumeric(x.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      unsupported(std::string(op) + " of bool");
    } else {
      if (std::is_integral_v<T> && kind != PoolKind::Max) unsupported(std::string(op) + " of " + describe(x));
      poolLoop<T>(kind, s, x, y, wantIndices ? &indices : nullptr, includePad, p, columnMajor);
    }
  });
  if (wantIndices) return {y, indices};
  return {y};
}

template <PoolKind kind>
std::vector<Value> globalPool(const KernelContext& c) {
  const Tensor& x = c.input(0);
  spatialRankOf(x.dims(), "a global pool");
  std::vector<int64_t> outDims(x.rank(), 1);
  outDims[0] = x.dim(0);
  outDims[1] = x.dim(1);
  Tensor y = Tensor::empty(x.dtype(), outDims);
  const int64_t planes = x.dim(0) * x.dim(1);
  const int64_t plane = planes == 0 ? 0 : x.size() / planes;
  if (plane == 0 && y.size() > 0) badInput("a global pool over an empty plane");
  const double p = kind == PoolKind::Lp ? lpNorm(c) : 2.0;
  visitFloating(x.dtype(), [&]<typename T>() {
    const T* px = x.data<T>();
    T* py = y.mutableData<T>();
    for (int64_t q = 0; q < planes; ++q) {
      const T* xp = px + q * plane;
      if (kind == PoolKind::Max) {
        T best = xp[0];
        for (int64_t k = 1; k < plane; ++k) best = xp[k] > best || std::isnan(xp[k]) ? xp[k] : best;
        py[q] = best;
      } else if (kind == PoolKind::Average) {
        double sum = 0;
        for (int64_t k = 0; k < plane; ++k) sum += static_cast<double>(xp[k]);
        py[q] = static_cast<T>(sum / static_cast<double>(plane));
      } else {
        double sum = 0;
        for (int64_t k = 0; k < plane; ++k) sum += std::pow(std::fabs(static_cast<double>(xp[k])), p);
        py[q] = static_cast<T>(std::pow(sum, 1.0 / p));
      }
    }
  });
  return {y};
}

}  // namespace

void registerPoolKernels(KernelRegistry& r) {
  r.add("MaxPool", 1, [](const KernelContext& c) { return pool(c, PoolKind::Max, "MaxPool"); });
  r.add("AveragePool", 1, [](const KernelContext& c) { return pool(c, PoolKind::Average, "AveragePool"); });
  r.add("LpPool", 1, [](const KernelContext& c) { return pool(c, PoolKind::Lp, "LpPool"); });
  r.add("GlobalMaxPool", 1, globalPool<PoolKind::Max>);
  r.add("GlobalAveragePool", 1, globalPool<PoolKind::Average>);
  r.add("GlobalLpPool", 1, globalPool<PoolKind::Lp>);
}

}  // namespace fb::eval
