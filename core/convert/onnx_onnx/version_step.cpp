#include "convert/onnx_onnx/version_step.h"

#include <onnx/defs/schema.h>

#include "convert/onnx_schema.h"

namespace fb::convert::onnx_onnx {

void compatibleVersionStep(ir::Node& node, HandlerContext& ctx) {
  const auto* target = schemaAt(node.domain, node.opType, ctx.targetOpset);
  if (!target)
    throw Unsupported(node.opType + " does not exist at opset " + std::to_string(ctx.targetOpset) + " (first in opset " +
                      std::to_string(firstOpsetOf(node.domain, node.opType)) + ")");
  static const ElemTypes kNone;
  const ElemTypes& types = ctx.elemTypes ? *ctx.elemTypes : kNone;
  auto mismatch = schemaMismatch(node, *target, types);
  if (!mismatch) return;
  // Attributes newer versions added are harmless to drop when they hold the value older versions assumed.
  const auto* source = schemaAt(node.domain, node.opType, ctx.sourceOpset);
  std::vector<std::string> droppable;
  for (const auto& name : unknownAttributes(node, *target)) {
    const auto* a = node.attr(name);
    if (source && a && equalsSchemaDefault(*a, *source)) droppable.push_back(name);
  }
  if (droppable.empty()) throw Unsupported(*mismatch);
  if (auto still = schemaMismatch(node, *target, types, droppable)) throw Unsupported(*still);
  std::string dropped;
  for (const auto& n : droppable) dropped += (dropped.empty() ? "" : ", ") + n;
  ctx.note = "dropped attribute(s) " + dropped + " (default values, unknown to " + node.opType + "-" +
             std::to_string(target->since_version()) + ")";
  if (!ctx.commit()) return;
  for (const auto& n : droppable) node.removeAttr(n);
}

int64_t nonNegativeAxis(int64_t axis, const ir::Value* shapedBy, const HandlerContext& ctx, const char* what) {
  if (axis >= 0 || ctx.targetOpset >= 11) return axis;
  auto r = ctx.rank(shapedBy);
  if (!r) {
    throw Unsupported(std::string(what) + ": negative axis needs the input rank below opset 11, and it is unknown");
  }
  return axis + *r;
}

}  // namespace fb::convert::onnx_onnx
