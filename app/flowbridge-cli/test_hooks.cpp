// Linked only into flowbridge-cli-test-hooks (test_hooks.h).
#include "test_hooks.h"

#include <cstdlib>
#include <string>

#include "convert/builtin_handlers.h"
#include "convert/handler_registry.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace fb::cli {

void installCliTestHooks() {
  const char* op = std::getenv("FLOWBRIDGE_TEST_BREAK_HANDLER");
  if (!op || !*op) return;
  convert::registerBuiltinHandlers();
  auto& registry = convert::HandlerRegistry::forDirection("onnx");
  // Registered at every since-version, so that it wins whatever the target opset.
  for (int64_t since = 1; since <= 26; ++since)
    registry.add(
        {"", op, since, "test hook: computes Add(x, x) instead", [](ir::Node& n, convert::HandlerContext& ctx) {
           if (!ctx.commit()) return;
           ir::Value* x = n.input(0);
           n.opType = "Add";
           n.attributes.clear();
           n.clearInputs();
           n.addInput(x);
           n.addInput(x);
           ctx.note = "broken on purpose by FLOWBRIDGE_TEST_BREAK_HANDLER";
         }});
}

}  // namespace fb::cli
