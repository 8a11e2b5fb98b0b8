#pragma once
// Whether a straight piece of an edge enters a box: what the router uses to keep hops out of blocks and what
// the label placer and the readability test use to keep edges off labels and nodes.
namespace fb::layout {

struct ClipRect {
  double x0, y0, x1, y1;  // x0 < x1 and y0 < y1, or the rectangle is empty
};

// Whether the segment (ax,ay)-(bx,by) has a point strictly inside the rectangle (Liang-Barsky clipping).
// An empty rectangle is entered by nothing.
bool segmentEntersRect(double ax, double ay, double bx, double by, const ClipRect& r);

}  // namespace fb::layout
