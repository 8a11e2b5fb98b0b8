#pragma once
// Op categories for colouring, shared by the desktop view and the Graphviz renderers.
#include <string>
#include <string_view>

namespace fb::layout {

enum class OpCategory {
  Linear,
  Activation,
  Normalization,
  Pooling,
  ShapeLayout,
  Elementwise,
  ControlFlow,
  Custom,
  Other
};

OpCategory opCategory(std::string_view opType, std::string_view domain);
std::string_view opCategoryName(OpCategory c);
// Fill colour as "#rrggbb", light enough for black text.
std::string_view opCategoryColor(OpCategory c);

}  // namespace fb::layout
