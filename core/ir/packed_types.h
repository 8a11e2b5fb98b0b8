#pragma once
// Decoding of the element types added after onnx 1.12 (float8 x5, float4, int4/uint4, int2/uint2), as
// raw_data stores them: one byte per float8, two 4-bit elements per byte (element 0 in the low nibble),
// four 2-bit elements per byte (element 0 in the lowest bits). Kept in core so that the CLI, the converter
// (widening constant weights) and the app's Tensor panel decode the same way.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/data_type.h"

namespace fb::ir {

// True for the types decodeNarrow handles.
bool isNarrowType(DataType t);
// One element's value from its bit pattern (the low elementBits(t) bits of `code`). NaN where the type has one.
double decodeNarrowCode(DataType t, uint32_t code);
// The first `count` elements of packed little-endian data of a narrow type. Throws std::invalid_argument
// when the bytes are too few.
std::vector<double> decodeNarrow(DataType t, std::span<const std::byte> bytes, int64_t count);
// An onnx-1.12 type that holds every value of `t` exactly (float8/float4 -> float, int4/int2 -> int8,
// uint4/uint2 -> uint8); nullopt for other types.
std::optional<DataType> exactWideningOf(DataType t);
// Packs values (already representable) into raw_data for a sub-byte integer type; for tests and writers.
std::vector<std::byte> packSubByteIntegers(DataType t, const std::vector<int>& values);

}  // namespace fb::ir
