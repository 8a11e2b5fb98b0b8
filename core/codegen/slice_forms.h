#pragma once
// Constant ONNX Slices that are simpler things (issue 25, point 4): reversing whole axes is a flip, and a slice
// whose bounds keep every element is its input. Bounds beyond any dim (exporters write INT64_MAX / INT64_MIN) count
// as "to the end".
#include <cstdint>
#include <optional>
#include <vector>

namespace fb::codegen {

// The axes when every sliced axis is reversed whole (step -1 from the last element past the first), else nullopt.
std::optional<std::vector<int64_t>> flippedAxes(const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                                                const std::vector<int64_t>& axes,
                                                const std::optional<std::vector<int64_t>>& steps);

// True when every sliced axis is kept whole (step 1 from the first element to the end).
bool keepsEverything(const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                     const std::optional<std::vector<int64_t>>& steps);

}  // namespace fb::codegen
