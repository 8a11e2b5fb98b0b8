#pragma once
// Where an arrow key leads from a box: of the candidate boxes (the neighbours along edges), the one that lies
// that way, nearest and most in line. Geometry only, so that the vertical and the horizontal layout behave alike.
#include <QRectF>
#include <vector>

namespace fb::ui {

enum class StepDirection { Up, Down, Left, Right };

// Index into `candidates` of the box a step from `from` lands on; -1 when none lies that way. `inCone`: only boxes
// within 45° of the direction count (else the whole half-plane does).
int pickNeighbour(const QRectF& from, const std::vector<QRectF>& candidates, StepDirection direction, bool inCone);

}  // namespace fb::ui
