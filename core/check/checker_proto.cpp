#include "check/checker_proto.h"

#include <string>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "check/inference_gate.h"

namespace fb::checker_proto {
namespace {

std::string firstLine(const std::string& s) {
  auto p = s.find('\n');
  return p == std::string::npos ? s : s.substr(0, p);
}

// libonnx messages name the node as "(op_type: X, node name: Y)"; pull Y out when present.
std::string nodeFrom(const std::string& what) {
  static const std::string key = "node name: ";
  auto p = what.find(key);
  if (p == std::string::npos) return {};
  p += key.size();
  auto e = what.find_first_of("):", p);
  return what.substr(p, e == std::string::npos ? std::string::npos : e - p);
}

// Float tensors that feed shapes (Resize/Upsample scales and roi, Range bounds, OneHot depth) have at most twice
// the rank in elements; anything of 64 floats and more is a weight. Node-heavy graphs have many small weights
// (8 x 8 x 3 x 3 floats: 2.3 KB), which a threshold of 4 KB let through whole.
constexpr size_t kStubBytes = 256;
constexpr const char* kStubLocation = "flowbridge-stub";

// The checker and inference look at name, type and dims; the bytes go. libonnx 1.12's checker does not compare
// raw_data with the dims, and inference reads only small (shape-like) tensors.
void unmark(onnx::TensorProto& t) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL || t.external_data_size() == 0 ||
      t.external_data(0).value() != kStubLocation)
    return;
  t.clear_external_data();
  t.clear_data_location();
  t.set_raw_data(std::string(8, '\0'));  // the checker wants a value field; 1.12 does not compare its size
}

void unmark(onnx::SparseTensorProto& t) {
  unmark(*t.mutable_values());
  unmark(*t.mutable_indices());
}

// libonnx's checker says "Field 'shape' of 'type' is required but missing." of a graph input or output without
// naming it. It checks the inputs, then the outputs, in order: the first one lacking what it asks is the one.
std::string valueLackingType(const onnx::GraphProto& g) {
  auto lacks = [](const onnx::ValueInfoProto& v) {
    if (!v.has_type() || v.type().value_case() == onnx::TypeProto::VALUE_NOT_SET) return true;
    const auto& t = v.type();
    return t.has_tensor_type() && (!t.tensor_type().has_elem_type() || !t.tensor_type().has_shape());
  };
  for (const auto& v : g.input())
    if (lacks(v)) return "graph input '" + v.name() + "'";
  for (const auto& v : g.output())
    if (lacks(v)) return "graph output '" + v.name() + "'";
  return {};
}

}  // namespace

bool markPlaceholder(const ir::Tensor& t, ir::ExternalRef& ref) {
  // Integer tensors keep their bytes: sparse indices and shape-like inputs are read by the checker and inference.
  if (t.expectedBytes() < kStubBytes || t.dtype == ir::DataType::Int64 || t.dtype == ir::DataType::Int32) return false;
  ref.entries = {{"location", kStubLocation}};
  return true;
}

void replaceMarked(onnx::GraphProto& g) {
  for (auto& t : *g.mutable_initializer()) unmark(t);
  for (auto& t : *g.mutable_sparse_initializer()) unmark(t);
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_t()) unmark(*a.mutable_t());
      for (auto& t : *a.mutable_tensors()) unmark(t);
      if (a.has_sparse_tensor()) unmark(*a.mutable_sparse_tensor());
      for (auto& t : *a.mutable_sparse_tensors()) unmark(t);
      if (a.has_g()) replaceMarked(*a.mutable_g());
      for (auto& sg : *a.mutable_graphs()) replaceMarked(sg);
    }
}

void replaceMarked(onnx::ModelProto& p) {
  replaceMarked(*p.mutable_graph());
  for (auto& f : *p.mutable_functions())
    for (auto& n : *f.mutable_node())
      for (auto& a : *n.mutable_attribute())
        if (a.has_t()) unmark(*a.mutable_t());
}

// ResNet-50: 105 of 115 ms of the check went to copying the weights into the proto.
void toProto(const ir::Model& m, onnx::ModelProto& p) {
  onnxfmt::exportModel(m, p, markPlaceholder);
  replaceMarked(p);
}

CheckMessage messageFrom(const std::exception& e) { return {nodeFrom(e.what()), firstLine(e.what())}; }

void checkAndInfer(onnx::ModelProto& p, bool strict, CheckResult& r) {
  guarded(r, [&] { onnx::checker::check_model(p); });
  if (!r.ok) {
    CheckMessage& m = r.messages.back();
    if (m.node.empty() && m.message.rfind("Field '", 0) == 0)
      if (auto value = valueLackingType(p.graph()); !value.empty()) m.message = value + ": " + m.message;
    return;
  }
  if (auto why = inferenceHazardAfterCheck(p)) {
    r.ok = false;
    r.messages.push_back({"", *why});
    return;
  }
  guarded(r, [&] {
    onnx::ShapeInferenceOptions opts(/*check_type=*/true, /*error_mode=*/strict ? 1 : 0, /*data_prop=*/false);
    onnx::shape_inference::InferShapes(p, onnx::OpSchemaRegistry::Instance(), opts);
  });
}

}  // namespace fb::checker_proto
