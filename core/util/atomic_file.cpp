#include "util/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/error.h"

namespace fb {
namespace fs = std::filesystem;

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  fs::path t(target_);
  fs::path dir = t.has_parent_path() ? t.parent_path() : fs::path(".");
  std::string templ = (dir / ("." + t.filename().string() + ".tmp-XXXXXX")).string();
  fd_ = ::mkstemp(templ.data());
  if (fd_ < 0) throw OutputError(target_ + ": cannot create a temporary file: " + std::strerror(errno));
  temp_ = templ;
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
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
  ::close(fd_);
  fd_ = -1;
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    throw OutputError(target_ + ": cannot rename the temporary file: " + std::strerror(errno));
  committed_ = true;
}

void ensureNotOverwritingInput(const std::string& output, const std::string& input) {
  std::error_code ec;
  if (fs::exists(output, ec) && fs::exists(input, ec) && fs::equivalent(output, input, ec))
    throw OutputError(output + ": refusing to overwrite the input file");
}

}  // namespace fb
