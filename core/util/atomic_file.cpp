#include "util/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/error.h"
#include "util/interrupt_cleanup.h"

namespace fb {
namespace fs = std::filesystem;

namespace {

std::string kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

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
  slot_ = registerTempPath(temp_, TempKind::File);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  unregisterTempPath(slot_);
}

void AtomicFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  unregisterTempPath(slot_);
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
  unregisterTempPath(slot_);
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
      throw OutputError(output + ": is (or links to) '" + in +
                        "', which the input model reads: refusing to overwrite an input");
  }
}

}  // namespace fb
