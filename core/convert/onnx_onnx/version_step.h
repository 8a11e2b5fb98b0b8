#pragma once
// The ONNX->ONNX step every node without a dedicated adapter takes: most version bumps of an op only widen
// its type lists or add attributes with defaults, so a node that is valid against the target schema as it
// stands is kept unchanged; attributes the target does not know are dropped when they hold their default.
#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Makes `node` valid at ctx.targetOpset without changing its meaning, or throws Unsupported with the reason.
void compatibleVersionStep(ir::Node& node, HandlerContext& ctx);

// Normalizes a negative axis for opsets below 11, where axes had to be non-negative (needs the rank).
int64_t nonNegativeAxis(int64_t axis, const ir::Value* shapedBy, const HandlerContext& ctx, const char* what);

}  // namespace fb::convert::onnx_onnx
