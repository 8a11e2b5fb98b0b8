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

// Short names for the DataType values added after onnx 1.12 (IR 9-13), used where these types are handled.
inline constexpr DataType kFloat8E4M3FN = DataType::Float8E4M3FN;
inline constexpr DataType kFloat8E4M3FNUZ = DataType::Float8E4M3FNUZ;
inline constexpr DataType kFloat8E5M2 = DataType::Float8E5M2;
inline constexpr DataType kFloat8E5M2FNUZ = DataType::Float8E5M2FNUZ;
inline constexpr DataType kUInt4 = DataType::UInt4;
inline constexpr DataType kInt4 = DataType::Int4;
inline constexpr DataType kFloat4E2M1 = DataType::Float4E2M1;
inline constexpr DataType kFloat8E8M0 = DataType::Float8E8M0;
inline constexpr DataType kUInt2 = DataType::UInt2;
inline constexpr DataType kInt2 = DataType::Int2;

// Bits per element as stored in raw_data (4 for INT4/UINT4/FLOAT4E2M1, 2 for INT2/UINT2, 8 for float8);
// 0 when variable (string) or unknown. elementSize() is 0 for the sub-byte types.
size_t elementBits(DataType t);
// Bytes that `count` elements take in raw_data, packed (ceil(count * bits / 8)).
size_t storageBytes(DataType t, int64_t count);
// The lowest IR version whose TensorProto.DataType has this type (3 for the types of onnx 1.12).
int64_t minIrVersionFor(DataType t);

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
