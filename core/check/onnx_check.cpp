#include "check/onnx_check.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "check/axis_ranges.h"
#include "check/checker_proto.h"
#include "check/inference_gate.h"
#include "formats/onnx/onnx_proto_export.h"
#include "formats/onnx/onnx_proto_import.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/inference_view.h"
#include "schema/opsets_18_26/structure_check.h"
#include "schema/shape_facts.h"

namespace fb {
namespace {

using checker_proto::guarded;

void collectTypes(const onnx::GraphProto& g, std::unordered_map<std::string, ir::TypeInfo>& out) {
  auto take = [&](const onnx::ValueInfoProto& vi) {
    if (vi.has_type()) out[vi.name()] = onnxfmt::importType(vi.type());
  };
  for (const auto& vi : g.input()) take(vi);
  for (const auto& vi : g.value_info()) take(vi);
  for (const auto& vi : g.output()) take(vi);
}

// Walks the IR graph and its exported proto side by side (the exporter writes nodes and attributes in order) into
// If branches, and If branches within them.
void collectBranchTypes(const ir::Graph& g, const onnx::GraphProto& pg, BranchTypes& out) {
  if (pg.node_size() != static_cast<int>(g.nodeCount())) return;
  int k = 0;
  for (const auto& n : g.nodes()) {
    const onnx::NodeProto& pn = pg.node(k++);
    if (n->opType != "If" || !n->isDefaultDomain() || pn.op_type() != "If") continue;
    for (const auto& a : n->attributes) {
      if (a.graphs.empty() || !a.graphs[0]) continue;
      for (const auto& pa : pn.attribute())
        if (pa.name() == a.name && pa.has_g()) {
          collectTypes(pa.g(), out[a.graphs[0].get()]);
          collectBranchTypes(*a.graphs[0], pa.g(), out);
        }
    }
  }
}

}  // namespace

namespace {

CheckResult checkWithLibonnx(const ir::Model& m, bool strict) {
  if (m.graph().nodeCount() >= kCheckWindowFrom)
    if (auto windowed = checkModelInWindows(m, kCheckWindowNodes, strict)) return *windowed;
  CheckResult r;
  // On an arena: a node-heavy graph's proto is a few hundred thousand messages, freed at once.
  google::protobuf::Arena arena;
  onnx::ModelProto& p = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  guarded(r, [&] { checker_proto::toProto(m, p); });
  if (r.ok) checker_proto::checkAndInfer(p, strict, r);
  return r;
}

}  // namespace

CheckResult checkModel(const ir::Model& m, bool strict) {
  CheckResult r = checkWithLibonnx(m, strict);
  if (r.ok)
    for (auto& problem : axisRangeProblems(m)) {
      r.ok = false;
      r.messages.push_back(std::move(problem));
    }
  return r;
}

CheckResult checkModelAtItsOpset(const ir::Model& m) {
  return m.opsetVersion("") > schema::kLibonnxMaxOpset ? schema::opsets_18_26::checkStructure(m) : checkModel(m);
}

std::unordered_map<std::string, ir::TypeInfo> inferShapes(const ir::Model& m, std::vector<CheckMessage>* warnings,
                                                          BranchTypes* branchTypes) {
  std::unordered_map<std::string, ir::TypeInfo> out;
  CheckResult r;
  google::protobuf::Arena arena;
  onnx::ModelProto& p = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  guarded(r, [&] {
    exportForInference(m, p);
    // libonnx 1.12 would read an opset-18+ node by its opset-17 rules (an opset-18 ReduceMean's axes input ignored)
    // and its checker refuses the new forms: inference runs on the model's opset-17 view, where each node keeps its
    // output shapes (schema/opsets_18_26/inference_view.h), the view's opaque nodes typed by FlowBridge's own rules.
    const bool after17 = m.opsetVersion("") > schema::kLibonnxMaxOpset;
    if (after17) schema::opsets_18_26::makeOpset17View(p);
    if (auto why = inferenceHazard(p)) {
      // Fallback: the types the model declares.
      r.messages.push_back({"", "shape inference skipped: " + *why});
      collectTypes(p.graph(), out);
      return;
    }
    // Intermediate value_info may be stale; let inference start from inputs and initializers.
    p.mutable_graph()->clear_value_info();
    if (after17 && schema::opsets_18_26::hasOpaqueNodes(p))
      schema::opsets_18_26::declareOpaqueOutputs(p, schema::inferShapeFacts(m));
    onnx::ShapeInferenceOptions opts(false, 0, true);
    onnx::shape_inference::InferShapes(p, onnx::OpSchemaRegistry::Instance(), opts);
    collectTypes(p.graph(), out);
    if (branchTypes) collectBranchTypes(m.graph(), p.graph(), *branchTypes);
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
