#include "codegen/weights_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "formats/oneflow/oneflow_types.h"
#include "ir/packed_types.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/stored_zip_writer.h"
#include "util/temp_folder.h"

namespace fb::codegen {
namespace fs = std::filesystem;
using ir::DataType;

namespace {

// ---- PyTorch -----------------------------------------------------------------------------------------------

std::optional<std::string_view> torchStorageClass(DataType t) {
  switch (t) {
    case DataType::Float:
      return "FloatStorage";
    case DataType::Double:
      return "DoubleStorage";
    case DataType::Float16:
      return "HalfStorage";
    case DataType::BFloat16:
      return "BFloat16Storage";
    case DataType::Int8:
      return "CharStorage";
    case DataType::Int16:
      return "ShortStorage";
    case DataType::Int32:
      return "IntStorage";
    case DataType::Int64:
      return "LongStorage";
    case DataType::UInt8:
      return "ByteStorage";
    case DataType::Bool:
      return "BoolStorage";
    case DataType::Complex64:
      return "ComplexFloatStorage";
    case DataType::Complex128:
      return "ComplexDoubleStorage";
    default:
      return std::nullopt;
  }
}

bool isUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t follow = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : 4;
    if (follow == 4 || i + follow >= s.size() + (follow == 0)) return false;
    for (size_t k = 1; k <= follow; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += follow + 1;
  }
  return true;
}

// The subset of pickle protocol 2 that torch.save itself emits for a state dict.
class PickleEmitter {
 public:
  PickleEmitter() { op(0x80), op(0x02); }  // PROTO 2
  void global(std::string_view module, std::string_view name) {
    op('c');
    (out_ += module) += '\n';
    (out_ += name) += '\n';
  }
  void mark() { op('('); }
  void emptyTuple() { op(')'); }
  void tuple() { op('t'); }
  void reduce() { op('R'); }
  void setItems() { op('u'); }
  void persistentId() { op('Q'); }  // BINPERSID
  void newFalse() { op(0x89); }
  void stop() { op('.'); }
  void string(std::string_view s) {
    op('X');  // BINUNICODE
    raw32(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  void integer(int64_t v) {
    if (v >= 0 && v < 0x100) {
      op('K'), op(static_cast<uint8_t>(v));
    } else if (v >= 0 && v < 0x10000) {
      op('M'), op(static_cast<uint8_t>(v & 0xff)), op(static_cast<uint8_t>(v >> 8));
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      op('J');
      raw32(static_cast<uint32_t>(static_cast<int32_t>(v)));
    } else {
      op(0x8a), op(8);  // LONG1: 8 bytes of two's complement
      for (int i = 0; i < 8; ++i) op(static_cast<uint8_t>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff));
    }
  }
  void intTuple(const std::vector<int64_t>& v) {
    if (v.empty()) return emptyTuple();
    if (v.size() > 3) mark();
    for (auto x : v) integer(x);
    if (v.size() > 3)
      tuple();
    else
      op(static_cast<uint8_t>(0x84 + v.size()));  // TUPLE1..TUPLE3
  }
  const std::string& bytes() const { return out_; }

 private:
  void op(uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void raw32(uint32_t v) {
    for (int i = 0; i < 4; ++i) op(static_cast<uint8_t>((v >> (8 * i)) & 0xff));
  }
  std::string out_;
};

std::span<const std::byte> checkedBytes(const NamedTensor& t, const std::string& path) {
  if (!t.tensor) throw OutputError(path + ": tensor '" + t.key + "' has no value");
  auto bytes = t.tensor->bytes();
  if (bytes.size() != t.tensor->expectedBytes())
    throw OutputError(path + ": tensor '" + t.key + "' has " + std::to_string(bytes.size()) + " bytes of data, but " +
                      "its shape and " + std::string(ir::dataTypeName(t.tensor->dtype)) + " need " +
                      std::to_string(t.tensor->expectedBytes()));
  return bytes;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(dims[i], 1);
  }
  return strides;
}

// ---- OneFlow -----------------------------------------------------------------------------------------------

std::optional<int> oneflowDataType(DataType t) {  // data_type.proto numbers
  switch (t) {
    case DataType::Float:
      return 2;
    case DataType::Double:
      return 3;
    case DataType::Int8:
      return 4;
    case DataType::Int32:
      return 5;
    case DataType::Int64:
      return 6;
    case DataType::UInt8:
      return 7;
    case DataType::Float16:
      return 9;
    case DataType::Bool:
      return 12;
    case DataType::Int16:
      return 17;
    case DataType::Complex64:
      return 20;
    case DataType::Complex128:
      return 21;
    default:
      return std::nullopt;  // bfloat16 included: OneFlow's Tensor.numpy() refuses it, so no release saves it
  }
}

void writeWholeFile(const fs::path& p, std::span<const std::byte> data) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputError(p.string() + ": cannot create: " + std::strerror(errno));
  const auto* c = reinterpret_cast<const char*>(data.data());
  size_t left = data.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, c, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      const int e = errno;
      ::close(fd);
      throw OutputError(p.string() + ": write failed: " + std::strerror(e));
    }
    c += w;
    left -= static_cast<size_t>(w);
  }
  // No fsync per file: the folder is flushed once (syncFolder) before it is renamed into place; a fsync for each of
  // hundreds of small out/meta files made writing 20-50x slower than the disk.
  if (::close(fd) != 0) throw OutputError(p.string() + ": write failed: " + std::strerror(errno));
}

void syncFolder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || ::syncfs(fd) != 0) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    throw OutputError(dir.string() + ": cannot flush the written files: " + std::strerror(e));
  }
  ::close(fd);
}

std::string metaText(const ir::Tensor& t, int dataType) {
  std::string s = "shape {\n";  // always emitted, also for 0-d tensors (some readers treat a missing block badly)
  for (auto d : t.dims) s += "  dim: " + std::to_string(d) + "\n";
  return s + "}\ndata_type: " + oneflow::oneflowDataTypeName(dataType) + "\n";
}

// The tensors as they are written: narrow ones replaced by their exact widening (one copy per distinct tensor, so
// tensors that shared a storage still do).
class StoredTensors {
 public:
  StoredTensors(const std::vector<NamedTensor>& tensors, Flavour flavour) {
    std::unordered_map<const ir::Tensor*, const ir::Tensor*> copies;
    for (const auto& t : tensors) {
      NamedTensor s = t;
      if (t.tensor && ir::isNarrowType(t.tensor->dtype)) {
        if (auto to = storedWeightType(t.tensor->dtype, flavour)) {
          auto [it, fresh] = copies.try_emplace(t.tensor, nullptr);
          if (fresh) it->second = &widened_.emplace_back(widenedExactly(*t.tensor, *to));
          s.tensor = it->second;
        }
      }
      list_.push_back(s);
    }
  }
  const std::vector<NamedTensor>& list() const { return list_; }

 private:
  std::deque<ir::Tensor> widened_;
  std::vector<NamedTensor> list_;
};

}  // namespace

std::optional<ir::DataType> storedWeightType(DataType t, Flavour flavour) {
  const bool held = flavour == Flavour::OneFlow ? oneflowDataType(t).has_value() : torchStorageClass(t).has_value();
  if (held) return t;
  // Neither library has the 4-/2-bit or float8/float4 types in the releases the code targets (torch 1.13,
  // OneFlow 0.8-1.0); their exact widenings (int8, uint8, float32) both have.
  return ir::exactWideningOf(t);
}

ir::Tensor widenedExactly(const ir::Tensor& t, DataType to) {
  ir::Tensor w;
  w.name = t.name;
  w.dtype = to;
  w.dims = t.dims;
  const std::vector<double> values = t.asDouble();
  std::string bytes;
  if (to == DataType::Float) {
    std::vector<float> f(values.begin(), values.end());  // float8/float4 values (NaN and inf too) are floats
    bytes.assign(reinterpret_cast<const char*>(f.data()), f.size() * sizeof(float));
  } else if (to == DataType::Int8 || to == DataType::UInt8) {
    bytes.reserve(values.size());
    for (double d : values) bytes.push_back(static_cast<char>(static_cast<int>(d)));  // two's complement byte
  } else {
    throw std::invalid_argument("widenedExactly: no exact widening of " + std::string(ir::dataTypeName(t.dtype)) +
                                " to " + std::string(ir::dataTypeName(to)));
  }
  w.setBytes(std::move(bytes));
  return w;
}

void writeTorchStateDict(const std::vector<NamedTensor>& given, const std::string& path,
                         const TorchWriteOptions& options) {
  const StoredTensors stored(given, Flavour::PyTorch);
  const std::vector<NamedTensor>& tensors = stored.list();
  std::set<std::string_view> keys;
  for (const auto& t : tensors) {
    if (!keys.insert(t.key).second) throw OutputError(path + ": duplicate state-dict key '" + t.key + "'");
    if (!isUtf8(t.key)) throw OutputError(path + ": state-dict key '" + t.key + "' is not UTF-8");
    if (!t.tensor) throw OutputError(path + ": tensor '" + t.key + "' has no value");
    if (!torchStorageClass(t.tensor->dtype))
      throw OutputError(path + ": tensor '" + t.key + "' has dtype " + std::string(ir::dataTypeName(t.tensor->dtype)) +
                        ", which PyTorch cannot hold");
  }

  // Storage keys are numbered as torch.save numbers them; one storage per distinct ir::Tensor.
  std::unordered_map<const ir::Tensor*, std::string> storageKey;
  std::vector<const NamedTensor*> storages;
  PickleEmitter p;
  p.global("collections", "OrderedDict");
  p.emptyTuple();
  p.reduce();
  p.mark();
  for (const auto& t : tensors) {
    auto [it, fresh] = storageKey.try_emplace(t.tensor, std::to_string(storageKey.size()));
    if (fresh) storages.push_back(&t);
    p.string(t.key);
    // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, backward_hooks)
    p.global("torch._utils", "_rebuild_tensor_v2");
    p.mark();
    p.mark();
    p.string("storage");
    p.global("torch", *torchStorageClass(t.tensor->dtype));
    p.string(it->second);
    p.string("cpu");
    p.integer(t.tensor->numElements());
    p.tuple();
    p.persistentId();
    p.integer(0);
    p.intTuple(t.tensor->dims);
    p.intTuple(contiguousStrides(t.tensor->dims));
    p.newFalse();
    p.global("collections", "OrderedDict");
    p.emptyTuple();
    p.reduce();
    p.tuple();
    p.reduce();
  }
  p.setItems();
  p.stop();

  AtomicFile out(path);
  StoredZipWriter zip(out, options.forceZip64);
  zip.add("archive/data.pkl", p.bytes());
  for (const auto* t : storages) zip.add("archive/data/" + storageKey.at(t->tensor), checkedBytes(*t, path));
  zip.add("archive/version", std::string_view("3\n"));
  zip.add("archive/byteorder", std::string_view("little"));  // newer torch.load reads it; older ones ignore it
  zip.finish();
  out.commit();
}

void writeOneflowVariableDir(const std::vector<NamedTensor>& given, const std::string& dir) {
  const StoredTensors stored(given, Flavour::OneFlow);
  const std::vector<NamedTensor>& tensors = stored.list();
  std::set<std::string_view> keys;
  for (const auto& t : tensors) {
    if (t.key.empty() || t.key == "." || t.key == ".." || t.key == "snapshot_done" ||
        t.key.find('/') != std::string::npos || t.key.find('\0') != std::string::npos)
      throw OutputError(dir + ": '" + t.key + "' cannot be a variable folder name (OneFlow uses the key as one)");
    if (!keys.insert(t.key).second) throw OutputError(dir + ": duplicate state-dict key '" + t.key + "'");
    if (!t.tensor) throw OutputError(dir + ": tensor '" + t.key + "' has no value");
    if (!oneflowDataType(t.tensor->dtype))
      throw OutputError(dir + ": tensor '" + t.key + "' has dtype " + std::string(ir::dataTypeName(t.tensor->dtype)) +
                        ", which oneflow.save/load cannot hold" +
                        (t.tensor->dtype == DataType::BFloat16 ? " (cast it to float16 or float32)" : ""));
  }
  const fs::path target = outputFolderPath(dir);
  std::error_code ec;
  const auto status = fs::symlink_status(target, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) throw OutputError(dir + ": exists and is not a folder");
    if (!fs::is_empty(target, ec) && !fs::exists(target / "snapshot_done", ec))
      throw OutputError(dir + ": exists and is not a OneFlow weight folder; not replacing it");
  }
  TempFolder temp(target, dir);
  for (const auto& t : tensors) {
    const fs::path var = temp.path() / t.key;
    fs::create_directory(var, ec);
    if (ec) throw OutputError(dir + ": cannot create the folder of '" + t.key + "': " + ec.message());
    writeWholeFile(var / "out", checkedBytes(t, dir));
    const std::string meta = metaText(*t.tensor, *oneflowDataType(t.tensor->dtype));
    writeWholeFile(var / "meta", std::as_bytes(std::span(meta.data(), meta.size())));
  }
  syncFolder(temp.path());
  writeWholeFile(temp.path() / "snapshot_done", {});  // last: marks the save complete
  syncFolder(temp.path());
  temp.placeAt(target);
}

}  // namespace fb::codegen
