#include "eval/runtime/passive_waits.h"

#include <unistd.h>

#include <cstdlib>

namespace fb::eval {

void reexecWithPassiveWaits(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY")) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the exec failed; libgomp has its default already, the variable only reaches child processes.
}

}  // namespace fb::eval
