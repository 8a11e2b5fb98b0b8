#pragma once
// Squeeze/Unsqueeze carry their axes as an attribute before opset 13 and as an input from 13 on.
#include <optional>
#include <vector>

#include "passes/rewrite_utils.h"

namespace fb::passes {

// The node's axes, when known (absent for Squeeze-all or a computed input).
std::optional<std::vector<int64_t>> readAxes(const ir::Node& n, int64_t opset);
// Writes axes in the form the opset wants (a new int64 initializer from opset 13).
void writeAxes(Rewriter& rw, ir::Node& n, const std::vector<int64_t>& axes);

}  // namespace fb::passes
