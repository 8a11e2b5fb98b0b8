#include "util/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/error.h"

namespace fb {
namespace fs = std::filesystem;

namespace {

std::string kindOf(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a folder";
  return "not a regular file";
}

std::string realPathOfFd(int fd) {
  char buf[PATH_MAX + 1];
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = ::readlink(link.c_str(), buf, PATH_MAX);
  if (n < 0) return {};
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

bool resolvesInside(const std::string& realPath, const std::string& dir) {
  std::error_code ec;
  const fs::path root = fs::canonical(dir.empty() ? "." : dir, ec);
  if (ec || realPath.empty()) return false;
  auto rel = fs::path(realPath).lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

void requireFileOrFolder(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw InputError(path, "no such file");
    throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    throw InputError(path, "is " + kindOf(st.st_mode) + ", not a regular file");
}

InputFile InputFile::open(const std::string& path, const std::string& containDir, const std::string& what) {
  const std::string name = what.empty() ? path : what;
  auto fail = [&](const std::string& reason) -> InputError {
    return what.empty() ? InputError(path, reason) : InputError(path, what + ": " + reason);
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) throw fail("does not exist");
    throw fail(std::string("cannot open: ") + std::strerror(e));
  }
  InputFile f(fd, 0, path, what);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw fail(std::string("cannot read its size: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw fail("is " + kindOf(st.st_mode) + ", not a regular file");
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  f.size_ = static_cast<size_t>(st.st_size);
  if (!containDir.empty() && !resolvesInside(realPathOfFd(fd), containDir))
    throw fail("resolves outside the model's folder (through '..', an absolute path or a symlink)");
  return f;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

const InputFile& InputFile::requireAtMost(uint64_t maxBytes, const std::string& kind) const {
  if (size_ > maxBytes) {
    const std::string reason =
        std::to_string(size_) + " bytes, more than a " + kind + " can hold (at most " + std::to_string(maxBytes) + ")";
    throw InputError(path_, what_.empty() ? reason : what_ + ": " + reason);
  }
  return *this;
}

std::string InputFile::readAll() const { return readHead(size_); }

std::string InputFile::readHead(size_t n) const {
  std::string out;
  out.resize(std::min(n, size_));
  size_t got = 0;
  while (got < out.size()) {
    ssize_t n = ::pread(fd_, out.data() + got, out.size() - got, static_cast<off_t>(got));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(path_, std::string("read error: ") + std::strerror(errno));
    }
    if (n == 0) break;  // shrank while reading
    got += static_cast<size_t>(n);
  }
  out.resize(got);
  return out;
}

}  // namespace fb
