#include "eval/io/npy_file.h"

#include <cctype>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/input_file.h"

namespace fb::eval {

namespace {

constexpr uint64_t kMaxNpyBytes = uint64_t{4} << 30;
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;  // NumPy's own headers are a few hundred bytes
constexpr char kMagic[] = "\x93NUMPY";

struct Descr {
  const char* text;
  ir::DataType type;
};
constexpr Descr kDescrs[] = {
    {"<f2", ir::DataType::Float16}, {"<f4", ir::DataType::Float},  {"<f8", ir::DataType::Double},
    {"|i1", ir::DataType::Int8},    {"<i2", ir::DataType::Int16},  {"<i4", ir::DataType::Int32},
    {"<i8", ir::DataType::Int64},   {"|u1", ir::DataType::UInt8},  {"<u2", ir::DataType::UInt16},
    {"<u4", ir::DataType::UInt32},  {"<u8", ir::DataType::UInt64}, {"|b1", ir::DataType::Bool},
};

// The header is a Python dict literal; NumPy writes exactly three keys with string, bool and tuple values. This
// reads that subset and nothing else.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  void parse(std::string& descr, bool& fortran, std::vector<int64_t>& shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      skipSpace();
      if (key == "descr") {
        descr = quoted();
        haveDescr = true;
      } else if (key == "fortran_order") {
        fortran = boolean();
        haveFortran = true;
      } else if (key == "shape") {
        shape = tuple();
        haveShape = true;
      } else {
        fail("unexpected key '" + key + "' in the header");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') fail("the header is not a dict");
    }
    ++pos_;
    if (!haveDescr || !haveFortran || !haveShape) fail("the header lacks descr, fortran_order or shape");
    skipSpace();
    if (pos_ != s_.size()) fail("text after the header's dict");
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InputError(path_, "not a .npy file: " + why); }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c) fail(std::string("expected '") + c + "' in the header");
    ++pos_;
  }
  std::string quoted() {
    skipSpace();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string in the header");
    const size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos || end - pos_ > 64) fail("an unterminated string in the header");
    std::string r(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return r;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("fortran_order is neither True nor False");
  }
  std::vector<int64_t> tuple() {
    expect('(');
    std::vector<int64_t> dims;
    while (true) {
      skipSpace();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("a shape entry that is not a number");
      int64_t d = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (d > (INT64_MAX - 9) / 10) fail("a dimension too large");
        d = d * 10 + (s_[pos_++] - '0');
      }
      if (dims.size() >= 64) fail("more than 64 dimensions");
      dims.push_back(d);
      skipSpace();
      if (peek() == 'L') ++pos_;  // Python 2's long suffix
      skipSpace();
      if (peek() == ',') ++pos_;
    }
    ++pos_;
    return dims;
  }

  std::string_view s_;
  const std::string& path_;
  size_t pos_ = 0;
};

ir::DataType typeOfDescr(std::string descr, const std::string& path) {
  if (descr.size() == 3 && (descr[0] == '=' || descr[0] == '<' || descr[0] == '|')) {
    // One-byte types carry '|' (no byte order) but '<' and '=' mean the same for them; '=' is native, little-endian
    // here.
    const bool oneByte = descr[2] == '1';
    descr[0] = oneByte ? '|' : '<';
    for (const auto& d : kDescrs)
      if (descr == d.text) return d.type;
  }
  if (!descr.empty() && descr[0] == '>') throw InputError(path, "big-endian .npy data (" + descr + ") is not read");
  throw InputError(path, "the .npy dtype '" + descr + "' is not one of f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1");
}

uint32_t readLittle(const std::string& b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t k = 0; k < n; ++k) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[at + k])) << (8 * k);
  return v;
}

}  // namespace

std::optional<std::string> npyDescr(ir::DataType t) {
  for (const auto& d : kDescrs)
    if (d.type == t) return std::string(d.text);
  return std::nullopt;
}

Tensor readNpyFile(const std::string& path) {
  const std::string bytes = InputFile::open(path).requireAtMost(kMaxNpyBytes, ".npy file").readAll();
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic) != 0) throw InputError(path, "not a .npy file (no NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  if (major != 1 && major != 2 && major != 3)
    throw InputError(path, "a .npy format version " + std::to_string(major) + " (1.0-3.0 are read)");
  const size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes) throw InputError(path, "a truncated .npy header");
  const size_t headerLen = readLittle(bytes, 8, lengthBytes);
  const size_t start = 8 + lengthBytes;
  if (headerLen > kMaxHeaderBytes || bytes.size() - start < headerLen)
    throw InputError(path, "a truncated or oversized .npy header");
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> dims;
  HeaderParser(std::string_view(bytes).substr(start, headerLen), path).parse(descr, fortran, dims);
  const ir::DataType type = typeOfDescr(descr, path);
  if (fortran) {
    // Fortran order is C order too when at most one dim exceeds 1.
    int longDims = 0;
    for (int64_t d : dims) longDims += d > 1;
    if (longDims > 1) throw InputError(path, "Fortran-order .npy data is not read (save it in C order)");
  }
  // The data's length is checked against the shape before anything is allocated: a header may claim any shape.
  int64_t count = 0;
  try {
    count = checkedElementCount(dims);
  } catch (const RunError& e) {
    throw InputError(path, std::string("the .npy shape cannot be held: ") + e.what());
  }
  const size_t data = bytes.size() - start - headerLen;
  const uint64_t needed = static_cast<uint64_t>(count) > UINT64_MAX / ir::elementSize(type)
                              ? UINT64_MAX
                              : static_cast<uint64_t>(count) * ir::elementSize(type);
  if (data != needed)
    throw InputError(path, "the .npy data holds " + std::to_string(data) + " bytes where the shape needs " +
                               (needed == UINT64_MAX ? std::string("more") : std::to_string(needed)));
  Tensor t;
  try {
    t = Tensor::empty(type, dims);
  } catch (const RunError& e) {
    throw InputError(path, std::string("the .npy array cannot be held: ") + e.what());
  }
  if (data) std::memcpy(t.mutableData<std::byte>(), bytes.data() + start + headerLen, data);
  if (type == ir::DataType::Bool) {
    auto* b = t.mutableData<uint8_t>();
    for (int64_t k = 0; k < t.size(); ++k) b[k] = b[k] != 0;
  }
  return t;
}

std::string writeNpyFile(const std::string& path, const Tensor& t) {
  Tensor stored = t;
  std::string note;
  auto descr = npyDescr(t.dtype());
  if (!descr) {
    if (t.isString() || t.dtype() == ir::DataType::Complex64 || t.dtype() == ir::DataType::Complex128 ||
        t.dtype() == ir::DataType::Undefined)
      throw OutputError(path + ": " + std::string(ir::dataTypeName(t.dtype())) + " values cannot be written as .npy");
    stored = castTensor(t, ir::DataType::Float);
    descr = "<f4";
    note = std::string(ir::dataTypeName(t.dtype())) + " written as float32 (NumPy has no " +
           std::string(ir::dataTypeName(t.dtype())) + ")";
  }
  std::string shape = "(";
  for (size_t k = 0; k < stored.rank(); ++k)
    shape += std::to_string(stored.dim(k)) + (stored.rank() == 1 ? "," : k + 1 < stored.rank() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + *descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // NumPy pads the header with spaces and a newline so that the data starts on a 64-byte boundary.
  const bool v2 = header.size() + 11 > 65535;
  const size_t prefix = v2 ? 12 : 10;
  const size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header.push_back('\n');
  std::string head(kMagic, 6);
  head.push_back(static_cast<char>(v2 ? 2 : 1));
  head.push_back('\0');
  const size_t n = header.size();
  for (size_t k = 0; k < (v2 ? 4u : 2u); ++k) head.push_back(static_cast<char>((n >> (8 * k)) & 0xff));
  AtomicFile f(path);
  f.write(head);
  f.write(header);
  f.write(stored.bytes().data(), stored.bytes().size());
  f.commit();
  return note;
}

}  // namespace fb::eval
