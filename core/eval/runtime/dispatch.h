#pragma once
// Calls a generic lambda with the C++ type of an element type, so that one template body serves every type an
// op allows: `visitNumeric(t, [&]<typename T>() { ... })`. bool is uint8_t-sized and visited as bool.
#include <cstdint>
#include <string>

#include "eval/runtime/run_error.h"
#include "ir/data_type.h"

namespace fb::eval {

template <typename F>
decltype(auto) visitNumeric(ir::DataType t, F&& f) {
  using ir::DataType;
  switch (t) {
    case DataType::Float:
      return f.template operator()<float>();
    case DataType::Double:
      return f.template operator()<double>();
    case DataType::Int8:
      return f.template operator()<int8_t>();
    case DataType::Int16:
      return f.template operator()<int16_t>();
    case DataType::Int32:
      return f.template operator()<int32_t>();
    case DataType::Int64:
      return f.template operator()<int64_t>();
    case DataType::UInt8:
      return f.template operator()<uint8_t>();
    case DataType::UInt16:
      return f.template operator()<uint16_t>();
    case DataType::UInt32:
      return f.template operator()<uint32_t>();
    case DataType::UInt64:
      return f.template operator()<uint64_t>();
    case DataType::Bool:
      return f.template operator()<bool>();
    default:
      unsupported("element type " + std::string(ir::dataTypeName(t)) + " is not handled here");
  }
}

// Float and double only (float16/bfloat16 arrive as float through HalfTypes::ViaFloat).
template <typename F>
decltype(auto) visitFloating(ir::DataType t, F&& f) {
  if (t == ir::DataType::Float) return f.template operator()<float>();
  if (t == ir::DataType::Double) return f.template operator()<double>();
  unsupported("element type " + std::string(ir::dataTypeName(t)) + " is not a float type here");
}

template <typename T>
constexpr ir::DataType dataTypeOf();
template <>
constexpr ir::DataType dataTypeOf<float>() {
  return ir::DataType::Float;
}
template <>
constexpr ir::DataType dataTypeOf<double>() {
  return ir::DataType::Double;
}
template <>
constexpr ir::DataType dataTypeOf<int8_t>() {
  return ir::DataType::Int8;
}
template <>
constexpr ir::DataType dataTypeOf<int16_t>() {
  return ir::DataType::Int16;
}
template <>
constexpr ir::DataType dataTypeOf<int32_t>() {
  return ir::DataType::Int32;
}
template <>
constexpr ir::DataType dataTypeOf<int64_t>() {
  return ir::DataType::Int64;
}
template <>
constexpr ir::DataType dataTypeOf<uint8_t>() {
  return ir::DataType::UInt8;
}
template <>
constexpr ir::DataType dataTypeOf<uint16_t>() {
  return ir::DataType::UInt16;
}
template <>
constexpr ir::DataType dataTypeOf<uint32_t>() {
  return ir::DataType::UInt32;
}
template <>
constexpr ir::DataType dataTypeOf<uint64_t>() {
  return ir::DataType::UInt64;
}
template <>
constexpr ir::DataType dataTypeOf<bool>() {
  return ir::DataType::Bool;
}

}  // namespace fb::eval
