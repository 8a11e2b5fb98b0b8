#include "formats/tensor_size.h"

#include "ir/packed_types.h"

namespace fb {

namespace {
constexpr uint64_t kLimit = uint64_t{1} << 62;
}

std::optional<uint64_t> checkedElementCount(const std::vector<int64_t>& dims) {
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d == 0)
      n = 0;
    else if (n != 0 && static_cast<uint64_t>(d) > kLimit / n)
      return std::nullopt;
    else
      n *= static_cast<uint64_t>(d);
  }
  // A zero anywhere makes the tensor empty; still refuse other dims that overflow on their own.
  return n;
}

std::optional<uint64_t> checkedByteSize(const std::vector<int64_t>& dims, ir::DataType dtype) {
  // Bits, not bytes: 4- and 2-bit types (INT4, UINT2, ...) are packed several per byte.
  const uint64_t bits = ir::elementBits(dtype);
  if (bits == 0) return std::nullopt;
  auto n = checkedElementCount(dims);
  if (!n || *n > kLimit / bits) return std::nullopt;
  return (*n * bits + 7) / 8;
}

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

}  // namespace fb
