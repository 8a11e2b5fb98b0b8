#pragma once
// A cheap layered layout for when dot would be too slow: longest-path ranks, one barycentre sweep per
// direction to reduce crossings, boxes packed left to right within a rank. Linear in the graph size.
#include "layout/layout_types.h"

namespace fb::layout {

LayoutResult layoutLayered(const LayoutRequest& request);

}  // namespace fb::layout
