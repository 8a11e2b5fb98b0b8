#include "ir/tensor.h"

#include "ir/packed_types.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace fb::ir {
namespace {

class OwnedBuffer final : public Buffer {
 public:
  explicit OwnedBuffer(std::string b) : bytes_(std::move(b)) {}
  const std::byte* data() const override { return reinterpret_cast<const std::byte*>(bytes_.data()); }
  size_t size() const override { return bytes_.size(); }

 private:
  std::string bytes_;
};

class MappedBuffer final : public Buffer {
 public:
  MappedBuffer(std::shared_ptr<const MappedFile> f, size_t off, size_t len)
      : file_(std::move(f)), off_(off), len_(len) {}
  const std::byte* data() const override { return file_->data() + off_; }
  size_t size() const override { return len_; }
  const MappedFile* mappedFile() const override { return file_.get(); }

 private:
  std::shared_ptr<const MappedFile> file_;
  size_t off_, len_;
};

template <typename T>
void appendAs(const std::span<const std::byte>& b, std::vector<int64_t>& out) {
  for (size_t i = 0; i + sizeof(T) <= b.size(); i += sizeof(T)) {
    T v;
    std::memcpy(&v, b.data() + i, sizeof(T));
    out.push_back(static_cast<int64_t>(v));
  }
}

template <typename T>
void appendAsD(const std::span<const std::byte>& b, std::vector<double>& out) {
  for (size_t i = 0; i + sizeof(T) <= b.size(); i += sizeof(T)) {
    T v;
    std::memcpy(&v, b.data() + i, sizeof(T));
    out.push_back(static_cast<double>(v));
  }
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

std::shared_ptr<const Buffer> makeBuffer(std::string bytes) { return std::make_shared<OwnedBuffer>(std::move(bytes)); }

std::shared_ptr<const Buffer> makeMappedBuffer(std::shared_ptr<const MappedFile> file, size_t offset, size_t length) {
  return std::make_shared<MappedBuffer>(std::move(file), offset, length);
}

const MappedFile* Tensor::mappedFile() const {
  // The same choice as bytes(): a side file's buffer until bytes were set directly.
  if (!data_ && lazy_) return lazy_->buffer ? lazy_->buffer->mappedFile() : nullptr;
  return data_ ? data_->mappedFile() : nullptr;
}

int64_t Tensor::numElements() const {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

size_t Tensor::expectedBytes() const { return storageBytes(dtype, numElements()); }

void Tensor::setBytes(std::string raw) { setBuffer(makeBuffer(std::move(raw))); }

void Tensor::setBuffer(std::shared_ptr<const Buffer> buf) {
  data_ = std::move(buf);
  lazy_.reset();
  if (storage == Storage::External) storage = Storage::Raw;
}

void Tensor::setExternalSource(std::string resolvedPath, ExternalRef ref, std::string containDir) {
  external = std::move(ref);
  storage = Storage::External;
  data_.reset();
  lazy_ = std::make_shared<Lazy>();
  lazy_->path = std::move(resolvedPath);
  lazy_->containDir = std::move(containDir);
}

bool Tensor::isLoaded() const { return data_ != nullptr || (lazy_ && lazy_->buffer); }
bool Tensor::hasData() const { return data_ != nullptr || lazy_ != nullptr; }

std::span<const std::byte> Tensor::bytes() const {
  if (!data_ && lazy_) {
    auto lazy = lazy_;
    const ExternalRef ref = *external;
    std::call_once(lazy->once, [&] {
      auto file = MappedFile::open(lazy->path, lazy->containDir);
      if (ref.offset < 0 || static_cast<size_t>(ref.offset) > file->size())
        throw InputError(lazy->path, "tensor '" + name + "': external data offset " + std::to_string(ref.offset) +
                                         " is past the end of the file (" + std::to_string(file->size()) + " bytes)");
      size_t len = ref.length < 0 ? file->size() - ref.offset : static_cast<size_t>(ref.length);
      // The file may have changed since the model was opened: compare without letting offset + len wrap.
      if (len > file->size() - static_cast<size_t>(ref.offset))
        throw InputError(lazy->path, "tensor '" + name + "': external data [" + std::to_string(ref.offset) + ", +" +
                                         std::to_string(len) + ") runs past the end of the file (" +
                                         std::to_string(file->size()) + " bytes)");
      lazy->buffer = makeMappedBuffer(std::move(file), ref.offset, len);
    });
    return {lazy->buffer->data(), lazy->buffer->size()};
  }
  if (!data_) return {};
  return {data_->data(), data_->size()};
}

std::shared_ptr<const Buffer> Tensor::sharedBytes() const {
  bytes();  // loads a side file
  if (data_) return data_;
  return lazy_ ? lazy_->buffer : nullptr;
}

std::vector<int64_t> Tensor::asInt64() const {
  std::vector<int64_t> out;
  auto b = bytes();
  switch (dtype) {
    case DataType::Int64:
      appendAs<int64_t>(b, out);
      break;
    case DataType::Int32:
      appendAs<int32_t>(b, out);
      break;
    case DataType::Int16:
      appendAs<int16_t>(b, out);
      break;
    case DataType::Int8:
      appendAs<int8_t>(b, out);
      break;
    case DataType::UInt8:
    case DataType::Bool:
      appendAs<uint8_t>(b, out);
      break;
    case DataType::UInt16:
      appendAs<uint16_t>(b, out);
      break;
    case DataType::UInt32:
      appendAs<uint32_t>(b, out);
      break;
    case DataType::UInt64:
      appendAs<uint64_t>(b, out);
      break;
    case DataType::Float: {
      std::vector<double> d;
      appendAsD<float>(b, d);
      for (auto v : d) out.push_back((int64_t)v);
      break;
    }
    case DataType::Double: {
      std::vector<double> d;
      appendAsD<double>(b, d);
      for (auto v : d) out.push_back((int64_t)v);
      break;
    }
    case kInt4:
    case kUInt4:
    case kInt2:
    case kUInt2:
      for (double v : decodeNarrow(dtype, b, numElements())) out.push_back(static_cast<int64_t>(v));
      break;
    default:
      break;
  }
  return out;
}

std::vector<double> Tensor::asDouble() const {
  std::vector<double> out;
  auto b = bytes();
  switch (dtype) {
    case DataType::Float:
      appendAsD<float>(b, out);
      break;
    case DataType::Double:
      appendAsD<double>(b, out);
      break;
    case DataType::Float16:
      for (size_t i = 0; i + 2 <= b.size(); i += 2) {
        uint16_t h;
        std::memcpy(&h, b.data() + i, 2);
        out.push_back(halfToFloat(h));
      }
      break;
    case DataType::BFloat16:
      for (size_t i = 0; i + 2 <= b.size(); i += 2) {
        uint16_t h;
        std::memcpy(&h, b.data() + i, 2);
        uint32_t bits = uint32_t(h) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        out.push_back(f);
      }
      break;
    default:
      if (isNarrowType(dtype)) return decodeNarrow(dtype, b, numElements());
      for (auto v : asInt64()) out.push_back(static_cast<double>(v));
  }
  return out;
}

}  // namespace fb::ir
