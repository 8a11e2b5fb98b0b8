#pragma once
// Element-wise selection for adapters that need Where at any target: Where itself from opset 9, below it a
// Gather from the stacked branches (static shapes needed).
#include <optional>
#include <string>

#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Why `emitSelect` cannot be used at the target, or nullopt when it can.
std::optional<std::string> whyNoSelect(const HandlerContext& ctx, const ir::Value* cond, const ir::Value* x,
                                       const ir::Value* y);
// out = cond ? x : y, nodes inserted before `at`.
void emitSelect(ir::Node& at, HandlerContext& ctx, ir::Value* cond, ir::Value* x, ir::Value* y, ir::Value* out);

}  // namespace fb::convert::onnx_onnx
