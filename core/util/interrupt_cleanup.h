#pragma once
// Temporary outputs do not outlive an interrupted process: writers register their temporary files and folders
// here while they exist, and a SIGINT/SIGTERM handler removes whatever is registered, then lets the signal end
// the process as it would have (the exit status stays the signal's).
//
// Why a handler and not a sigwait thread: the handler runs in the thread the signal interrupts, and FlowBridge's
// CLI writes from its only thread, so the writer is stopped while its files are removed and nothing new can appear
// in a folder being removed. A sigwait thread would remove them while the writer keeps creating files. The handler
// stays async-signal-safe: the paths live in fixed storage filled before the handler can see them (no allocation,
// no lock), and removal uses only system calls (unlink, rmdir, open, getdents64, unlinkat, close).
#include <signal.h>

#include <string>

namespace fb {

enum class TempKind {
  File,         // unlinked
  Tree,         // a folder removed with everything in it
  EmptyFolder,  // a folder created on the way to an output (a missing parent): removed only while empty
};

// Registers `path` (absolute, or relative to a working directory that does not change); returns the slot to
// unregister, or -1 when every slot is taken or the path is too long (the path is then only removed by the
// writer's own cleanup). Installs the handlers on first use; a process that ignored SIGINT/SIGTERM keeps ignoring
// them.
int registerTempPath(const std::string& path, TempKind kind);
void unregisterTempPath(int slot);

// Blocks SIGINT and SIGTERM in this thread while alive: around creating a temporary path and registering it (so
// that none escapes the handler), and around steps that must not be cut in two. A signal that arrives meanwhile is
// handled when it ends.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

}  // namespace fb
