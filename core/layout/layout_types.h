#pragma once
// Plain geometry shared by the layout engines. Units are points (1/72 inch); y grows downwards.
#include <utility>
#include <vector>

namespace fb::layout {

struct Size {
  double width = 0;
  double height = 0;
};

struct Point {
  double x = 0;
  double y = 0;
};

// One flat graph to place: boxes and the edges between them (indices into `boxes`).
struct LayoutRequest {
  std::vector<Size> boxes;
  std::vector<std::pair<int, int>> edges;
  bool leftToRight = false;    // rank direction; top to bottom otherwise
  std::vector<int> firstRank;  // boxes kept on the first rank (alone), e.g. where edges enter a block
  std::vector<int> lastRank;   // boxes kept on the last rank (alone)
};

struct LayoutResult {
  std::vector<Point> centers;  // one per box, inside [0,width] x [0,height]
  double width = 0;
  double height = 0;
  bool byDot = false;  // false when the cheap layered fallback placed it
  // Per request edge, the route dot drew: cubic Bézier control points (p0 c1 c2 p1 c1 c2 p2 ...), from the
  // boundary of the tail box to the boundary of the head box. Empty when not routed (layered fallback).
  std::vector<std::vector<Point>> edgePaths;
};

}  // namespace fb::layout
