// RoiAlign: each region of interest pooled into output_height x output_width bins, each bin the average (or max)
// of a regular grid of bilinear samples. Opset 10 has no coordinate_transformation_mode (its boxes are in
// output_half_pixel terms and at least one pixel wide); opset 16 adds it with half_pixel as the default.
// max takes the largest of the four weighted corner terms of each sample, as ONNX's reference and ONNX Runtime
// do (not the largest interpolated value).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/dispatch.h"

namespace fb::eval {

namespace {

template <typename T>
struct Corner {
  int64_t pos[4];
  T w[4];
};

struct Setup {
  bool max = false;
  bool halfPixel = false;
  int64_t outH = 1, outW = 1, samplingRatio = 0;
  double spatialScale = 1;
};

template <typename T>
Tensor roiAlign(const Tensor& x, const Tensor& rois, const std::vector<int64_t>& batchOf, const Setup& st) {
  const int64_t channels = x.dim(1), height = x.dim(2), width = x.dim(3);
  const int64_t count = rois.dim(0);
  Tensor y = Tensor::empty(x.dtype(), {count, channels, st.outH, st.outW});
  const T* px = x.data<T>();
  const T* pr = rois.data<T>();
  T* py = y.mutableData<T>();
  if (y.size() == 0) return y;
  if (height == 0 || width == 0) {  // every sample lies outside: zeros, without reading the empty input
    for (int64_t k = 0; k < y.size(); ++k) py[k] = T(0);
    return y;
  }
  const T offset = st.halfPixel ? T(0.5) : T(0);
  const T scale = static_cast<T>(st.spatialScale);
  // Per ROI: the sampling grid per bin, bounded so that a huge box cannot ask for unbounded work.
  std::vector<int64_t> gridH(static_cast<size_t>(count)), gridW(static_cast<size_t>(count));
  for (int64_t r = 0; r < count; ++r) {
    const T* box = pr + r * 4;
    for (int q = 0; q < 4; ++q)
      if (!std::isfinite(static_cast<double>(box[q]))) badInput("RoiAlign box " + std::to_string(r) + " is not finite");
    T roiW = box[2] * scale - box[0] * scale, roiH = box[3] * scale - box[1] * scale;
    if (!st.halfPixel) {
      roiW = std::max(roiW, T(1));
      roiH = std::max(roiH, T(1));
    }
    const double gh = st.samplingRatio > 0 ? static_cast<double>(st.samplingRatio)
                                           : std::ceil(static_cast<double>(roiH) / static_cast<double>(st.outH));
    const double gw = st.samplingRatio > 0 ? static_cast<double>(st.samplingRatio)
                                           : std::ceil(static_cast<double>(roiW) / static_cast<double>(st.outW));
    if (!(gh <= 4.0 * static_cast<double>(height) + 64) || !(gw <= 4.0 * static_cast<double>(width) + 64))
      badInput("RoiAlign box " + std::to_string(r) + " asks for more samples per bin than its input has pixels");
    gridH[r] = std::max<int64_t>(0, static_cast<int64_t>(gh));
    gridW[r] = std::max<int64_t>(0, static_cast<int64_t>(gw));
  }
  const int64_t bins = st.outH * st.outW;
#pragma omp parallel for schedule(dynamic) if (count * bins * channels > 4096)
  for (int64_t job = 0; job < count * bins; ++job) {
    const int64_t r = job / bins, bin = job % bins;
    const int64_t ph = bin / st.outW, pw = bin % st.outW;
    const T* box = pr + r * 4;
    const T startW = box[0] * scale - offset, startH = box[1] * scale - offset;
    T roiW = box[2] * scale - offset - startW, roiH = box[3] * scale - offset - startH;
    if (!st.halfPixel) {
      roiW = std::max(roiW, T(1));
      roiH = std::max(roiH, T(1));
    }
    const T binH = roiH / static_cast<T>(st.outH), binW = roiW / static_cast<T>(st.outW);
    const int64_t gh = gridH[r], gw = gridW[r];
    std::vector<Corner<T>> samples;
    samples.reserve(static_cast<size_t>(gh * gw));
    for (int64_t iy = 0; iy < gh; ++iy) {
      T yy = startH + static_cast<T>(ph) * binH + (static_cast<T>(iy) + T(0.5)) * binH / static_cast<T>(gh);
      for (int64_t ix = 0; ix < gw; ++ix) {
        T xx = startW + static_cast<T>(pw) * binW + (static_cast<T>(ix) + T(0.5)) * binW / static_cast<T>(gw);
        Corner<T> cn{{0, 0, 0, 0}, {0, 0, 0, 0}};
        if (yy < T(-1) || yy > static_cast<T>(height) || xx < T(-1) || xx > static_cast<T>(width)) {
          samples.push_back(cn);
          continue;
        }
        T sy = std::max(yy, T(0)), sx = std::max(xx, T(0));
        int64_t y0 = static_cast<int64_t>(sy), x0 = static_cast<int64_t>(sx), y1, x1;
        if (y0 >= height - 1) {
          y0 = y1 = height - 1;
          sy = static_cast<T>(y0);
        } else {
          y1 = y0 + 1;
        }
        if (x0 >= width - 1) {
          x0 = x1 = width - 1;
          sx = static_cast<T>(x0);
        } else {
          x1 = x0 + 1;
        }
        const T ly = sy - static_cast<T>(y0), lx = sx - static_cast<T>(x0);
        const T hy = T(1) - ly, hx = T(1) - lx;
        cn = {{y0 * width + x0, y0 * width + x1, y1 * width + x0, y1 * width + x1},
              {hy * hx, hy * lx, ly * hx, ly * lx}};
        samples.push_back(cn);
      }
    }
    const T countT = static_cast<T>(std::max<int64_t>(gh * gw, 1));
    for (int64_t ch = 0; ch < channels; ++ch) {
      const T* plane = px + (batchOf[r] * channels + ch) * height * width;
      T v = 0;
      bool first = true;
      for (const Corner<T>& s : samples) {
        if (!st.max) {
          v +=
              s.w[0] * plane[s.pos[0]] + s.w[1] * plane[s.pos[1]] + s.w[2] * plane[s.pos[2]] + s.w[3] * plane[s.pos[3]];
        } else {
          const T m = std::max(std::max(s.w[0] * plane[s.pos[0]], s.w[1] * plane[s.pos[1]]),
                               std::max(s.w[2] * plane[s.pos[2]], s.w[3] * plane[s.pos[3]]));
          v = first ? m : std::max(v, m);
          first = false;
        }
      }
      if (!st.max) v /= countT;
      py[((r * channels + ch) * st.outH + ph) * st.outW + pw] = v;
    }
  }
  return y;
}

}  // namespace

std::vector<Value> roiAlignKernel(const KernelContext& c) {
  const ir::Node& n = c.node;
  const Tensor& x = c.input(0);
  const Tensor& rois = c.input(1);
  const Tensor& batchIndices = c.input(2);
  if (x.rank() != 4) badInput("RoiAlign input " + describe(x) + " is not 4-D");
  if (rois.rank() != 2 || rois.dim(1) != 4) badInput("RoiAlign rois " + describe(rois) + " is not [num_rois, 4]");
  if (rois.dtype() != x.dtype()) badInput("RoiAlign rois " + describe(rois) + " are not of the input's type");
  if (batchIndices.rank() != 1 || batchIndices.dim(0) != rois.dim(0))
    badInput("RoiAlign batch_indices " + describe(batchIndices) + " does not give one index per box");
  std::vector<int64_t> batchOf = batchIndices.toInt64s();
  for (int64_t b : batchOf)
    if (b < 0 || b >= x.dim(0))
      badInput("RoiAlign batch index " + std::to_string(b) + " is outside the batch of " + describe(x));
  Setup st;
  const std::string mode = n.attrString("mode", "avg");
  if (mode != "avg" && mode != "max") badInput("RoiAlign mode '" + mode.substr(0, 32) + "' is not avg or max");
  st.max = mode == "max";
  if (c.opset >= 16) {
    const std::string ct = n.attrString("coordinate_transformation_mode", "half_pixel");
    if (ct != "half_pixel" && ct != "output_half_pixel")
      badInput("RoiAlign coordinate_transformation_mode '" + ct.substr(0, 32) + "' is not known");
    st.halfPixel = ct == "half_pixel";
  }
  st.outH = n.attrInt("output_height", 1);
  st.outW = n.attrInt("output_width", 1);
  if (st.outH <= 0 || st.outW <= 0) badInput("RoiAlign output_height and output_width must be positive");
  st.samplingRatio = n.attrInt("sampling_ratio", 0);
  if (st.samplingRatio < 0) badInput("RoiAlign sampling_ratio is negative");
  if (st.samplingRatio > 4096)
    badInput("RoiAlign sampling_ratio " + std::to_string(st.samplingRatio) + " is too large");
  st.spatialScale = n.attrFloat("spatial_scale", 1.0f);
  if (!std::isfinite(st.spatialScale)) badInput("RoiAlign spatial_scale is not a finite number");
  return {visitFloating(x.dtype(), [&]<typename T>() { return roiAlign<T>(x, rois, batchOf, st); })};
}

}  // namespace fb::eval
