// Resize (opsets 10-19) and Upsample (1, 7, 9) as ONNX's reference computes them. Every resized axis gets a table:
// for each output index, the input indices it reads (clamped to the axis, as edge padding does) and their
// weights, or a mark that it lies outside (tf_crop_and_resize's extrapolation). Nearest gathers through the
// tables in one pass for any element type; linear and cubic (antialiased or not) apply them one axis at a time,
// which is the same sum since the filters are separable. Integers are interpolated in double and truncated, as
// the reference's astype does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/exec_context.h"

namespace fb::eval {

namespace {

enum class Mode { Nearest, Linear, Cubic };
enum class Coord {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNn,
  TfCropAndResize
};
// Simple: Upsample's and Resize-10's rounding (floor when enlarging, ceil when shrinking).
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil, Simple };

struct Spec {
  Mode mode = Mode::Nearest;
  Coord coord = Coord::Asymmetric;
  Rounding rounding = Rounding::Simple;
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0;
  bool antialias = false;
  std::vector<double> scales;    // per axis of the input
  std::vector<int64_t> outDims;  // per axis
  std::vector<double> roiStart, roiEnd;
};

// One axis: `taps` (index, weight) pairs per output index, and whether it is extrapolated.
struct AxisTable {
  int64_t in = 0, out = 0, taps = 0;
  std::vector<int64_t> index;
  std::vector<double> weight;
  std::vector<uint8_t> outside;
  bool identity = false;
  Tensor charge;  // holds the tables' size against the run's memory budget while they live
};

double keys(double x, double a) {
  x = std::fabs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// Where output index o reads on an axis of `in` elements, scale s and integer output size `out`.
// In float, as ONNX Runtime computes it: a coordinate that is exactly a pixel index in float can fall just short
// of it in double, and nearest's floor would then pick the pixel before.
double sourceCoordinate(const Spec& sp, int64_t o, int64_t in, double scale, int64_t out, double roiStart,
                        double roiEnd) {
  const float s = static_cast<float>(scale);
  const float len = static_cast<float>(in);
  const float outW = s * len;
  const float x = static_cast<float>(o);
  const float r0 = static_cast<float>(roiStart), r1 = static_cast<float>(roiEnd);
  switch (sp.coord) {
    case Coord::AlignCorners:
      return outW == 1 ? 0 : x * (len - 1) / (outW - 1);
    case Coord::Asymmetric:
      return x / s;
    case Coord::TfHalfPixelForNn:
      return (x + 0.5f) / s;
    case Coord::TfCropAndResize: {
      const float c = outW == 1 ? (r1 - r0) * (len - 1) / 2 : x * (r1 - r0) * (len - 1) / (outW - 1);
      return c + r0 * (len - 1);
    }
    case Coord::PytorchHalfPixel:
      return outW == 1 ? -0.5 : (x + 0.5f) / s - 0.5f;
    case Coord::HalfPixel:
      return (x + 0.5f) / s - 0.5f;
    case Coord::HalfPixelSymmetric: {
      const float adjustment = static_cast<float>(out) / outW;
      return len / 2 * (1 - adjustment) + (x + 0.5f) / s - 0.5f;
    }
  }
  return x;
}

AxisTable buildTable(const Spec& sp, size_t axis, int64_t in) {
  AxisTable t;
  t.in = in;
  t.out = sp.outDims[axis];
  const double s = sp.scales[axis];
  if (t.out == 0) return t;
  if (in == 0) badInput("Resize cannot fill " + std::to_string(t.out) + " elements from an empty axis");
  // The filter's footprint: taps at offsets first..first+n-1 from the index left of the source coordinate.
  const double stretch = sp.antialias ? std::min(s, 1.0) : 1.0;
  int64_t first = 0, n = 2;
  if (sp.mode == Mode::Nearest) {
    n = 1;
  } else if (sp.mode == Mode::Linear) {
    first = sp.antialias ? static_cast<int64_t>(std::floor(-1 / stretch)) + 1 : 0;
    n = 2 - 2 * first;
  } else {
    first = sp.antialias ? static_cast<int64_t>(std::floor(-2 / stretch)) + 1 : -1;
    n = 2 - 2 * first;
  }
  // Clamped taps collapse onto the edges, so an output never needs more entries than the axis has elements.
  t.taps = std::min(n, in);
  const size_t cells = static_cast<size_t>(t.out) * static_cast<size_t>(t.taps);
  t.charge = Tensor::empty(ir::DataType::Double, {t.out, t.taps * 2});
  t.index.assign(cells, 0);
  t.weight.assign(cells, 0.0);
  t.outside.assign(static_cast<size_t>(t.out), 0);
  const double r0 = sp.roiStart[axis], r1 = sp.roiEnd[axis];
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t o = 0; o < t.out; ++o) {
    const double x = sourceCoordinate(sp, o, in, s, t.out, r0, r1);
    if (!std::isfinite(x)) badInput("Resize maps an output index to a coordinate that is not finite");
    if (sp.coord == Coord::TfCropAndResize && (x < 0 || x > static_cast<double>(in - 1))) {
      t.outside[o] = 1;
      continue;
    }
    if (std::fabs(x) > 9e15) badInput("Resize maps an output index far outside the input");
    // base: the index left of x, ratio in (0, 1] (an integer x has ratio 1 and reads base + 1 = x).
    const int64_t base = static_cast<int64_t>(std::ceil(x)) - 1;
    const double ratio = x - static_cast<double>(base);
    int64_t* idx = &t.index[static_cast<size_t>(o * t.taps)];
    double* wt = &t.weight[static_cast<size_t>(o * t.taps)];
    if (sp.mode == Mode::Nearest) {
      int64_t pick = base + 1;
      if (ratio != 1) {
        switch (sp.rounding) {
          case Rounding::RoundPreferFloor:
            pick = ratio <= 0.5 ? base : base + 1;
            break;
          case Rounding::RoundPreferCeil:
            pick = ratio < 0.5 ? base : base + 1;
            break;
          case Rounding::Floor:
            pick = base;
            break;
          case Rounding::Ceil:
            pick = base + 1;
            break;
          case Rounding::Simple:
            pick = s < 1 ? base + 1 : base;
            break;
        }
      }
      idx[0] = std::clamp<int64_t>(pick, 0, in - 1);
      wt[0] = 1;
      continue;
    }
    double sum = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double d = static_cast<double>(first + k) - ratio;  // tap's offset from x
      double v = sp.mode == Mode::Linear ? std::max(0.0, 1 - std::fabs(d * stretch)) : keys(d * stretch, sp.cubicA);
      const int64_t at = base + first + k;
      if (sp.excludeOutside && (at < 0 || at >= in)) v = 0;
      w[k] = v;
      sum += v;
    }
    const bool normalise = sp.antialias || sp.excludeOutside;
    int64_t used = 0;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t at = std::clamp<int64_t>(base + first + k, 0, in - 1);
      const double v = normalise ? (sum != 0 ? w[k] / sum : 0) : w[k];
      if (used > 0 && idx[used - 1] == at) {
        wt[used - 1] += v;
      } else {
        idx[used] = at;
        wt[used] = v;
        ++used;
      }
    }
  }
  t.identity = t.out == in;
  for (int64_t o = 0; o < t.out && t.identity; ++o) {
    if (t.outside[o]) t.identity = false;
    for (int64_t k = 0; k < t.taps && t.identity; ++k) {
      const double v = t.weight[o * t.taps + k];
      if (v != 0 && !(v == 1 && t.index[o * t.taps + k] == o)) t.identity = false;
    }
  }
  return t;
}

template <typename T>
T extrapolated(double v) {
  if constexpr (std::is_same_v<T, bool>)
    return v != 0;
  else
    return static_cast<T>(v);
}

// Nearest: out[o_0, ..., o_r-1] = x[idx_0[o_0], ..., idx_r-1[o_r-1]], or the extrapolation value.
template <typename T>
Tensor gatherNearest(const Tensor& x, const std::vector<AxisTable>& tables, const Spec& sp) {
  const size_t rank = x.rank();
  Tensor y =
      x.isString()
          ? Tensor::strings(sp.outDims, std::vector<std::string>(static_cast<size_t>(checkedElementCount(sp.outDims))))
          : Tensor::empty(x.dtype(), sp.outDims);
  if (y.size() == 0) return y;
  // Input offset per output index and axis; -1 where the output is extrapolated.
  std::vector<std::vector<int64_t>> offset(rank);
  int64_t stride = 1;
  for (size_t a = rank; a-- > 0;) {
    const AxisTable& t = tables[a];
    offset[a].resize(static_cast<size_t>(t.out));
    for (int64_t o = 0; o < t.out; ++o) offset[a][o] = t.outside[o] ? -1 : t.index[o * t.taps] * stride;
    stride *= x.dim(a);
  }
  const int64_t inner = sp.outDims[rank - 1];
  const int64_t rows = y.size() / inner;
  const T fill = [&] {
    if constexpr (std::is_same_v<T, std::string>)
      return std::string();
    else
      return extrapolated<T>(sp.extrapolation);
  }();
  auto src = [&](int64_t k) -> const T& {
    if constexpr (std::is_same_v<T, std::string>)
      return x.stringValues()[k];
    else
      return x.data<T>()[k];
  };
  T* dst = [&] {
    if constexpr (std::is_same_v<T, std::string>)
      return y.mutableStrings().data();
    else
      return y.mutableData<T>();
  }();
  const std::vector<int64_t>& last = offset[rank - 1];
#pragma omp parallel for schedule(static) if (y.size() > 65536)
  for (int64_t row = 0; row < rows; ++row) {
    int64_t base = 0;
    bool out = false;
    int64_t rest = row;
    for (size_t a = rank - 1; a-- > 0;) {
      const int64_t o = rest % sp.outDims[a];
      rest /= sp.outDims[a];
      if (offset[a][o] < 0) out = true;
      base += offset[a][o];
    }
    T* line = dst + row * inner;
    for (int64_t o = 0; o < inner; ++o) line[o] = (out || last[o] < 0) ? fill : src(base + last[o]);
  }
  return y;
}

// One axis of a separable resample: src has dims `dims`, the result the same with dims[axis] = t.out.
template <typename A>
Tensor resampleAxis(const Tensor& src, std::vector<int64_t>& dims, size_t axis, const AxisTable& t, A fill) {
  int64_t outer = 1, inner = 1;
  for (size_t a = 0; a < axis; ++a) outer *= dims[a];
  for (size_t a = axis + 1; a < dims.size(); ++a) inner *= dims[a];
  dims[axis] = t.out;
  Tensor dst = Tensor::empty(dataTypeOf<A>(), dims);
  const A* s = src.data<A>();
  A* d = dst.mutableData<A>();
  const int64_t in = t.in, out = t.out, taps = t.taps;
  std::vector<A> weight(t.weight.size());
  for (size_t k = 0; k < weight.size(); ++k) weight[k] = static_cast<A>(t.weight[k]);
#pragma omp parallel for schedule(static) if (dst.size() > 65536)
  for (int64_t job = 0; job < outer * out; ++job) {
    const int64_t p = job / out, o = job % out;
    A* line = d + (p * out + o) * inner;
    if (t.outside[o]) {
      for (int64_t i = 0; i < inner; ++i) line[i] = fill;
      continue;
    }
    for (int64_t i = 0; i < inner; ++i) line[i] = 0;
    for (int64_t k = 0; k < taps; ++k) {
      const A w = weight[o * taps + k];
      if (w == 0) continue;
      const A* from = s + (p * in + t.index[o * taps + k]) * inner;
      for (int64_t i = 0; i < inner; ++i) line[i] += w * from[i];
    }
  }
  return dst;
}

template <typename T>
Tensor interpolate(const Tensor& x, const std::vector<AxisTable>& tables, const Spec& sp) {
  using A = std::conditional_t<std::is_floating_point_v<T>, T, double>;
  Tensor cur = std::is_same_v<A, T> ? x : Tensor::empty(dataTypeOf<A>(), x.dims());
  if constexpr (!std::is_same_v<A, T>) {
    const T* p = x.data<T>();
    A* q = cur.mutableData<A>();
    for (int64_t k = 0; k < x.size(); ++k) q[k] = static_cast<A>(p[k]);
  }
  std::vector<int64_t> dims = x.dims();
  for (size_t a = 0; a < tables.size(); ++a)
    if (!tables[a].identity) cur = resampleAxis<A>(cur, dims, a, tables[a], static_cast<A>(sp.extrapolation));
  if constexpr (std::is_same_v<A, T>) {
    return cur;  // the input itself when no axis changes: values share bytes, as Identity's do
  } else {
    Tensor y = Tensor::empty(x.dtype(), dims);
    const A* p = cur.data<A>();
    T* q = y.mutableData<T>();
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    // Saturating: 2^63 is a double but not an int64 (the comparisons keep the conversion defined).
    for (int64_t k = 0; k < y.size(); ++k) {
      const double v = std::trunc(p[k]);
      q[k] = std::isnan(v) ? T(0)
             : v >= hi     ? std::numeric_limits<T>::max()
             : v <= lo     ? std::numeric_limits<T>::lowest()
                           : static_cast<T>(v);
    }
    return y;
  }
}

Tensor resizeWith(const Tensor& x, const Spec& sp) {
  if (x.rank() == 0) badInput("Resize of a scalar: there is no axis to resize");
  if (checkedElementCount(sp.outDims) == 0) {
    if (x.isString()) return Tensor::strings(sp.outDims, {});
    return Tensor::empty(x.dtype(), sp.outDims);
  }
  std::vector<AxisTable> tables;
  for (size_t a = 0; a < x.rank(); ++a) tables.push_back(buildTable(sp, a, x.dim(a)));
  if (x.isString()) {
    if (sp.mode != Mode::Nearest) unsupported("Resize of strings other than nearest");
    return gatherNearest<std::string>(x, tables, sp);
  }
  if (sp.mode == Mode::Nearest) {
    return visitNumeric(x.dtype(), [&]<typename T>() { return gatherNearest<T>(x, tables, sp); });
  }
  if (x.dtype() == ir::DataType::Bool) unsupported("Resize of bool other than nearest");
  return visitNumeric(x.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>)
      return Tensor();
    else
      return interpolate<T>(x, tables, sp);
  });
}

// Output dims from per-axis scales: floor(in * scale), bounded before conversion.
void dimsFromScales(const Tensor& x, Spec& sp) {
  sp.outDims.resize(x.rank());
  for (size_t a = 0; a < x.rank(); ++a) {
    const double s = sp.scales[a];
    if (!(s > 0) || !std::isfinite(s)) badInput("Resize scale " + std::to_string(s) + " is not a positive number");
    const double out = std::floor(static_cast<double>(x.dim(a)) * s);
    if (out > 9.0e15) badInput("Resize to " + std::to_string(out) + " elements on an axis is too large");
    sp.outDims[a] = static_cast<int64_t>(out);
  }
}

Mode modeFrom(const std::string& m, bool cubicAllowed) {
  if (m == "nearest") return Mode::Nearest;
  if (m == "linear" || m == "bilinear") return Mode::Linear;
  if (m == "cubic" && cubicAllowed) return Mode::Cubic;
  badInput("interpolation mode '" + m.substr(0, 32) + "' is not known here");
}

Coord coordFrom(const std::string& c, int64_t opset) {
  if (c == "half_pixel") return Coord::HalfPixel;
  if (c == "half_pixel_symmetric" && opset >= 19) return Coord::HalfPixelSymmetric;
  if (c == "pytorch_half_pixel") return Coord::PytorchHalfPixel;
  if (c == "align_corners") return Coord::AlignCorners;
  if (c == "asymmetric") return Coord::Asymmetric;
  if (c == "tf_half_pixel_for_nn") return Coord::TfHalfPixelForNn;
  if (c == "tf_crop_and_resize") return Coord::TfCropAndResize;
  badInput("coordinate_transformation_mode '" + c.substr(0, 32) + "' is not known at opset " + std::to_string(opset));
}

Rounding roundingFrom(const std::string& r) {
  if (r == "round_prefer_floor") return Rounding::RoundPreferFloor;
  if (r == "round_prefer_ceil") return Rounding::RoundPreferCeil;
  if (r == "floor") return Rounding::Floor;
  if (r == "ceil") return Rounding::Ceil;
  badInput("nearest_mode '" + r.substr(0, 32) + "' is not known");
}

// A tensor given for an optional input that is empty counts as absent (opset 11 names scales even with sizes).
const Tensor* nonEmpty(const KernelContext& c, size_t k) {
  const Tensor* t = c.optionalInput(k);
  return t && t->size() > 0 ? t : nullptr;
}

}  // namespace

std::vector<Value> resizeKernel(const KernelContext& c) {
  const ir::Node& n = c.node;
  const Tensor& x = c.input(0);
  const size_t rank = x.rank();
  Spec sp;
  sp.roiStart.assign(rank, 0.0);
  sp.roiEnd.assign(rank, 1.0);
  if (c.opset < 11) {
    sp.mode = modeFrom(n.attrString("mode", "nearest"), false);
    const Tensor& scales = c.input(1);
    if (scales.size() != static_cast<int64_t>(rank))
      badInput("Resize scales " + describe(scales) + " do not give one scale per axis of " + describe(x));
    sp.scales = scales.toDoubles();
    dimsFromScales(x, sp);
    return {resizeWith(x, sp)};
  }
  sp.mode = modeFrom(n.attrString("mode", "nearest"), true);
  sp.coord = coordFrom(n.attrString("coordinate_transformation_mode", "half_pixel"), c.opset);
  sp.rounding = roundingFrom(n.attrString("nearest_mode", "round_prefer_floor"));
  sp.cubicA = n.attrFloat("cubic_coeff_a", -0.75f);
  sp.excludeOutside = n.attrInt("exclude_outside", 0) != 0;
  sp.extrapolation = n.attrFloat("extrapolation_value", 0.0f);
  std::vector<int64_t> axes;
  std::string policy = "stretch";
  if (c.opset >= 18) {
    sp.antialias = n.attrInt("antialias", 0) != 0;
    policy = n.attrString("keep_aspect_ratio_policy", "stretch");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
      badInput("keep_aspect_ratio_policy '" + policy.substr(0, 32) + "' is not known");
    axes = n.attrInts("axes");
  }
  if (axes.empty()) {
    for (size_t a = 0; a < rank; ++a) axes.push_back(static_cast<int64_t>(a));
  } else {
    std::vector<bool> seen(rank, false);
    for (int64_t& a : axes) {
      if (a < -static_cast<int64_t>(rank) || a >= static_cast<int64_t>(rank))
        badInput("Resize axis " + std::to_string(a) + " is outside rank " + std::to_string(rank));
      if (a < 0) a += static_cast<int64_t>(rank);
      if (seen[a]) badInput("Resize axis " + std::to_string(a) + " is repeated");
      seen[a] = true;
    }
  }
  const size_t na = axes.size();
  if (const Tensor* roi = nonEmpty(c, 1); roi && sp.coord == Coord::TfCropAndResize) {
    if (roi->size() != static_cast<int64_t>(2 * na))
      badInput("Resize roi " + describe(*roi) + " does not give a start and an end per resized axis");
    for (size_t k = 0; k < na; ++k) {
      sp.roiStart[axes[k]] = roi->doubleAt(static_cast<int64_t>(k));
      sp.roiEnd[axes[k]] = roi->doubleAt(static_cast<int64_t>(na + k));
    }
  }
  const Tensor* scales = nonEmpty(c, 2);
  const Tensor* sizes = nonEmpty(c, 3);
  if (scales && sizes) badInput("Resize is given both scales and sizes");
  if (!scales && !sizes) badInput("Resize is given neither scales nor sizes");
  sp.scales.assign(rank, 1.0);
  if (scales) {
    if (scales->size() != static_cast<int64_t>(na))
      badInput("Resize scales " + describe(*scales) + " do not give one scale per resized axis");
    for (size_t k = 0; k < na; ++k) sp.scales[axes[k]] = scales->doubleAt(static_cast<int64_t>(k));
    dimsFromScales(x, sp);
  } else {
    if (sizes->size() != static_cast<int64_t>(na))
      badInput("Resize sizes " + describe(*sizes) + " do not give one size per resized axis");
    sp.outDims = x.dims();
    for (size_t k = 0; k < na; ++k) {
      const int64_t s = sizes->int64At(static_cast<int64_t>(k));
      if (s < 0) badInput("Resize size " + std::to_string(s) + " is negative");
      sp.outDims[axes[k]] = s;
    }
    for (int64_t a : axes)
      if (x.dim(a) == 0 && sp.outDims[a] != 0) badInput("Resize cannot fill a nonempty axis from an empty one");
    for (int64_t a : axes)
      sp.scales[a] = x.dim(a) == 0 ? 1.0 : static_cast<double>(sp.outDims[a]) / static_cast<double>(x.dim(a));
    if (policy != "stretch") {
      double scale = policy == "not_larger" ? INFINITY : 0;
      for (int64_t a : axes)
        scale = policy == "not_larger" ? std::min(scale, sp.scales[a]) : std::max(scale, sp.scales[a]);
      for (int64_t a : axes) {
        sp.scales[a] = scale;
        sp.outDims[a] = static_cast<int64_t>(scale * static_cast<double>(x.dim(a)) + 0.5);
      }
    }
  }
  return {resizeWith(x, sp)};
}

std::vector<Value> upsampleKernel(const KernelContext& c) {
  const ir::Node& n = c.node;
  const Tensor& x = c.input(0);
  Spec sp;
  sp.roiStart.assign(x.rank(), 0.0);
  sp.roiEnd.assign(x.rank(), 1.0);
  sp.mode = modeFrom(n.attrString("mode", "nearest"), false);
  if (c.opset < 7) {
    if (x.rank() != 4) badInput("Upsample-1 takes a 4-D input, not " + describe(x));
    sp.scales = {1.0, 1.0, n.attrFloat("height_scale", 1.0f), n.attrFloat("width_scale", 1.0f)};
  } else if (c.opset < 9) {
    const ir::Attribute* a = n.attr("scales");
    if (!a) badInput("Upsample needs its scales attribute");
    sp.scales.assign(a->floats.vec().begin(), a->floats.vec().end());
  } else {
    sp.scales = c.input(1).toDoubles();
  }
  if (sp.scales.size() != x.rank())
    badInput("Upsample has " + std::to_string(sp.scales.size()) + " scales for " + describe(x));
  dimsFromScales(x, sp);
  return {resizeWith(x, sp)};
}

}  // namespace fb::eval
