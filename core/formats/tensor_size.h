#pragma once
// Byte sizes computed from dims read out of a file: a negative dim or a product that overflows would otherwise
// wrap around and make a size check pass (a [2^62+1024] float tensor "needs" 4096 bytes in 64-bit arithmetic).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/data_type.h"

namespace fb {

// Element count of `dims`, or nullopt when a dim is negative or the product exceeds 2^62.
std::optional<uint64_t> checkedElementCount(const std::vector<int64_t>& dims);
// Bytes for `dims` of `dtype`, or nullopt as above (or when the dtype has no fixed size: unknown types, strings).
std::optional<uint64_t> checkedByteSize(const std::vector<int64_t>& dims, ir::DataType dtype);
// "[2,3,4]" for messages.
std::string dimsText(const std::vector<int64_t>& dims);

}  // namespace fb
