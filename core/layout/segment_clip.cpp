#include "layout/segment_clip.h"

#include <algorithm>

namespace fb::layout {

bool segmentEntersRect(double ax, double ay, double bx, double by, const ClipRect& r) {
  if (r.x1 <= r.x0 || r.y1 <= r.y0) return false;
  // Bounding boxes apart: the common case in a placer's scan, decided without the divisions.
  if (std::max(ax, bx) <= r.x0 || std::min(ax, bx) >= r.x1 || std::max(ay, by) <= r.y0 || std::min(ay, by) >= r.y1)
    return false;
  double t0 = 0, t1 = 1;
  const double dx = bx - ax, dy = by - ay;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {ax - r.x0, r.x1 - ax, ay - r.y0, r.y1 - ay};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] <= 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 >= t1) return false;
  }
  return true;
}

}  // namespace fb::layout
