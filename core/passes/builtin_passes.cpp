#include "passes/pass_registry.h"

namespace fb::passes {

// Each pass file provides a registration function; this list is the one place that names them all.
void registerBuiltinPasses() {
  static bool done = false;
  if (done) return;
  done = true;
}

}  // namespace fb::passes
