#include "ui/graph/edge_label_placer.h"

#include <QHash>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "layout/segment_clip.h"
#include "ui/graph/edge_item.h"

namespace fb::ui {

namespace {

constexpr double kCell = 120;  // side of a grid cell, in scene units

quint64 cellKey(int x, int y) { return (quint64(quint32(x)) << 32) | quint32(y); }

template <typename F>
void forCells(const QRectF& r, F&& f) {
  const int x0 = int(std::floor(r.left() / kCell)), x1 = int(std::floor(r.right() / kCell));
  const int y0 = int(std::floor(r.top() / kCell)), y1 = int(std::floor(r.bottom() / kCell));
  for (int x = x0; x <= x1; ++x)
    for (int y = y0; y <= y1; ++y) f(cellKey(x, y));
}

// Rectangles registered in every cell they touch.
class RectGrid {
 public:
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
  std::vector<QRectF> rects_;
  QHash<quint64, QList<int>> cells_;
};

// Whether the segment a-b has a point strictly inside r.
bool segmentEntersRect(QPointF a, QPointF b, const QRectF& r) {
  return layout::segmentEntersRect(a.x(), a.y(), b.x(), b.y(), {r.left(), r.top(), r.right(), r.bottom()});
}

// The drawn edges as straight segments (curves flattened), registered in the cells their bounds touch.
class SegmentGrid {
 public:
  void add(int edge, const QPolygonF& line) {
    for (int i = 0; i + 1 < line.size(); ++i) {
      const int id = int(segments_.size());
      segments_.push_back({line[i], line[i + 1], edge});
      forCells(QRectF(line[i], line[i + 1]).normalized(), [&](quint64 key) { cells_[key].push_back(id); });
    }
  }
  static constexpr int kFrame = -2;  // the id of frame outlines: they cross labels of every edge alike
  enum Crossing { kOwn = 1, kFrameLine = 2, kOther = 4 };
  // What enters r, as Crossing bits: the lines of edge `own`, of a frame, of another edge (then it stops looking).
  int crossing(const QRectF& r, int own) const {
    int found = 0;
    forCells(r, [&](quint64 key) {
      if (found & kOther) return;
      auto it = cells_.constFind(key);
      if (it == cells_.constEnd()) return;
      for (int id : *it) {
        const Segment& s = segments_[size_t(id)];
        const int bit = s.edge == own ? kOwn : s.edge == kFrame ? kFrameLine : kOther;
        if ((found & bit) || !segmentEntersRect(s.a, s.b, r)) continue;
        found |= bit;
        if (bit == kOther) return;
      }
    });
    return found;
  }

 private:
  struct Segment {
    QPointF a, b;
    int edge;
  };
  std::vector<Segment> segments_;
  QHash<quint64, QList<int>> cells_;
};

// An edge as one polyline, with the distance travelled at each of its points.
struct Polyline {
  QPolygonF points;
  std::vector<double> at;  // at[i]: length from points[0] to points[i]
  double length() const { return at.empty() ? 0 : at.back(); }
  QPointF pointAt(double s) const {
    if (points.isEmpty()) return {};
    auto it = std::lower_bound(at.begin(), at.end(), s);
    if (it == at.begin()) return points.front();
    if (it == at.end()) return points.back();
    const size_t i = size_t(it - at.begin());
    const double span = at[i] - at[i - 1];
    const double f = span > 0 ? (s - at[i - 1]) / span : 0;
    return points[int(i) - 1] + (points[int(i)] - points[int(i) - 1]) * f;
  }
};

Polyline polylineOf(const QPainterPath& path) {
  Polyline out;
  for (const QPolygonF& part : path.toSubpathPolygons()) out.points += part;
  out.at.reserve(size_t(out.points.size()));
  double travelled = 0;
  for (int i = 0; i < out.points.size(); ++i) {
    if (i) travelled += QLineF(out.points[i - 1], out.points[i]).length();
    out.at.push_back(travelled);
  }
  return out;
}

}  // namespace

int placeEdgeLabels(const QList<EdgeItem*>& edges, const std::vector<QRectF>& obstacles, const QFontMetricsF& metrics,
                    const std::vector<QRectF>& frames) {
  constexpr double kGap = 3;  // free space kept around a label
  RectGrid taken;
  for (const QRectF& r : obstacles) taken.add(r.adjusted(-kGap, -kGap, kGap, kGap));
  SegmentGrid drawn;
  std::vector<Polyline> lines(size_t(edges.size()));
  for (int i = 0; i < edges.size(); ++i) {
    lines[size_t(i)] = polylineOf(edges[i]->path());
    drawn.add(i, lines[size_t(i)].points);
  }
  for (const QRectF& f : frames) drawn.add(SegmentGrid::kFrame, QPolygonF(f) << f.topLeft());
  // Short edges first: they have the fewest places to offer, long ones have room further along.
  std::vector<int> order(size_t(edges.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return lines[size_t(a)].length() < lines[size_t(b)].length(); });

  const double h = metrics.height();
  QHash<QString, double> widths;
  int placed = 0;
  std::vector<double> spots;
  for (int i : order) {
    EdgeItem* e = edges[i];
    e->setLabelRect({});
    if (e->label().isEmpty()) continue;
    auto known = widths.constFind(e->label());
    const double w =
        known != widths.constEnd() ? *known : *widths.insert(e->label(), metrics.horizontalAdvance(e->label()) + 2);
    const Polyline& line = lines[size_t(i)];
    const double length = line.length();
    // Spots along the edge: the middle first, then alternately towards either end (at most ~40).
    spots.assign(1, length / 2);
    const double step = std::max(8.0, length / 40);
    for (double d = step; d < length / 2 - 4; d += step) {
      spots.push_back(length / 2 - d);
      spots.push_back(length / 2 + d);
    }
    // Beside the line (right, left) or, where the line runs sideways, above or below it, close and a little
    // further off: the first spot no line crosses; failing that, one only a frame's outline crosses. Never one its
    // own edge crosses: a label struck through by its line is hard to read (and where the line bends back, a spot
    // beside one part of it can lie on another).
    QRectF chosen;
    int chosenRank = 2;
    for (double s : spots) {
      const QPointF at = line.pointAt(s);
      const QRectF candidates[] = {
          QRectF(at.x() + 4, at.y() - h / 2, w, h),      QRectF(at.x() - 4 - w, at.y() - h / 2, w, h),
          QRectF(at.x() - w / 2, at.y() - 3 - h, w, h),  QRectF(at.x() - w / 2, at.y() + 3, w, h),
          QRectF(at.x() + 12, at.y() - h / 2, w, h),     QRectF(at.x() - 12 - w, at.y() - h / 2, w, h),
          QRectF(at.x() - w / 2, at.y() - 10 - h, w, h), QRectF(at.x() - w / 2, at.y() + 10, w, h)};
      for (const QRectF& r : candidates) {
        if (taken.intersects(r)) continue;
        // The margin is more than half the widest pen an edge is drawn with (2.5 pixels, at zoom 1 or more).
        const int crossing = drawn.crossing(r.adjusted(-1.5, -1.5, 1.5, 1.5), i);
        if (crossing & (SegmentGrid::kOther | SegmentGrid::kOwn)) continue;
        const int rank = crossing == 0 ? 0 : 1;
        if (rank < chosenRank) {
          chosen = r;
          chosenRank = rank;
        }
        if (rank == 0) break;
      }
      if (chosenRank == 0) break;
    }
    e->setLabelRect(chosen);
    if (chosen.isEmpty()) continue;
    taken.add(chosen.adjusted(-kGap, -kGap, kGap, kGap));
    ++placed;
  }
  return placed;
}

}  // namespace fb::ui
