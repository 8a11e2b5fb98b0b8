#pragma once
// Opening the files a model is read from. Only regular files are read (a FIFO or a device would block or
// never end), and a file a model refers to must lie inside the model's folder: that is checked on the
// descriptor actually opened (its /proc/self/fd link), never on a path that could be swapped before a
// later re-open.
#include <string>

namespace fb {

// An open, read-only descriptor of a regular file; closed on destruction.
class InputFile {
 public:
  // Throws InputError(path, reason) when the path is missing, not a regular file, or (when `containDir` is
  // not empty) resolves outside `containDir` after every symlink, checked on the opened descriptor.
  // `what` names the file in messages ("external data file 'w.bin'"); the path itself when empty.
  static InputFile open(const std::string& path, const std::string& containDir = {}, const std::string& what = {});
  InputFile(InputFile&& o) noexcept : fd_(o.fd_), size_(o.size_), path_(std::move(o.path_)) { o.fd_ = -1; }
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  int fd() const { return fd_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // The whole content (for small files: graphs, meta files).
  std::string readAll() const;

 private:
  InputFile(int fd, size_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_;
  size_t size_;
  std::string path_;
};

// Throws InputError(path, ...) unless `path` is a regular file or a folder: checked before anything opens it, so
// that a FIFO never blocks the reader.
void requireFileOrFolder(const std::string& path);

// True when `path`, after every symlink, is `dir` or lies below it.
bool resolvesInside(const std::string& realPath, const std::string& dir);

}  // namespace fb
