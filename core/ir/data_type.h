#pragma once
// Element types, numbered as ONNX numbers them so that files and the IR agree without a table.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fb::ir {

enum class DataType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  BFloat16 = 16,
  // Added after onnx 1.12 (IR 9-13); packed_types.h decodes them.
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26,
};

// Bytes per element; 0 for String and Undefined (variable or unknown size).
size_t elementSize(DataType t);
// Lower-case ONNX name ("float", "int64", ...), as onnx's TensorProto.DataType names them.
std::string_view dataTypeName(DataType t);
std::optional<DataType> dataTypeFromName(std::string_view name);
bool isFloatingPoint(DataType t);
bool isKnownDataType(int32_t raw);

}  // namespace fb::ir
