#include "formats/oneflow/oneflow_types.h"

#include "formats/oneflow/oneflow_job.pb.h"

namespace fb::oneflow {

std::optional<ir::DataType> toIrDataType(int t) {
  using D = ir::DataType;
  switch (t) {
    case ::oneflow::kFloat:
      return D::Float;
    case ::oneflow::kDouble:
      return D::Double;
    case ::oneflow::kInt8:
      return D::Int8;
    case ::oneflow::kInt32:
      return D::Int32;
    case ::oneflow::kInt64:
      return D::Int64;
    case ::oneflow::kUInt8:
      return D::UInt8;
    case ::oneflow::kFloat16:
      return D::Float16;
    case ::oneflow::kBFloat16:
      return D::BFloat16;
    case ::oneflow::kBool:
      return D::Bool;
    case ::oneflow::kUInt16:
      return D::UInt16;
    case ::oneflow::kUInt32:
      return D::UInt32;
    case ::oneflow::kUInt64:
      return D::UInt64;
    case ::oneflow::kInt16:
      return D::Int16;
    case ::oneflow::kComplex64:
      return D::Complex64;
    case ::oneflow::kComplex128:
      return D::Complex128;
    default:
      return std::nullopt;
  }
}

std::string oneflowDataTypeName(int t) {
  if (::oneflow::DataType_IsValid(t)) return ::oneflow::DataType_Name(static_cast<::oneflow::DataType>(t));
  return "DataType(" + std::to_string(t) + ")";
}

}  // namespace fb::oneflow
