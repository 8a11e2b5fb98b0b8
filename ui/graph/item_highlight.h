#pragma once
// How an item is emphasised by the selection: the selected node itself, or one of its neighbours.
namespace fb::ui {

enum class Highlight { None, Neighbour, Selected };

// Below this zoom level text would be unreadable: items draw plain shapes only.
constexpr double kTextLevelOfDetail = 0.45;
// Above this zoom level nodes also show their names and folded inputs, and edges their shapes.
constexpr double kDetailLevelOfDetail = 0.7;
// No text on the canvas is smaller than this (node names, folded inputs, edge labels).
constexpr double kMinTextPointSize = 8;

}  // namespace fb::ui
