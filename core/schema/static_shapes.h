#pragma once
// Output shapes of common ops from static input shapes and known integer inputs: what libonnx 1.12 cannot
// infer behind a Reshape whose target it could not evaluate. Used only to learn shape facts; every op
// not handled here returns nullopt.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/node.h"

namespace fb::schema {

using Dims = std::vector<int64_t>;
using DimsOf = std::function<std::optional<Dims>(const ir::Value*)>;
using ValuesOf = std::function<const std::vector<int64_t>*(const ir::Value*)>;

// The shape several shapes broadcast to (numpy rules), or nullopt when they do not.
std::optional<Dims> broadcastDims(const std::vector<Dims>& shapes);

std::optional<Dims> staticOutputShape(const ir::Node& n, const DimsOf& dimsOf, const ValuesOf& valuesOf);

}  // namespace fb::schema
