#pragma once
// The name messages give a node: its own, or "Op#id" when it has none.
#include <string>

#include "ir/node.h"

namespace fb::ir {

inline std::string nodeLabel(const Node& n) {
  return n.name.empty() ? n.opType + "#" + std::to_string(n.id()) : n.name;
}

}  // namespace fb::ir
