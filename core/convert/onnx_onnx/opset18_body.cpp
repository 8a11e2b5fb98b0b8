#include "convert/onnx_onnx/opset18_body.h"

#include <cstdio>
#include <sstream>

#include "convert/onnx_onnx/function_body.h"
#include "schema/opsets_18_26/op_facts.h"

namespace fb::convert::onnx_onnx {

void replaceByBody17(ir::Node& n, HandlerContext& ctx, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::function<void(onnx::FunctionBuilder&)>& build,
                     const std::string& note) {
  onnx::FunctionProto f;
  f.set_name(n.opType + "_at_17");
  for (const auto& i : inputs) f.add_input(i);
  for (const auto& o : outputs) f.add_output(o);
  onnx::FunctionBuilder b(f);
  try {
    build(b);
  } catch (const Unsupported&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(n.opType + ": opset-17 body does not parse: " + e.what());
  }
  b.AddOpset("", static_cast<int>(schema::kLibonnxMaxOpset));
  expandBody(n, ctx, f, schema::kLibonnxMaxOpset);
  ctx.note = note + " (" + ctx.note + ")";
}

std::string intList(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string floatText(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

onnx::TensorProto floatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t.add_dims(d);
  for (float v : values) t.add_float_data(v);
  return t;
}

void requireFloat32(const ir::Node& n, const HandlerContext& ctx) {
  ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Undefined && t != ir::DataType::Float)
    throw Unsupported(n.opType + " on " + std::string(ir::dataTypeName(t)) +
                      ": only the float form is decomposed (ONNX Runtime's CPU kernels for it are float-only)");
}

}  // namespace fb::convert::onnx_onnx
