// NonMaxSuppression: per batch and class, boxes above the score threshold taken by descending score (ties: lower
// index first) and kept unless their IoU with a box already kept exceeds the threshold. Corners may come in either
// order (center_point_box 0) or as centre and size (1); a box of no area suppresses nothing. A NaN score has no
// place in the order and is never selected.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/exec_context.h"

namespace fb::eval {

namespace {

struct Box {
  double y0, x0, y1, x1;
  double area() const { return (y1 - y0) * (x1 - x0); }
};

bool suppresses(const Box& a, const Box& b, double threshold) {
  const double iy0 = std::max(a.y0, b.y0), ix0 = std::max(a.x0, b.x0);
  const double iy1 = std::min(a.y1, b.y1), ix1 = std::min(a.x1, b.x1);
  if (iy1 <= iy0 || ix1 <= ix0) return false;
  const double areaA = a.area(), areaB = b.area();
  if (areaA <= 0 || areaB <= 0) return false;
  const double inter = (iy1 - iy0) * (ix1 - ix0);
  const double uni = areaA + areaB - inter;
  if (uni <= 0) return false;
  return inter / uni > threshold;
}

template <typename T>
std::vector<Box> readBoxes(const Tensor& boxes, bool centerPoint) {
  const T* p = boxes.data<T>();
  std::vector<Box> out(static_cast<size_t>(boxes.size() / 4));
  for (size_t k = 0; k < out.size(); ++k) {
    const double a = p[4 * k], b = p[4 * k + 1], c = p[4 * k + 2], d = p[4 * k + 3];
    if (centerPoint)  // [x_center, y_center, width, height]
      out[k] = {b - d / 2, a - c / 2, b + d / 2, a + c / 2};
    else  // [y1, x1, y2, x2], either diagonal
      out[k] = {std::min(a, c), std::min(b, d), std::max(a, c), std::max(b, d)};
  }
  return out;
}

}  // namespace

std::vector<Value> nonMaxSuppressionKernel(const KernelContext& c) {
  const Tensor& boxes = c.input(0);
  const Tensor& scores = c.input(1);
  if (boxes.rank() != 3 || boxes.dim(2) != 4)
    badInput("NonMaxSuppression boxes " + describe(boxes) + " is not [B, N, 4]");
  if (scores.rank() != 3 || scores.dim(0) != boxes.dim(0) || scores.dim(2) != boxes.dim(1))
    badInput("NonMaxSuppression scores " + describe(scores) + " do not fit boxes " + describe(boxes));
  int64_t maxPerClass = 0;
  if (const Tensor* t = c.optionalInput(2); t && t->size() > 0) maxPerClass = t->int64At(0);
  double iouThreshold = 0;
  if (const Tensor* t = c.optionalInput(3); t && t->size() > 0) iouThreshold = t->doubleAt(0);
  const Tensor* scoreThreshold = c.optionalInput(4);
  const bool hasScoreThreshold = scoreThreshold && scoreThreshold->size() > 0;
  const double minScore = hasScoreThreshold ? scoreThreshold->doubleAt(0) : 0;
  const int64_t centerPoint = c.node.attrInt("center_point_box", 0);
  if (centerPoint != 0 && centerPoint != 1)
    badInput("center_point_box " + std::to_string(centerPoint) + " is not 0 or 1");
  const int64_t batches = boxes.dim(0), spatial = boxes.dim(1), classes = scores.dim(1);
  std::vector<Box> all = visitFloating(boxes.dtype(), [&]<typename T>() { return readBoxes<T>(boxes, centerPoint); });
  const std::vector<double> sc = scores.toDoubles();
  maxPerClass = std::min(std::max<int64_t>(maxPerClass, 0), spatial);
  std::vector<int64_t> selected;
  for (int64_t b = 0; b < batches && maxPerClass > 0; ++b) {
    for (int64_t k = 0; k < classes; ++k) {
      c.exec.checkCancelled();  // each class costs up to boxes x max_output_boxes_per_class overlap tests
      const double* s = sc.data() + (b * classes + k) * spatial;
      std::vector<int64_t> order;
      for (int64_t i = 0; i < spatial; ++i)
        if (!std::isnan(s[i]) && (!hasScoreThreshold || s[i] > minScore)) order.push_back(i);
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return s[i] > s[j]; });
      std::vector<int64_t> kept;
      for (int64_t i : order) {
        if (static_cast<int64_t>(kept.size()) >= maxPerClass) break;
        const Box& bi = all[b * spatial + i];
        bool keep = true;
        for (int64_t j : kept)
          if (suppresses(bi, all[b * spatial + j], iouThreshold)) {
            keep = false;
            break;
          }
        if (!keep) continue;
        kept.push_back(i);
        selected.insert(selected.end(), {b, k, i});
      }
    }
  }
  const int64_t rows = static_cast<int64_t>(selected.size() / 3);
  return {Tensor::int64s({rows, 3}, selected)};
}

}  // namespace fb::eval
