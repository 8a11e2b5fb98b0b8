#pragma once
// The step from default-domain opsets 18-26 down to 17, the newest opset libonnx 1.12 knows. The converter
// runs it before the opset 7-17 machinery, which then takes the node further down (ONNX version_converter's
// chain of adapters, one opset boundary at a time).
#include <optional>
#include <string>
#include <vector>

#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Rewrites `n` (from a model at default-domain opset ctx.sourceOpset > 17) into its opset-17 form, or throws
// Unsupported with the reason. Returns true when the node is done: replaced by opset-17 nodes, or (dry run)
// when the rewrite would change it. Returns false when the node, possibly edited in place, now stands as an
// opset-17 node for the rest of the chain.
bool stepDownTo17(ir::Node& n, HandlerContext& ctx);

// The ops that have a rewrite here (each Adapter row of schema::opsets_18_26::opsChangedAfter17 needs one).
std::vector<std::string> opsWithOpset17Rewrite();

}  // namespace fb::convert::onnx_onnx
