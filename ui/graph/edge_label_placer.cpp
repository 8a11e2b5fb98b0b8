#include "ui/graph/edge_label_placer.h"

#include <QHash>
#include <cmath>

#include "ui/graph/edge_item.h"

namespace fb::ui {

namespace {

// A uniform grid over the scene: rectangles registered in every cell they touch.
class RectGrid {
 public:
  static constexpr double kCell = 120;
  void add(const QRectF& r) {
    const int id = int(rects_.size());
    rects_.push_back(r);
    forCells(r, [&](quint64 key) { cells_[key].push_back(id); });
  }
  bool intersects(const QRectF& r) const {
    bool hit = false;
    forCells(r, [&](quint64 key) {
      if (hit) return;
      auto it = cells_.constFind(key);
      if (it == cells_.constEnd()) return;
      for (int id : *it)
        if (rects_[size_t(id)].intersects(r)) {
          hit = true;
          return;
        }
    });
    return hit;
  }

 private:
  template <typename F>
  static void forCells(const QRectF& r, F&& f) {
    const int x0 = int(std::floor(r.left() / kCell)), x1 = int(std::floor(r.right() / kCell));
    const int y0 = int(std::floor(r.top() / kCell)), y1 = int(std::floor(r.bottom() / kCell));
    for (int x = x0; x <= x1; ++x)
      for (int y = y0; y <= y1; ++y) f((quint64(quint32(x)) << 32) | quint32(y));
  }
  std::vector<QRectF> rects_;
  QHash<quint64, QList<int>> cells_;
};

}  // namespace

int placeEdgeLabels(const QList<EdgeItem*>& edges, const std::vector<QRectF>& obstacles, const QFontMetricsF& metrics) {
  RectGrid taken;
  for (const QRectF& r : obstacles) taken.add(r.adjusted(-2, -2, 2, 2));
  static constexpr double kSpots[] = {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8};
  const double h = metrics.height();
  int placed = 0;
  for (EdgeItem* e : edges) {
    if (e->label().isEmpty()) continue;
    const double w = metrics.horizontalAdvance(e->label()) + 2;
    QRectF chosen;
    for (double t : kSpots) {
      const QPointF at = e->path().pointAtPercent(t);
      for (const QRectF& r : {QRectF(at.x() + 4, at.y() - h / 2, w, h), QRectF(at.x() - 4 - w, at.y() - h / 2, w, h)})
        if (!taken.intersects(r)) {
          chosen = r;
          break;
        }
      if (!chosen.isEmpty()) break;
    }
    e->setLabelRect(chosen);
    if (chosen.isEmpty()) continue;
    taken.add(chosen);
    ++placed;
  }
  return placed;
}

}  // namespace fb::ui
