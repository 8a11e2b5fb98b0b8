#include "util/interrupt_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace fb {
namespace {

constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
// Generated folders are a few levels deep (weights/<key>/out); deeper trees are left to the writer's cleanup.
constexpr int kMaxDepth = 16;

struct TempSlot {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};  // path and kind are written; the handler may read them
  TempKind kind = TempKind::File;
  char path[kPathMax];
};
std::array<TempSlot, kSlots> tempSlots;
struct sigaction previousInt {
}, previousTerm{};

bool isDotOrDotDot(const char* name) { return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)); }

// Empties the open folder `dir`, depth first. Entries are removed while the folder is read, so it is read again
// from the start until a pass removes nothing.
void removeEntriesAt(int dir, int depth) {
  alignas(8) char buffer[2048];
  for (bool removed = true; removed;) {
    removed = false;
    if (::lseek(dir, 0, SEEK_SET) != 0) return;
    for (;;) {
      const ssize_t n = ::getdents64(dir, buffer, sizeof buffer);
      if (n <= 0) break;
      for (ssize_t offset = 0; offset < n;) {
        const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + offset);
        offset += entry->d_reclen;
        const char* name = entry->d_name;
        if (isDotOrDotDot(name)) continue;
        if (::unlinkat(dir, name, 0) == 0) {
          removed = true;
          continue;
        }
        if (depth >= kMaxDepth) continue;
        const int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) continue;
        removeEntriesAt(sub, depth + 1);
        ::close(sub);
        if (::unlinkat(dir, name, AT_REMOVEDIR) == 0) removed = true;
      }
    }
  }
}

void removeTree(const char* path) {
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0) {
    ::unlink(path);  // a file, or nothing (already renamed into place)
    return;
  }
  removeEntriesAt(dir, 0);
  ::close(dir);
  ::rmdir(path);
}

void removeRegistered() {
  for (auto& s : tempSlots) {
    if (!s.ready.load()) continue;
    if (s.kind == TempKind::File)
      ::unlink(s.path);
    else if (s.kind == TempKind::Tree)
      removeTree(s.path);
  }
  // Missing parents created one inside the other: the innermost goes first, which empties the next.
  for (bool removed = true; removed;) {
    removed = false;
    for (auto& s : tempSlots)
      if (s.ready.load() && s.kind == TempKind::EmptyFolder && ::rmdir(s.path) == 0) {
        s.ready.store(false);
        removed = true;
      }
  }
}

void removeTempPathsAndDie(int sig) {
  const int savedErrno = errno;
  removeRegistered();
  struct sigaction& prev = sig == SIGINT ? previousInt : previousTerm;
  ::sigaction(sig, &prev, nullptr);
  errno = savedErrno;
  if (prev.sa_handler == SIG_IGN) return;
  if (prev.sa_handler == SIG_DFL) {
    ::raise(sig);  // pending until this handler returns, then ends the process
    return;
  }
  if (prev.sa_flags & SA_SIGINFO)
    prev.sa_sigaction(sig, nullptr, nullptr);
  else
    prev.sa_handler(sig);
}

void installHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = removeTempPathsAndDie;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESETHAND;
    ::sigaction(SIGINT, &sa, &previousInt);
    ::sigaction(SIGTERM, &sa, &previousTerm);
    if (previousInt.sa_handler == SIG_IGN) ::sigaction(SIGINT, &previousInt, nullptr);
    if (previousTerm.sa_handler == SIG_IGN) ::sigaction(SIGTERM, &previousTerm, nullptr);
  });
}

}  // namespace

int registerTempPath(const std::string& path, TempKind kind) {
  if (path.size() >= kPathMax) return -1;
  installHandlersOnce();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!tempSlots[i].used.compare_exchange_strong(expected, true)) continue;
    std::memcpy(tempSlots[i].path, path.c_str(), path.size() + 1);
    tempSlots[i].kind = kind;
    tempSlots[i].ready.store(true);
    return i;
  }
  return -1;
}

void unregisterTempPath(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  tempSlots[slot].ready.store(false);
  tempSlots[slot].used.store(false);
}

SignalsHeld::SignalsHeld() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &s, &old_);
}

SignalsHeld::~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

}  // namespace fb
