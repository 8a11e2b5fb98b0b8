// Resize and Upsample. F.interpolate where it computes exactly what ONNX specifies (nearest with power-of-two
// scales, linear/cubic with half_pixel or align_corners); everything else goes through `_onnx_resize`, a helper
// that follows ONNX's reference axis by axis (index + weight tables, gather, weighted sum), so every coordinate
// transformation, nearest rounding, cubic coefficient, exclude_outside, crop-and-resize and antialias is exact.
#include <cmath>

#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

std::string floatList(const std::vector<double>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + pyFloat(v[i]);
  return s + "]";
}

std::string floatTuple(const std::vector<double>& v) {
  if (v.size() == 1) return "(" + pyFloat(v[0]) + ",)";
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + pyFloat(v[i]);
  return s + ")";
}

bool isPowerOfTwo(double s) {
  if (s < 1 || s != std::floor(s) || s > 65536) return false;
  auto v = static_cast<int64_t>(s);
  return (v & (v - 1)) == 0;
}

struct ResizeSpec {
  std::string mode = "nearest";
  std::string ctm = "half_pixel";
  std::string nearest = "round_prefer_floor";
  double cubicA = -0.75;
  bool excludeOutside = false;
  double extrapolation = 0.0;
  bool antialias = false;
  std::string policy = "stretch";
  std::optional<std::vector<int64_t>> axes;
  // Each is a Python expression, or empty when absent.
  std::string scales, sizes, roi;
  std::optional<std::vector<double>> constScales;
};

// F.interpolate when it is exactly ONNX's formula: full-rank constant scales that keep N and C.
bool tryInterpolate(PyNode& p, const ResizeSpec& r) {
  if (!r.constScales || r.axes || r.antialias || r.excludeOutside) return false;
  const auto& s = *r.constScales;
  const size_t n = s.size();
  if (n < 3 || n > 5 || s[0] != 1.0 || s[1] != 1.0) return false;
  auto rank = p.rank(0);
  if (!rank || static_cast<size_t>(*rank) != n) return false;
  const ir::DataType t = p.dtype(0);
  if (t != ir::DataType::Float && t != ir::DataType::Double) return false;  // OneFlow's kernels: float/double only
  std::vector<double> spatial(s.begin() + 2, s.end());
  std::string call;
  if (r.mode == "nearest") {
    // floor(i / s) with a power-of-two s is exact in PyTorch's float arithmetic too.
    if (r.ctm != "asymmetric" || r.nearest != "floor") return false;
    for (double v : spatial)
      if (!isPowerOfTwo(v)) return false;
    call = "F.interpolate(" + p.in(0) + ", scale_factor=" + floatTuple(spatial) + ", mode='nearest')";
  } else {
    // half_pixel = align_corners=False with ONNX's own scale (torch sizes the output as floor(in * scale) too).
    // align_corners with scales is not the same: ONNX divides by scale * in - 1, not by the output length - 1.
    if (r.ctm != "half_pixel") return false;
    std::string mode;
    if (r.mode == "linear")
      mode = n == 3 ? "linear" : n == 4 ? "bilinear" : "trilinear";
    else if (r.mode == "cubic" && n == 4 && r.cubicA == -0.75)
      mode = "bicubic";  // both libraries use A = -0.75
    else
      return false;
    call = "F.interpolate(" + p.in(0) + ", scale_factor=" + floatTuple(spatial) + ", mode='" + mode +
           "', align_corners=False)";
  }
  p.assign(call);
  return true;
}

void emitResize(PyNode& p, ResizeSpec& r) {
  if (r.mode != "nearest" && r.mode != "linear" && r.mode != "cubic") p.unsupported("mode '" + r.mode + "'");
  static const char* ctms[] = {"half_pixel",         "pytorch_half_pixel",   "align_corners",       "asymmetric",
                               "tf_crop_and_resize", "tf_half_pixel_for_nn", "half_pixel_symmetric"};
  bool known = false;
  for (const char* c : ctms) known = known || r.ctm == c;
  if (!known) p.unsupported("coordinate_transformation_mode '" + r.ctm + "'");
  if (r.nearest != "round_prefer_floor" && r.nearest != "round_prefer_ceil" && r.nearest != "floor" &&
      r.nearest != "ceil")
    p.unsupported("nearest_mode '" + r.nearest + "'");
  if (r.policy != "stretch" && r.policy != "not_larger" && r.policy != "not_smaller")
    p.unsupported("keep_aspect_ratio_policy '" + r.policy + "'");
  if (r.antialias && r.mode == "nearest") p.unsupported("antialias with mode nearest");
  if (r.scales.empty() && r.sizes.empty()) p.unsupported("neither scales nor sizes is given");
  const ir::DataType t = p.dtype(0);
  if (r.mode != "nearest" && t != ir::DataType::Float && t != ir::DataType::Double && t != ir::DataType::Float16 &&
      t != ir::DataType::Undefined)
    p.unsupported(r.mode + " resize of " + std::string(ir::dataTypeName(t)) +
                  " values (ONNX runtimes round integers differently)");
  if (tryInterpolate(p, r)) return;
  std::string x = p.in(0);
  std::string axes = r.axes ? pyIntList(*r.axes) : "list(range(" + x + ".dim()))";
  if (r.axes && !r.axes->empty()) {
    bool negative = false;
    for (auto a : *r.axes) negative = negative || a < 0;
    if (negative) axes = "[a % " + x + ".dim() for a in " + pyIntList(*r.axes) + "]";
  }
  std::string call = p.helper("_onnx_resize") + "(" + x + ", " + axes + ", " + (r.scales.empty() ? "None" : r.scales) +
                     ", " + (r.sizes.empty() ? "None" : r.sizes);
  if (r.ctm == "tf_crop_and_resize") {
    if (r.roi.empty()) p.unsupported("tf_crop_and_resize without roi");
    call += ", roi=" + r.roi;
  }
  if (r.mode != "nearest") call += ", mode=" + pyStringLiteral(r.mode);
  if (r.ctm != "half_pixel") call += ", ctm=" + pyStringLiteral(r.ctm);
  if (r.mode == "nearest" && r.nearest != "round_prefer_floor") call += ", nearest=" + pyStringLiteral(r.nearest);
  if (r.mode == "cubic" && r.cubicA != -0.75) call += ", cubic_a=" + pyFloat(r.cubicA);
  if (r.excludeOutside) call += ", exclude_outside=True";
  if (r.ctm == "tf_crop_and_resize" && r.extrapolation != 0.0) call += ", extrapolation=" + pyFloat(r.extrapolation);
  if (r.antialias) call += ", antialias=True";
  if (r.policy != "stretch" && !r.sizes.empty()) call += ", policy=" + pyStringLiteral(r.policy);
  p.assign(call + ")");
}

// Scales / sizes / roi inputs: a literal when constant (an empty constant = absent), else read at run time.
void readResizeInputs(PyNode& p, ResizeSpec& r, size_t roiIn, size_t scalesIn, size_t sizesIn) {
  if (scalesIn != size_t(-1) && p.has(scalesIn)) {
    if (auto v = p.constDoubles(scalesIn)) {
      if (!v->empty()) {
        r.scales = floatList(*v);
        r.constScales = *v;
      }
    } else {
      r.scales = "(" + p.in(scalesIn) + ".tolist() or None)";
    }
  }
  if (sizesIn != size_t(-1) && p.has(sizesIn)) {
    if (auto v = p.constInts(sizesIn)) {
      if (!v->empty()) r.sizes = pyIntList(*v);
    } else {
      r.sizes = "(" + p.in(sizesIn) + ".tolist() or None)";
    }
  }
  if (!r.sizes.empty()) r.constScales.reset();
  if (roiIn != size_t(-1) && p.has(roiIn)) {
    if (auto v = p.constDoubles(roiIn)) {
      if (!v->empty()) r.roi = floatList(*v);
    } else {
      r.roi = p.in(roiIn) + ".tolist()";
    }
  }
}

// Resize-10 and Upsample: asymmetric coordinates; nearest takes floor(i / scale) (Upsample's repeat for integer
// scales). Downscaling nearest is not specified the same way by the runtimes (ONNX Runtime takes the ceiling);
// Upsample's scales are >= 1 by definition.
void emitLegacyResize(PyNode& p, ResizeSpec& r, bool upsample) {
  r.ctm = "asymmetric";
  r.nearest = "floor";
  if (r.mode == "bilinear") r.mode = "linear";  // Upsample-7 spelling
  if (r.mode == "nearest" && !upsample) {
    if (!r.constScales) p.unsupported("nearest with scales computed at run time (downscaling is runtime-specific)");
    for (double s : *r.constScales)
      if (s < 1.0) p.unsupported("nearest downscaling in Resize-10/Upsample (runtimes disagree on the rounding)");
  }
  emitResize(p, r);
}

// The Python the generated code calls for Resize and Upsample: ONNX's reference algorithm, axis by axis.
void addResizeHelpers() {
  HelperLibrary::instance().add(Helper{"_onnx_f32",
                                       R"PY(def _onnx_f32(v):
    # The float32 rounding of a Python float (ONNX's reference keeps some scale arithmetic in float32).
    return T.tensor(v, dtype=T.float32).item()
)PY",
                                       {}});
  HelperLibrary::instance().add(Helper{
      "_onnx_resize",
      R"PY(def _onnx_resize(x, axes, scales, sizes, roi=None, mode='nearest', ctm='half_pixel', nearest='round_prefer_floor',
                 cubic_a=-0.75, exclude_outside=False, extrapolation=0.0, antialias=False, policy='stretch'):
    # ONNX Resize exactly as ONNX's reference computes it: axis by axis, every output element is a weighted sum
    # of its n nearest input elements along the axis (edge-clamped), coordinates in float64.
    in_sizes = [int(x.shape[a]) for a in axes]
    if sizes is not None:
        scales = [o / i for o, i in zip(sizes, in_sizes)]
        widths = [s * i for s, i in zip(scales, in_sizes)]
        if policy != 'stretch':
            s = min(scales) if policy == 'not_larger' else max(scales)
            scales = [s] * len(axes)
            sizes = [int(s * i + 0.5) for i in in_sizes]
            widths = [s * i for i in in_sizes]
    else:
        sizes = [int(s * i) for s, i in zip(scales, in_sizes)]
        widths = [_onnx_f32(s * i) for s, i in zip(scales, in_sizes)]  # float32 scale times the length, in float32
    dtype = x.dtype
    y = x if mode == 'nearest' else x.to(T.float64)
    for k in reversed(range(len(axes))):
        a, n_in, n_out, s, width = axes[k], in_sizes[k], sizes[k], scales[k], widths[k]
        r0, r1 = (roi[k], roi[k + len(axes)]) if roi is not None else (0.0, 1.0)
        if s == 1.0 and n_out == n_in and (ctm != 'tf_crop_and_resize' or (r0, r1) == (0.0, 1.0)):
            continue
        i = T.arange(n_out, dtype=T.float64, device=x.device)
        outside = None
        if ctm == 'align_corners':
            pos = i * 0.0 if width == 1 else i * (n_in - 1) / (width - 1)
        elif ctm == 'asymmetric':
            pos = i / s
        elif ctm == 'pytorch_half_pixel':
            pos = i * 0.0 - 0.5 if width == 1 else (i + 0.5) / s - 0.5
        elif ctm == 'half_pixel':
            pos = (i + 0.5) / s - 0.5
        elif ctm == 'tf_half_pixel_for_nn':
            pos = (i + 0.5) / s
        elif ctm == 'half_pixel_symmetric':
            offset = n_in / 2 * (1 - n_out / width)
            pos = offset + (i + 0.5) / s - 0.5
        elif ctm == 'tf_crop_and_resize':
            span = _onnx_f32(r1 - r0)
            if width == 1:
                pos = i * 0.0 + _onnx_f32(_onnx_f32(span * (n_in - 1)) / 2 + _onnx_f32(r0 * (n_in - 1)))
            else:
                pos = i * span * (n_in - 1) / (width - 1) + _onnx_f32(r0 * (n_in - 1))
            outside = (pos < 0) | (pos > n_in - 1)
        else:
            raise ValueError('coordinate_transformation_mode ' + ctm)
        base = T.floor(pos)
        whole = pos == base
        ratio = T.where(whole, i * 0.0 + 1.0, pos - base)
        base = T.where(whole, pos - 1, base)  # the reference prefers the neighbour on the left: ratio in (0, 1]
        shape = [1] * y.dim()
        shape[a] = n_out
        if mode == 'nearest':
            if nearest == 'round_prefer_floor':
                up = ratio > 0.5
            elif nearest == 'round_prefer_ceil':
                up = ratio >= 0.5
            elif nearest == 'floor':
                up = ratio < 0
            else:
                up = ratio >= 0
            up = up | whole
            start = base.clamp(-1, n_in - 1)  # the reference's window of 2 stays inside the edge padding of 1
            index = (start + up.to(T.float64)).clamp(0, n_in - 1).to(T.int64)
            y = y.index_select(a, index)
        else:
            scale = min(s, 1.0) if antialias else 1.0
            if mode == 'linear':
                first = int(-1.0 // scale) + 1 if antialias else 0
            else:
                first = int(-2.0 // scale) + 1 if antialias else -1
            taps = 2 - 2 * first
            offsets = T.arange(first, first + taps, dtype=T.float64, device=x.device)
            t = (offsets.reshape(1, -1) - ratio.reshape(-1, 1)).abs() * scale
            if mode == 'linear':
                w = (1 - t).clamp(0, 1)
            else:
                A = cubic_a
                w = T.where(t <= 1, ((A + 2) * t - (A + 3)) * t * t + 1,
                            T.where(t < 2, ((A * t - 5 * A) * t + 8 * A) * t - 4 * A, t * 0.0))
            if antialias:
                w = w / w.sum(1, keepdim=True)
            pad = taps // 2
            start = (base + first).clamp(-pad, n_in + pad - taps)
            index = start.reshape(-1, 1) + T.arange(taps, dtype=T.float64, device=x.device).reshape(1, -1)
            if exclude_outside:
                w = T.where((index < 0) | (index > n_in - 1), w * 0.0, w)
                w = w / w.sum(1, keepdim=True)
            index = index.clamp(0, n_in - 1).to(T.int64)
            picked = y.index_select(a, index.flatten())
            picked = picked.reshape(tuple(y.shape[:a]) + (n_out, taps) + tuple(y.shape[a + 1:]))
            y = (picked * w.reshape([n_out, taps] + [1] * (y.dim() - a - 1))).sum(a + 1)
        if outside is not None:
            y = y.masked_fill(outside.reshape(shape), extrapolation)  # outside the crop box: extrapolation_value
    return y.to(dtype)
)PY",
      {"_onnx_f32"}});
}

}  // namespace

void registerResizeCode(convert::HandlerRegistry& r) {
  addResizeHelpers();
  addPy(r, "Upsample", 7, "F.interpolate / exact resize helper (asymmetric)", [](PyNode& p) {
    ResizeSpec s;
    s.mode = p.attrString("mode", "nearest");
    auto scales = p.attrFloats("scales");
    if (scales.empty()) p.unsupported("no scales");
    s.constScales = std::vector<double>(scales.begin(), scales.end());
    s.scales = floatList(*s.constScales);
    emitLegacyResize(p, s, true);
  });
  addPy(r, "Upsample", 9, "F.interpolate / exact resize helper (asymmetric)", [](PyNode& p) {
    ResizeSpec s;
    s.mode = p.attrString("mode", "nearest");
    readResizeInputs(p, s, size_t(-1), 1, size_t(-1));
    emitLegacyResize(p, s, true);
  });
  addPy(r, "Resize", 10, "F.interpolate / exact resize helper (asymmetric)", [](PyNode& p) {
    ResizeSpec s;
    s.mode = p.attrString("mode", "nearest");
    readResizeInputs(p, s, size_t(-1), 1, size_t(-1));
    emitLegacyResize(p, s, false);
  });
  auto modern = [](int since) {
    return [since](PyNode& p) {
      ResizeSpec s;
      s.mode = p.attrString("mode", "nearest");
      s.ctm = p.attrString("coordinate_transformation_mode", "half_pixel");
      if (since >= 13 && s.ctm == "tf_half_pixel_for_nn")
        p.unsupported("tf_half_pixel_for_nn was removed in Resize-13");
      if (since < 19 && s.ctm == "half_pixel_symmetric") p.unsupported("half_pixel_symmetric needs Resize-19");
      s.nearest = p.attrString("nearest_mode", "round_prefer_floor");
      s.cubicA = p.attrFloat("cubic_coeff_a", -0.75f);
      s.excludeOutside = p.attrInt("exclude_outside", 0) != 0;
      s.extrapolation = p.attrFloat("extrapolation_value", 0.f);
      if (since >= 18) {
        s.antialias = p.attrInt("antialias", 0) != 0;
        s.policy = p.attrString("keep_aspect_ratio_policy", "stretch");
        if (p.hasAttr("axes")) s.axes = p.attrInts("axes");
      }
      readResizeInputs(p, s, 1, 2, 3);
      emitResize(p, s);
    };
  };
  addPy(r, "Resize", 11, "F.interpolate / exact resize helper", modern(11));
  addPy(r, "Resize", 13, "F.interpolate / exact resize helper", modern(13));
  addPy(r, "Resize", 18, "F.interpolate / exact resize helper (axes, antialias, aspect policy)", modern(18));
  addPy(r, "Resize", 19, "F.interpolate / exact resize helper (half_pixel_symmetric)", modern(19));
}

}  // namespace fb::codegen
