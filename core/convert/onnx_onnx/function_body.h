#pragma once
// Replaces a node by its op's function body (ONNX schema), converted to the target opset node by node.
#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// False when the op has no function body at the source version; throws Unsupported when a body node does
// not convert. In both cases the graph is unchanged.
bool expandFunctionBody(ir::Node& node, HandlerContext& ctx);

}  // namespace fb::convert::onnx_onnx
