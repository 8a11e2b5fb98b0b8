#pragma once
// Reference kernels for the ops exporters use to compute shapes (Shape, Gather, Concat, Slice, ...) and for
// elementwise math, so constant folding needs no runtime. Semantics follow the ONNX operator docs per opset.
#include <optional>
#include <string>
#include <vector>

#include "eval/array.h"
#include "ir/node.h"

namespace fb::eval {

// True when `evaluate` has a kernel for this default-domain op (it may still throw Unsupported for a
// particular attribute or element type).
bool hasKernel(const std::string& opType);

// Evaluates `n` (default domain) at `opset` on its inputs (nullptr for an omitted optional input).
// Returns one Array per output. Throws Unsupported when it cannot.
std::vector<Array> evaluate(const ir::Node& n, const std::vector<const Array*>& inputs, int64_t opset);

// The dims a Reshape to `target` gives an input of dims `in` (0 copies the input dim unless allowZero, -1
// takes the rest); nullopt when the target does not fit the input.
std::optional<std::vector<int64_t>> resolveReshape(const std::vector<int64_t>& in, std::vector<int64_t> target,
                                                   bool allowZero);

// The ONNX multidirectional broadcast of two shapes; throws Unsupported when they do not broadcast.
std::vector<int64_t> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

}  // namespace fb::eval
