#pragma once
// A constant tensor. Its bytes are little-endian, C order, and may live in a side file that is
// mapped on first access, so opening a model with gigabytes of external weights costs nothing.
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ir/data_type.h"
#include "ir/rare.h"

namespace fb {
class MappedFile;
}

namespace fb::ir {

// Immutable bytes, either owned or a window into a mapped file.
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual const std::byte* data() const = 0;
  virtual size_t size() const = 0;
  // The mapped file the bytes are a window into, if they are.
  virtual const MappedFile* mappedFile() const { return nullptr; }
};

std::shared_ptr<const Buffer> makeBuffer(std::string bytes);
std::shared_ptr<const Buffer> makeMappedBuffer(std::shared_ptr<const MappedFile> file, size_t offset, size_t length);

// Where a tensor's bytes are kept in an ONNX file: `location` is relative to the model's folder.
struct ExternalRef {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;                                       // -1: to the end of the file
  std::vector<std::pair<std::string, std::string>> entries;  // all key/value pairs as read, in order
};

class Tensor {
 public:
  // How the source file stored the data; the writer keeps the same form where it can.
  enum class Storage : uint8_t { Raw, Typed, External };

  std::string name;
  DataType dtype = DataType::Undefined;
  std::vector<int64_t> dims;
  Storage storage = Storage::Raw;
  // The rarely set fields cost one pointer each while unset (a model may hold a hundred thousand tensors).
  RareString docString;
  RareOptional<std::pair<int64_t, int64_t>> segment;
  RareOptional<ExternalRef> external;  // set when the data is (or was) in a side file
  RareVector<std::string> strings;     // for DataType::String
  // Fields onnx 1.12's onnx.proto does not know (newer ONNX: metadata_props, overload, device configuration, ...),
  // as the wire bytes they were read as; written back unchanged.
  RareString unknownFields;

  int64_t numElements() const;
  // Expected byte size from dtype and dims (0 for strings).
  size_t expectedBytes() const;

  // The data; loads a side file on first use (thread-safe). Throws InputError naming the file on failure.
  std::span<const std::byte> bytes() const;
  // What holds bytes() (loading a side file first): a reader that keeps it keeps the bytes valid after this tensor
  // and its model are gone. Null for a tensor without data.
  std::shared_ptr<const Buffer> sharedBytes() const;
  bool hasData() const;
  void setBytes(std::string raw);
  void setBuffer(std::shared_ptr<const Buffer> buf);
  // Binds the data to a side file, to be mapped when first needed. With `containDir`, the file opened then must
  // lie inside that folder (checked on the opened descriptor), or bytes() throws.
  void setExternalSource(std::string resolvedPath, ExternalRef ref, std::string containDir = {});
  bool isLoaded() const;
  // The side file the bytes come from, when they come from one (empty otherwise).
  std::string sourceFile() const { return lazy_ ? lazy_->path : std::string(); }
  // The mapped file the bytes were read from, when they have been read and live in one (null otherwise).
  const MappedFile* mappedFile() const;

  template <typename T>
  std::vector<T> values() const {
    auto b = bytes();
    std::vector<T> out(b.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), b.data(), out.size() * sizeof(T));
    return out;
  }
  // Reads any integer dtype as int64 (for shape arithmetic).
  std::vector<int64_t> asInt64() const;
  std::vector<double> asDouble() const;

  template <typename T>
  static Tensor fromValues(std::string name, DataType dt, std::vector<int64_t> dims, const std::vector<T>& v) {
    Tensor t;
    t.name = std::move(name);
    t.dtype = dt;
    t.dims = std::move(dims);
    t.setBytes(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)));
    return t;
  }

 private:
  struct Lazy {
    std::once_flag once;
    std::string path;
    std::string containDir;
    std::shared_ptr<const Buffer> buffer;
  };
  mutable std::shared_ptr<const Buffer> data_;
  std::shared_ptr<Lazy> lazy_;
};

}  // namespace fb::ir
