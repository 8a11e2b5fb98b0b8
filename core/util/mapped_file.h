#pragma once
// A read-only memory map of a whole file, shared by every tensor that lives in it.
#include <cstddef>
#include <memory>
#include <string>

namespace fb {

class MappedFile {
 public:
  // Throws InputError naming the file when it cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile() = default;
  std::string path_;
  const std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace fb
