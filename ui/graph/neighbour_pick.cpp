#include "ui/graph/neighbour_pick.h"

#include <cmath>
#include <limits>

namespace fb::ui {

int pickNeighbour(const QRectF& from, const std::vector<QRectF>& candidates, StepDirection direction, bool inCone) {
  const QPointF unit = direction == StepDirection::Up     ? QPointF(0, -1)
                       : direction == StepDirection::Down ? QPointF(0, 1)
                       : direction == StepDirection::Left ? QPointF(-1, 0)
                                                          : QPointF(1, 0);
  int best = -1;
  double bestScore = std::numeric_limits<double>::max();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const QPointF offset = candidates[i].center() - from.center();
    const double along = offset.x() * unit.x() + offset.y() * unit.y();
    const double across = std::abs(offset.x() * unit.y() - offset.y() * unit.x());
    if (along <= 1 || (inCone && across > along)) continue;  // beside or behind, or off to the side
    // Off to the side counts double: Down from a node with two consumers takes the one straight below.
    const double score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = int(i);
    }
  }
  return best;
}

}  // namespace fb::ui
