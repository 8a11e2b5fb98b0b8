#pragma once
// The step from default-domain opsets 18-26 down to 17, the newest opset libonnx 1.12 knows. The converter
// runs it before the opset 7-17 machinery, which then takes the node further down (ONNX version_converter's
// chain of adapters, one opset boundary at a time).
#include <optional>
#include <string>

#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Rewrites `n` (from a model at default-domain opset ctx.sourceOpset > 17) into its opset-17 form, or throws
// Unsupported with the reason. Returns true when the node is done: replaced by opset-17 nodes, or (dry run)
// when the rewrite would change it. Returns false when the node, possibly edited in place, now stands as an
// opset-17 node for the rest of the chain.
bool stepDownTo17(ir::Node& n, HandlerContext& ctx);

// How the step treats one op version of opsets 18-26 (schema_facts_18's table): converted by an adapter
// (exactly, or refused case by case with the reason), the opset-17 schema as it is (a version that only
// widened types), or refused as a whole. nullopt: not in the table, or not planned (a gap tests catch).
struct DownPlan {
  enum class Kind { Adapter, SameAs17, Refused } kind;
  std::string text;
};
std::optional<DownPlan> downPlan18(const std::string& op, int64_t since);

}  // namespace fb::convert::onnx_onnx
