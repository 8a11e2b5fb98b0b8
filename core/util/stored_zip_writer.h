#pragma once
// A zip archive of stored (uncompressed) entries whose data starts on 64-byte boundaries, so that a reader can
// map each entry in place (PyTorch's checkpoint layout). Entries or archives past 4 GiB get zip64 records.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

class AtomicFile;

class StoredZipWriter {
 public:
  static constexpr uint64_t kAlignment = 64;

  // `forceZip64` writes zip64 records even for small archives (their layout can then be tested without
  // writing 4 GiB).
  explicit StoredZipWriter(AtomicFile& out, bool forceZip64 = false);

  void add(std::string_view name, std::span<const std::byte> data);
  void add(std::string_view name, std::string_view text) {
    add(name, std::as_bytes(std::span<const char>(text.data(), text.size())));
  }
  // Writes the central directory; the caller then commits the AtomicFile.
  void finish();

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0;
    uint64_t size = 0;
    uint64_t offset = 0;
  };
  void put(const std::string& bytes);

  AtomicFile& out_;
  bool forceZip64_;
  uint64_t position_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace fb
