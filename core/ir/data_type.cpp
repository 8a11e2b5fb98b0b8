#include "ir/data_type.h"

#include <array>

namespace fb::ir {
namespace {
struct Info { std::string_view name; size_t size; };
constexpr std::array<Info, 17> kInfo{{
    {"undefined", 0}, {"float", 4}, {"uint8", 1}, {"int8", 1}, {"uint16", 2}, {"int16", 2},
    {"int32", 4}, {"int64", 8}, {"string", 0}, {"bool", 1}, {"float16", 2}, {"double", 8},
    {"uint32", 4}, {"uint64", 8}, {"complex64", 8}, {"complex128", 16}, {"bfloat16", 2},
}};
}  // namespace

bool isKnownDataType(int32_t raw) { return raw >= 0 && raw < static_cast<int32_t>(kInfo.size()); }

size_t elementSize(DataType t) {
  auto i = static_cast<int32_t>(t);
  return isKnownDataType(i) ? kInfo[i].size : 0;
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
