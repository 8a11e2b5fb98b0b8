#include "formats/oneflow/oneflow_attributes.h"

#include <stdexcept>

#include "formats/oneflow/oneflow_types.h"
#include "formats/oneflow/oneflow_job.pb.h"

namespace fb::oneflow {
namespace {
constexpr std::string_view kCasePrefix = "oneflow:";

std::string shapeText(const ::oneflow::ShapeProto& s) {
  std::string out = "[";
  for (int i = 0; i < s.dim_size(); ++i) out += (i ? "," : "") + std::to_string(s.dim(i));
  return out + "]";
}

// OneFlow dtype attributes are stored as ONNX element types, as oneflow-onnx does for "dtype".
int64_t onnxDataType(int oneflowType) {
  auto t = toIrDataType(oneflowType);
  return t ? static_cast<int64_t>(*t) : 0;
}
}  // namespace

ir::Attribute toIrAttribute(const std::string& name, const ::oneflow::AttrValue& v) {
  using V = ::oneflow::AttrValue;
  ir::Attribute a;
  a.name = name;
  switch (v.value_case()) {
    case V::kAtInt32:
      a.type = ir::AttrType::Int;
      a.i = v.at_int32();
      break;
    case V::kAtInt64:
      a.type = ir::AttrType::Int;
      a.i = v.at_int64();
      break;
    case V::kAtBool:
      a.type = ir::AttrType::Int;
      a.i = v.at_bool() ? 1 : 0;
      break;
    case V::kAtFloat:
      a.type = ir::AttrType::Float;
      a.f = v.at_float();
      break;
    case V::kAtDouble:
      a.type = ir::AttrType::Float;
      a.f = static_cast<float>(v.at_double());
      break;
    case V::kAtString:
      a.type = ir::AttrType::String;
      a.s = v.at_string();
      break;
    case V::kAtShape:
      a.type = ir::AttrType::Ints;
      a.ints.assign(v.at_shape().dim().begin(), v.at_shape().dim().end());
      break;
    case V::kAtDataType:
      a.type = ir::AttrType::Int;
      a.i = onnxDataType(v.at_data_type());
      break;
    case V::kAtListInt32:
      a.type = ir::AttrType::Ints;
      a.ints.assign(v.at_list_int32().val().begin(), v.at_list_int32().val().end());
      break;
    case V::kAtListInt64:
      a.type = ir::AttrType::Ints;
      a.ints.assign(v.at_list_int64().val().begin(), v.at_list_int64().val().end());
      break;
    case V::kAtListFloat:
      a.type = ir::AttrType::Floats;
      a.floats.assign(v.at_list_float().val().begin(), v.at_list_float().val().end());
      break;
    case V::kAtListDataType:
      a.type = ir::AttrType::Ints;
      for (int t : v.at_list_data_type().val()) a.ints.push_back(onnxDataType(t));
      break;
    case V::kAtListShape:
      a.type = ir::AttrType::Strings;
      for (const auto& s : v.at_list_shape().val()) a.strings.push_back(shapeText(s));
      break;
    case V::kAtListString:
      a.type = ir::AttrType::Strings;
      a.strings.assign(v.at_list_string().val().begin(), v.at_list_string().val().end());
      break;
    case V::kAtStride:
      a.type = ir::AttrType::Ints;
      a.ints.assign(v.at_stride().dim().begin(), v.at_stride().dim().end());
      break;
    case V::kAtListStride:
      a.type = ir::AttrType::Strings;
      for (const auto& s : v.at_list_stride().val()) {
        std::string t = "[";
        for (int i = 0; i < s.dim_size(); ++i) t += (i ? "," : "") + std::to_string(s.dim(i));
        a.strings.push_back(t + "]");
      }
      break;
    case V::kAtDevice: {
      a.type = ir::AttrType::String;
      const auto& d = v.at_device();
      a.s = (d.device_type() == ::oneflow::kCUDA  ? "cuda:"
             : d.device_type() == ::oneflow::kCPU ? "cpu:"
                                                  : "device:") +
            std::to_string(d.device_id());
      break;
    }
    case V::kAtComplexDouble:
      a.type = ir::AttrType::Floats;
      a.floats = {static_cast<float>(v.at_complex_double().real()), static_cast<float>(v.at_complex_double().imag())};
      break;
    case V::kAtMemoryFormat:
      a.type = ir::AttrType::Int;
      a.i = v.at_memory_format();
      break;
    case V::kAtBytes:
      a.type = ir::AttrType::String;
      a.s = v.at_bytes();
      break;
    case V::VALUE_NOT_SET:
      throw std::runtime_error("attribute '" + name + "' has no value");
  }
  // The descriptor's field name is exactly OneFlow's case name.
  a.docString = std::string(kCasePrefix) + V::descriptor()->FindFieldByNumber(v.value_case())->name();
  return a;
}

std::string oneflowAttrCase(const ir::Attribute& a) {
  if (a.docString.rfind(kCasePrefix, 0) != 0) return {};
  return a.docString.substr(kCasePrefix.size());
}

}  // namespace fb::oneflow
