#include "util/atomic_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "util/error.h"

namespace fb {
namespace fs = std::filesystem;

namespace {

// Temporary files open at this moment, for the SIGINT/SIGTERM handler: fixed storage, so that the handler
// neither allocates nor locks (it only reads the paths and calls unlink, which is async-signal-safe).
constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
struct TempSlot {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};
  char path[kPathMax];
};
std::array<TempSlot, kSlots> tempSlots;
struct sigaction previousInt {}, previousTerm {};

void removeTempFilesAndDie(int sig) {
  for (auto& s : tempSlots)
    if (s.ready.load()) ::unlink(s.path);
  struct sigaction& prev = sig == SIGINT ? previousInt : previousTerm;
  ::sigaction(sig, &prev, nullptr);
  if (prev.sa_handler == SIG_IGN) return;
  if (prev.sa_handler == SIG_DFL) {
    ::raise(sig);
    return;
  }
  if (prev.sa_flags & SA_SIGINFO) prev.sa_sigaction(sig, nullptr, nullptr);
  else prev.sa_handler(sig);
}

void installHandlersOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = removeTempFilesAndDie;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    ::sigaction(SIGINT, &sa, &previousInt);
    ::sigaction(SIGTERM, &sa, &previousTerm);
    // A program that ignored these signals before keeps ignoring them.
    if (previousInt.sa_handler == SIG_IGN) ::sigaction(SIGINT, &previousInt, nullptr);
    if (previousTerm.sa_handler == SIG_IGN) ::sigaction(SIGTERM, &previousTerm, nullptr);
  });
}

int registerTemp(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  installHandlersOnce();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!tempSlots[i].used.compare_exchange_strong(expected, true)) continue;
    std::memcpy(tempSlots[i].path, path.c_str(), path.size() + 1);
    tempSlots[i].ready.store(true);
    return i;
  }
  return -1;
}

void unregisterTemp(int slot) {
  if (slot < 0) return;
  tempSlots[slot].ready.store(false);
  tempSlots[slot].used.store(false);
}

std::string kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// Blocks SIGINT/SIGTERM while a temporary file is created and registered, so that none escapes the handler.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

}  // namespace

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw OutputError(target_ + ": is " + kindOf(st.st_mode) + ": refusing to replace it");
  fs::path t(target_);
  fs::path dir = t.has_parent_path() ? t.parent_path() : fs::path(".");
  std::string templ = (dir / ("." + t.filename().string() + ".tmp-XXXXXX")).string();
  SignalsHeld held;
  fd_ = ::mkstemp(templ.data());
  if (fd_ < 0) throw OutputError(target_ + ": cannot create a temporary file: " + std::strerror(errno));
  temp_ = templ;
  slot_ = registerTemp(temp_);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  unregisterTemp(slot_);
}

void AtomicFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  unregisterTemp(slot_);
  slot_ = -1;
  temp_.clear();
}

void AtomicFile::write(const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw OutputError(target_ + ": write failed: " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) throw OutputError(target_ + ": write failed: " + std::strerror(errno));
  // mkstemp creates 0600; outputs should get the permissions any other new file of the user gets.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw OutputError(target_ + ": write failed: " + std::strerror(errno));
  }
  fd_ = -1;
  // The target may have become a folder or a device since the constructor looked.
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw OutputError(target_ + ": is " + kindOf(st.st_mode) + ": refusing to replace it");
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    throw OutputError(target_ + ": cannot rename the temporary file: " + std::strerror(errno));
  committed_ = true;
  unregisterTemp(slot_);
  slot_ = -1;
}

void ensureNotOverwritingInput(const std::string& output, const std::string& input) {
  ensureWritableOutput(output, {input});
}

void ensureWritableOutput(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat st {};
  if (::stat(output.c_str(), &st) != 0) return;  // nothing there (or a dangling link, which rename replaces)
  if (!S_ISREG(st.st_mode)) throw OutputError(output + ": is " + kindOf(st.st_mode) + ": refusing to replace it");
  for (const auto& in : inputs) {
    struct stat is {};
    if (in.empty() || ::stat(in.c_str(), &is) != 0) continue;
    if (is.st_dev == st.st_dev && is.st_ino == st.st_ino)
      throw OutputError(output + ": is (or links to) '" + in + "', which the input model reads: refusing to overwrite an input");
  }
}

}  // namespace fb
