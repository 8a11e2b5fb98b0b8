#pragma once
// Opening the files a model is read from. Only regular files are read (a FIFO or a device would block or
// never end), and a file a model refers to must lie inside the model's folder: that is checked on the
// descriptor actually opened (its /proc/self/fd link), never on a path that could be swapped before a
// later re-open.
#include <cstddef>
#include <cstdint>
#include <string>

namespace fb {

// An open, read-only descriptor of a regular file; closed on destruction.
class InputFile {
 public:
  // Throws InputError(path, reason) when the path is missing, not a regular file, or (when `containDir` is
  // not empty) resolves outside `containDir` after every symlink, checked on the opened descriptor.
  // `what` names the file in messages ("external data file 'w.bin'"); the path itself when empty.
  static InputFile open(const std::string& path, const std::string& containDir = {}, const std::string& what = {});
  InputFile(InputFile&& o) noexcept : fd_(o.fd_), size_(o.size_), path_(std::move(o.path_)), what_(std::move(o.what_)) {
    o.fd_ = -1;
  }
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile();

  int fd() const { return fd_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Throws InputError naming the file when the opened file is larger than `maxBytes`, which is what a file of
  // kind `kind` ("OneFlow meta file") can hold: checked on the descriptor's size, so nothing is read or allocated
  // for a huge (or sparse) file. Returns *this, to read or map it next.
  const InputFile& requireAtMost(uint64_t maxBytes, const std::string& kind) const;
  // The whole content (for small files: graphs, meta files).
  std::string readAll() const;
  // The first `n` bytes, fewer when the file is shorter (to recognise a format).
  std::string readHead(size_t n) const;

 private:
  InputFile(int fd, size_t size, std::string path, std::string what)
      : fd_(fd), size_(size), path_(std::move(path)), what_(std::move(what)) {}
  int fd_;
  size_t size_;
  std::string path_;
  std::string what_;  // how messages name the file ("variable 'w': meta"); empty: the path says it
};

// Throws InputError(path, ...) unless `path` is a regular file or a folder: checked before anything opens it, so
// that a FIFO never blocks the reader.
void requireFileOrFolder(const std::string& path);

// True when `path`, after every symlink, is `dir` or lies below it.
bool resolvesInside(const std::string& realPath, const std::string& dir);

}  // namespace fb
