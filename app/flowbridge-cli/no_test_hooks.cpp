// The shipped CLI has no test hooks (test_hooks.h).
#include "test_hooks.h"

namespace fb::cli {
void installCliTestHooks() {}
}  // namespace fb::cli
