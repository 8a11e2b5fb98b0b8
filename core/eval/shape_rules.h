#pragma once
// ONNX's shape rules that passes apply without evaluating anything: multidirectional broadcasting and Reshape's
// target resolution (0 copies, -1 takes the rest).
#include <optional>
#include <vector>

#include <cstdint>

namespace fb::eval {

// The broadcast of two shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// The dims a Reshape to `target` gives an input of dims `in` (0 copies the input dim unless allowZero, -1 takes the
// rest); nullopt when the target does not fit the input (or a product overflows).
std::optional<std::vector<int64_t>> resolveReshape(const std::vector<int64_t>& in, std::vector<int64_t> target,
                                                   bool allowZero);

}  // namespace fb::eval
