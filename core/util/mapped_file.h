#pragma once
// A read-only memory map of a whole file, shared by every tensor that lives in it.
//
// A mapped file that is truncated (or rewritten in place through O_TRUNC) while mapped makes reads past its new
// end raise SIGBUS. FlowBridge catches that signal for its own maps: the faulting pages are replaced by zero
// pages, the read goes on, and the map is marked damaged. Whoever produces a result from mapped data
// (a command, a write, the app after loading) calls throwIfMappedFileDamaged() before trusting it, so the
// truncation becomes an error naming the file instead of a crash.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fb {

class InputFile;

class MappedFile {
 public:
  // Throws InputError naming the file when it cannot be opened or mapped, is not a regular file, or (with
  // `containDir`) resolves outside that folder on the opened descriptor.
  static std::shared_ptr<const MappedFile> open(const std::string& path, const std::string& containDir = {});
  // Maps a file already opened (and checked: containment, size limit) through InputFile.
  static std::shared_ptr<const MappedFile> map(const InputFile& in);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // True once a read hit a page the file no longer has.
  bool damaged() const;

 private:
  MappedFile() = default;
  std::string path_;
  const std::byte* data_ = nullptr;
  size_t size_ = 0;
  int slot_ = -1;  // index in the SIGBUS guard's table
};

// Throws InputError(file, "... truncated or changed while it was being read") when a read from any mapped file
// faulted since the program started.
void throwIfMappedFileDamaged();

// For a program that goes on after a damaged read (the app): how many faulting reads there were so far, taken
// before a piece of work (a load, a weight shown), and a check after it that throws the same InputError only for
// faults since then, so one truncated file does not fail everything opened later. Faults are counted per
// process: a fault in another thread's read during the same span is reported too (an error, never silent zeros).
uint64_t mappedFaultCount();
void throwIfMappedFileDamagedSince(uint64_t count);

}  // namespace fb
