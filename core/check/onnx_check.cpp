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

onnx::ModelProto toProto(const ir::Model& m) {
  onnx::ModelProto p;
  onnxfmt::exportModel(m, p);  // no externalize callback: every tensor inline
  return p;
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
  onnx::ModelProto p;
  guarded(r, [&] { p = toProto(m); });
  if (!r.ok) return r;
  guarded(r, [&] { onnx::checker::check_model(p); });
  // Strict inference only on what the checker accepted, and never on what would crash it.
  if (!r.ok) return r;
  if (auto why = inferenceHazard(p)) {
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
  onnx::ModelProto p;
  guarded(r, [&] {
    p = exportForInference(m);
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
