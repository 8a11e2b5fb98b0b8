#include "check/onnx_check.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "check/inference_gate.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"

namespace fb {
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

// Replaces the bytes of the tensors the export marked by a placeholder: what the checker and inference look at (name, type,
// dims) stays, the bytes go. libonnx 1.12's checker does not compare raw_data with the dims, and inference
// reads only small (shape-like) tensors.
void unmarkStubs(onnx::TensorProto& t) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL || t.external_data_size() == 0 ||
      t.external_data(0).value() != kStubLocation)
    return;
  t.clear_external_data();
  t.clear_data_location();
  t.set_raw_data(std::string(8, '\0'));  // the checker wants a value field; 1.12 does not compare its size
}

void unmarkStubs(onnx::SparseTensorProto& t) {
  unmarkStubs(*t.mutable_values());
  unmarkStubs(*t.mutable_indices());
}

void unmarkStubs(onnx::GraphProto& g) {
  for (auto& t : *g.mutable_initializer()) unmarkStubs(t);
  for (auto& t : *g.mutable_sparse_initializer()) unmarkStubs(t);
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_t()) unmarkStubs(*a.mutable_t());
      for (auto& t : *a.mutable_tensors()) unmarkStubs(t);
      if (a.has_sparse_tensor()) unmarkStubs(*a.mutable_sparse_tensor());
      for (auto& t : *a.mutable_sparse_tensors()) unmarkStubs(t);
      if (a.has_g()) unmarkStubs(*a.mutable_g());
      for (auto& sg : *a.mutable_graphs()) unmarkStubs(sg);
    }
}

// The model for the checker: every non-integer tensor of 256 bytes and more (weights) without its bytes, so the check costs
// what the graph costs, not what the weights weigh (ResNet-50: 105 of 115 ms went to copying them).
void toProto(const ir::Model& m, onnx::ModelProto& p) {
  bool stubbed = false;
  onnxfmt::exportModel(m, p, [&](const ir::Tensor& t, ir::ExternalRef& ref) {
    // Integer tensors keep their bytes: sparse indices and shape-like inputs are read by the checker and inference.
    if (t.expectedBytes() < kStubBytes || t.dtype == ir::DataType::Int64 || t.dtype == ir::DataType::Int32) return false;
    ref.entries = {{"location", kStubLocation}};
    stubbed = true;
    return true;
  });
  if (stubbed) {
    unmarkStubs(*p.mutable_graph());
    for (auto& f : *p.mutable_functions())
      for (auto& n : *f.mutable_node())
        for (auto& a : *n.mutable_attribute())
          if (a.has_t()) unmarkStubs(*a.mutable_t());
  }
}

template <typename F>
void guarded(CheckResult& r, const F& f) {
  try {
    f();
  } catch (const std::exception& e) {
    r.ok = false;
    r.messages.push_back({nodeFrom(e.what()), firstLine(e.what())});
  }
}

void collectTypes(const onnx::GraphProto& g, std::unordered_map<std::string, ir::TypeInfo>& out) {
  auto take = [&](const onnx::ValueInfoProto& vi) {
    if (vi.has_type()) out[vi.name()] = onnxfmt::importType(vi.type());
  };
  for (const auto& vi : g.input()) take(vi);
  for (const auto& vi : g.value_info()) take(vi);
  for (const auto& vi : g.output()) take(vi);
}

}  // namespace

CheckResult checkModel(const ir::Model& m, bool strict) {
  CheckResult r;
  // On an arena: a node-heavy graph's proto is a few hundred thousand messages, freed at once.
  google::protobuf::Arena arena;
  onnx::ModelProto& p = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  guarded(r, [&] { toProto(m, p); });
  if (!r.ok) return r;
  guarded(r, [&] { onnx::checker::check_model(p); });
  // Strict inference only on what the checker accepted, and never on what would crash it.
  if (!r.ok) return r;
  if (auto why = inferenceHazardAfterCheck(p)) {
    r.ok = false;
    r.messages.push_back({"", *why});
    return r;
  }
  guarded(r, [&] {
    onnx::ShapeInferenceOptions opts(/*check_type=*/true, /*error_mode=*/strict ? 1 : 0, /*data_prop=*/false);
    onnx::shape_inference::InferShapes(p, onnx::OpSchemaRegistry::Instance(), opts);
  });
  return r;
}

std::unordered_map<std::string, ir::TypeInfo> inferShapes(const ir::Model& m, std::vector<CheckMessage>* warnings) {
  std::unordered_map<std::string, ir::TypeInfo> out;
  CheckResult r;
  google::protobuf::Arena arena;
  onnx::ModelProto& p = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  guarded(r, [&] {
    exportForInference(m, p);
    if (auto why = inferenceHazard(p)) {
      // Fallback: the types the model declares.
      r.messages.push_back({"", "shape inference skipped: " + *why});
      collectTypes(p.graph(), out);
      return;
    }
    // Intermediate value_info may be stale; let inference start from inputs and initializers.
    p.mutable_graph()->clear_value_info();
    onnx::ShapeInferenceOptions opts(false, 0, true);
    onnx::shape_inference::InferShapes(p, onnx::OpSchemaRegistry::Instance(), opts);
    collectTypes(p.graph(), out);
  });
  if (warnings) warnings->insert(warnings->end(), r.messages.begin(), r.messages.end());
  return out;
}

void applyInferredShapes(ir::Model& m, std::vector<CheckMessage>* warnings) {
  auto types = inferShapes(m, warnings);
  ir::Graph& g = m.graph();
  for (auto& [name, type] : types) {
    ir::Value* v = g.findValue(name);
    if (!v || v->isGraphInput() || v->initializer()) continue;
    v->type = type;
    if (!v->isGraphOutput()) g.addValueInfo(v);
  }
}

}  // namespace fb
