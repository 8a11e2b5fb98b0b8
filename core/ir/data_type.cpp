#include "ir/data_type.h"
#include "ir/packed_types.h"

#include <array>

namespace fb::ir {
namespace {
struct Info {
  std::string_view name;
  size_t bits;
  int64_t minIr;
};
// Names as onnx's TensorProto.DataType spells them, lower-cased; IR versions from onnx.in.proto.
constexpr std::array<Info, 27> kInfo{{
    {"undefined", 0, 3},      {"float", 32, 3},       {"uint8", 8, 3},          {"int8", 8, 3},
    {"uint16", 16, 3},        {"int16", 16, 3},       {"int32", 32, 3},         {"int64", 64, 3},
    {"string", 0, 3},         {"bool", 8, 3},         {"float16", 16, 3},       {"double", 64, 3},
    {"uint32", 32, 3},        {"uint64", 64, 3},      {"complex64", 64, 3},     {"complex128", 128, 3},
    {"bfloat16", 16, 3},      {"float8e4m3fn", 8, 9}, {"float8e4m3fnuz", 8, 9}, {"float8e5m2", 8, 9},
    {"float8e5m2fnuz", 8, 9}, {"uint4", 4, 10},       {"int4", 4, 10},          {"float4e2m1", 4, 11},
    {"float8e8m0", 8, 12},    {"uint2", 2, 13},       {"int2", 2, 13},
}};
}  // namespace

bool isKnownDataType(int32_t raw) { return raw >= 0 && raw < static_cast<int32_t>(kInfo.size()); }

size_t elementSize(DataType t) {
  size_t bits = elementBits(t);
  return bits % 8 == 0 ? bits / 8 : 0;
}

size_t elementBits(DataType t) {
  auto i = static_cast<int32_t>(t);
  return isKnownDataType(i) ? kInfo[i].bits : 0;
}

size_t storageBytes(DataType t, int64_t count) {
  return count <= 0 ? 0 : (static_cast<size_t>(count) * elementBits(t) + 7) / 8;
}

int64_t minIrVersionFor(DataType t) {
  auto i = static_cast<int32_t>(t);
  return isKnownDataType(i) ? kInfo[i].minIr : 3;
}

std::string_view dataTypeName(DataType t) {
  auto i = static_cast<int32_t>(t);
  return isKnownDataType(i) ? kInfo[i].name : std::string_view("unknown");
}

std::optional<DataType> dataTypeFromName(std::string_view name) {
  for (size_t i = 0; i < kInfo.size(); ++i)
    if (kInfo[i].name == name) return static_cast<DataType>(i);
  return std::nullopt;
}

bool isFloatingPoint(DataType t) {
  return t == DataType::Float || t == DataType::Double || t == DataType::Float16 || t == DataType::BFloat16;
}

}  // namespace fb::ir
