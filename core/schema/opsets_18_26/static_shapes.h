#pragma once
// Output shapes and element types of the op versions of opsets 18-26 that libonnx 1.12 cannot infer (its
// registry stops at 17): new ops, and versions whose inputs or attributes decide the shape differently from
// the opset-17 version (Reduce* axes input, Split num_outputs, Pad axes, Resize axes/keep_aspect_ratio_policy,
// pool dilations, DFT axis input, ...). Static shapes only, like static_shapes.h: what the down-adapters need
// (Split sizes, CenterCropPad amounts, ranks) when a model's intermediate shapes come from such ops.
#include <cstdint>
#include <optional>
#include <vector>

#include "schema/static_shapes.h"
#include "ir/node.h"

namespace fb::schema::opsets_18_26 {

// One entry per output of `n` (a default-domain node of a model at `opset` > 17); nullopt where the shape is
// not known from what dimsOf/valuesOf say. Empty when the op version is not one of those above.
std::vector<std::optional<Dims>> staticOutputShapes(const ir::Node& n, int64_t opset, const DimsOf& dimsOf,
                                                    const ValuesOf& valuesOf);

// The element type of output `i` of `n` from its inputs' types and attributes (Cast's `to`, Q/DQ's
// output_dtype or zero point/scale, bool outputs...); Undefined when it does not follow.
using ElemTypeOf = std::function<ir::DataType(const ir::Value*)>;
ir::DataType outputElemType(const ir::Node& n, size_t i, const ElemTypeOf& typeOf);

}  // namespace fb::schema::opsets_18_26
