#pragma once
// Registers the built-in handlers of every direction FlowBridge ships (idempotent). Explicit, so that a
// static library cannot drop registrations.
namespace fb::convert {
void registerBuiltinHandlers();
}  // namespace fb::convert
