#include "schema/opsets_18_26/inference_view.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "schema/opsets_18_26/down_forms.h"
#include "schema/opsets_18_26/op_facts.h"
#include "formats/onnx/onnx_proto_export.h"

namespace fb::schema::opsets_18_26 {
namespace {

constexpr const char* kOpaqueDomain = "ai.flowbridge.opaque18";

using Consts = std::unordered_map<std::string, std::vector<int64_t>>;

std::vector<int64_t> intsOf(const onnx::TensorProto& t) {
  std::vector<int64_t> v;
  if (t.data_type() != onnx::TensorProto::INT64) return v;
  if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    v.resize(raw.size() / sizeof(int64_t));
    std::copy(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(v.size() * sizeof(int64_t)),
              reinterpret_cast<char*>(v.data()));
  } else {
    v.assign(t.int64_data().begin(), t.int64_data().end());
  }
  return v;
}

void collectConsts(const onnx::GraphProto& g, Consts& c) {
  for (const auto& t : g.initializer())
    if (t.data_type() == onnx::TensorProto::INT64) c[t.name()] = intsOf(t);
  for (const auto& n : g.node())
    if (n.op_type() == "Constant" && n.domain().empty() && n.output_size() == 1)
      for (const auto& a : n.attribute())
        if (a.name() == "value" && a.has_t() && a.t().data_type() == onnx::TensorProto::INT64)
          c[n.output(0)] = intsOf(a.t());
}

const onnx::AttributeProto* findAttr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

void removeAttr(onnx::NodeProto& n, const std::string& name) {
  auto* attrs = n.mutable_attribute();
  for (int i = 0; i < attrs->size(); ++i)
    if (attrs->Get(i).name() == name) {
      attrs->DeleteSubrange(i, 1);
      return;
    }
}

bool intAttrIs(const onnx::NodeProto& n, const std::string& name, int64_t dflt) {
  const auto* a = findAttr(n, name);
  return !a || a->i() == dflt;
}

bool stringAttrIs(const onnx::NodeProto& n, const std::string& name, const std::string& dflt) {
  const auto* a = findAttr(n, name);
  return !a || a->s() == dflt;
}

bool allOnes(const onnx::NodeProto& n, const std::string& name) {
  const auto* a = findAttr(n, name);
  return !a || std::all_of(a->ints().begin(), a->ints().end(), [](int64_t v) { return v == 1; });
}

std::string inputAt(const onnx::NodeProto& n, int i) { return i < n.input_size() ? n.input(i) : std::string(); }

// The node spelled at opset 17 with the same output shapes and types, or false (it goes opaque).
bool spellAt17(onnx::NodeProto& n, const Consts& consts) {
  const std::string& op = n.op_type();
  if (op == "Cast" || op == "CastLike") {
    removeAttr(n, "saturate");
    removeAttr(n, "round_mode");
    return true;
  }
  if (op.rfind("Reduce", 0) == 0) {
    const std::string axes = inputAt(n, 1);
    std::vector<int64_t> values;
    if (!axes.empty()) {
      auto it = consts.find(axes);
      if (it == consts.end()) return false;
      values = it->second;
    }
    const bool noop = !intAttrIs(n, "noop_with_empty_axes", 0);
    removeAttr(n, "noop_with_empty_axes");
    while (n.input_size() > 1) n.mutable_input()->RemoveLast();
    if (values.empty() && noop) {
      n.set_op_type("Identity");
      n.clear_attribute();
      return true;
    }
    if (!values.empty()) {
      auto* a = n.add_attribute();
      a->set_name("axes");
      a->set_type(onnx::AttributeProto::INTS);
      for (int64_t v : values) a->add_ints(v);
    }
    return true;
  }
  if (op == "Split") return !findAttr(n, "num_outputs");
  if (op == "ScatterElements" || op == "ScatterND") {
    if (const auto* a = findAttr(n, "reduction"); a && (a->s() == "max" || a->s() == "min")) removeAttr(n, "reduction");
    return true;
  }
  if (op == "Pad") return inputAt(n, 3).empty() && !(findAttr(n, "mode") && findAttr(n, "mode")->s() == "wrap");
  if (op == "Resize") {
    if (findAttr(n, "axes") || !stringAttrIs(n, "keep_aspect_ratio_policy", "stretch")) return false;
    const auto* ct = findAttr(n, "coordinate_transformation_mode");
    if (ct && ct->s() == "half_pixel_symmetric") return false;
    removeAttr(n, "antialias");  // filter width only: the output shape is the same
    removeAttr(n, "keep_aspect_ratio_policy");
    return true;
  }
  if (op == "AveragePool" || op == "LpPool") {
    // ceil_mode: opset 22 drops a last window that would start in the right padding; FlowBridge's rule has it.
    if (!allOnes(n, "dilations") || !intAttrIs(n, "ceil_mode", 0)) return false;
    removeAttr(n, "dilations");
    if (op == "LpPool") removeAttr(n, "ceil_mode");
    return true;
  }
  return false;
}

void viewGraph(onnx::GraphProto& g, int64_t opset, Consts consts, bool& opaque) {
  collectConsts(g, consts);
  for (auto& n : *g.mutable_node()) {
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) viewGraph(*a.mutable_g(), opset, consts, opaque);
      for (auto& sub : *a.mutable_graphs()) viewGraph(sub, opset, consts, opaque);
    }
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    const SchemaFact* fact = schemaFact(n.op_type(), opset);
    if (!fact) continue;
    auto plan = downForm(fact->op, fact->since);
    if (plan && plan->kind == DownForm::Kind::SameAs17 && fact->op != "Cast" && fact->op != "CastLike") continue;
    if (spellAt17(n, consts)) continue;
    n.set_domain(kOpaqueDomain);
    opaque = true;
  }
}

}  // namespace

void makeOpset17View(onnx::ModelProto& p) {
  int64_t opset = 0;
  for (auto& o : *p.mutable_opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") {
      opset = o.version();
      o.set_version(kLibonnxMaxOpset);
    }
  if (opset <= kLibonnxMaxOpset) return;
  p.set_ir_version(std::min<int64_t>(p.ir_version(), 8));
  bool opaque = false;
  viewGraph(*p.mutable_graph(), opset, {}, opaque);
  if (opaque) {
    auto* o = p.add_opset_import();
    o->set_domain(kOpaqueDomain);
    o->set_version(1);
  }
}

bool hasOpaqueNodes(const onnx::ModelProto& view) {
  for (const auto& o : view.opset_import())
    if (o.domain() == kOpaqueDomain) return true;
  return false;
}

void declareOpaqueOutputs(onnx::ModelProto& p, const ShapeFacts& f) {
  auto* g = p.mutable_graph();
  // Graph outputs declared without a shape take the known type in place (a value_info beside them would conflict).
  std::unordered_map<std::string, onnx::ValueInfoProto*> declared;
  for (auto& vi : *g->mutable_output()) {
    const auto& t = vi.type();
    const bool shapeless = !t.has_tensor_type() || !t.tensor_type().has_shape() || !t.tensor_type().has_elem_type();
    declared[vi.name()] = shapeless ? &vi : nullptr;
  }
  for (const auto& n : g->node()) {
    if (n.domain() != kOpaqueDomain) continue;
    for (const auto& o : n.output()) {
      auto d = declared.find(o);
      if (o.empty() || (d != declared.end() && !d->second)) continue;
      auto it = f.types.find(o);
      if (it == f.types.end() || !it->second.isTensor() || it->second.elemType == ir::DataType::Undefined) continue;
      onnx::ValueInfoProto* vi = d != declared.end() ? d->second : g->add_value_info();
      vi->set_name(o);
      onnxfmt::exportType(it->second, *vi->mutable_type());
      declared[o] = nullptr;
    }
  }
}

}  // namespace fb::schema::opsets_18_26
