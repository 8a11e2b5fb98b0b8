#pragma once
// Outputs appear whole or not at all: data goes to a temporary file beside the target, renamed on commit.
#include <string>
#include <string_view>

namespace fb {

class AtomicFile {
 public:
  // Throws OutputError when the temporary file cannot be created.
  explicit AtomicFile(std::string target);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  // Flushes, syncs and renames over the target.
  void commit();
  const std::string& target() const { return target_; }
  const std::string& tempPath() const { return temp_; }
  // For writers that stream on their own (protobuf's FileOutputStream); call commit() after.
  int fd() const { return fd_; }

 private:
  std::string target_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

// Refuses (OutputError) an output path that is the same file as any of the inputs.
void ensureNotOverwritingInput(const std::string& output, const std::string& input);

}  // namespace fb
