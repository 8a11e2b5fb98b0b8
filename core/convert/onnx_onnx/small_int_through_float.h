#pragma once
// 8- and 16-bit integer Clip and MaxPool exist only from opset 12. float holds every such value exactly (and
// the result of a max, min or clamp of them is one of them), so below 12 the op runs in float between Casts.
#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// int8 / uint8 / int16 / uint16.
bool isSmallInteger(ir::DataType t);

// Clip of a small integer tensor below opset 12: Cast to float, clamp, Cast back. Constant bounds become
// attributes below 11; bounds computed at run time become Max/Min (broadcast by hand below 8).
void clipSmallIntThroughFloat(ir::Node& n, HandlerContext& ctx);

// Moves `n` (already checked) to float: a Cast before input 0 and a Cast back after output 0. Call after commit.
void runInFloat(ir::Node& n, HandlerContext& ctx);

}  // namespace fb::convert::onnx_onnx
