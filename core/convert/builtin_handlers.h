#pragma once
// Registers the built-in handlers of every direction FlowBridge ships, and the rules of the directions that have
// their own (ONNX -> ONNX), idempotently. Explicit, so that a static library cannot drop registrations.
namespace fb::convert {
void registerBuiltinHandlers();
}  // namespace fb::convert
