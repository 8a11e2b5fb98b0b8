#pragma once
// The steps from default-domain opset 17 (or any opset of 18-25) up to a target of 18-26: one small adapter per
// schema change after 17 that an older node cannot keep as it is (attribute -> input moves, renamed values,
// changed input shapes, defaults that changed meaning). Ops whose versions after 17 only widen types or add
// attributes whose defaults keep the old meaning stay unchanged. Between two opsets above 17 going down, only
// versions that changed nothing but types are kept; the rest goes through opset 17 (opset18_down).
#include <string>

#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Rewrites `n` (valid at ctx.sourceOpset >= 17) into its form at ctx.targetOpset > 17, or throws Unsupported
// with the reason. Appends to ctx.note what it did.
void stepUpFrom17(ir::Node& n, HandlerContext& ctx);

// What the step up does to a node of an older version when a target crosses op version `op`-`since` (one of
// opsets_18_26/op_facts's table), in one line, for `flowbridge-cli ops`.
std::string upPlan18(const std::string& op, int64_t since);

// For source > target > 17: keeps `n` when its schema at the target means the same, else throws Unsupported.
void stepBetweenNewOpsets(ir::Node& n, HandlerContext& ctx);

}  // namespace fb::convert::onnx_onnx
