#pragma once
// OneFlow's DataType enum (data_type.proto) against the IR's ONNX-numbered element types.
#include <optional>
#include <string>

#include "ir/data_type.h"

namespace fb::oneflow {

// nullopt for types ONNX has no counterpart for (kOFRecord, kTensorBuffer, kChar, 128-bit ints, complex32).
std::optional<ir::DataType> toIrDataType(int oneflowDataType);
// OneFlow's name for the enum value ("kFloat"), or "DataType(<n>)".
std::string oneflowDataTypeName(int oneflowDataType);

}  // namespace fb::oneflow
