#pragma once
// Outputs appear whole or not at all: data goes to a temporary file beside the target, renamed on commit.
// Temporary files are removed when the writer fails (destructor) and when the process gets SIGINT or SIGTERM
// while one is open (util/interrupt_cleanup).
#include <string>
#include <string_view>
#include <vector>

namespace fb {

class AtomicFile {
 public:
  // Throws OutputError when the target is a folder or another non-regular file, or when the temporary file
  // cannot be created.
  explicit AtomicFile(std::string target);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  // Flushes, syncs and renames over the target.
  void commit();
  // Removes the temporary file now (for a writer that gives up after other files were committed).
  void discard();
  const std::string& target() const { return target_; }
  const std::string& tempPath() const { return temp_; }
  // For writers that stream on their own (protobuf's FileOutputStream); call commit() after.
  int fd() const { return fd_; }

 private:
  std::string target_;
  std::string temp_;
  int fd_ = -1;
  int slot_ = -1;  // in the signal handler's table of files to remove
  bool committed_ = false;
};

// Refuses (OutputError) an output path that is the same file as any of the inputs.
void ensureNotOverwritingInput(const std::string& output, const std::string& input);

// The rule for every output FlowBridge writes: refuses (OutputError) a path that is, or links to (symlink or hard
// link), any file in `inputs` (every file the input model reads), and a path that exists and is not a regular
// file (a folder, a FIFO, a device node: renaming over it would replace it).
void ensureWritableOutput(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace fb
