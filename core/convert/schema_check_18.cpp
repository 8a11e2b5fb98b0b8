#include "convert/schema_check_18.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <set>

#include "convert/converter.h"
#include "convert/schema_facts_18.h"
#include "ir/graph.h"
#include "ir/packed_types.h"

namespace fb::convert {
namespace {

// Kinds of the attributes that versions after 17 added (the others keep their opset-17 kind, read from
// libonnx's schema of the same op).
const std::map<std::string, ir::AttrType>& newAttributeKinds() {
  using K = ir::AttrType;
  static const std::map<std::string, K> m{
      {"noop_with_empty_axes", K::Int}, {"num_outputs", K::Int}, {"antialias", K::Int}, {"axes", K::Ints},
      {"keep_aspect_ratio_policy", K::String}, {"ceil_mode", K::Int}, {"dilations", K::Ints}, {"saturate", K::Int},
      {"round_mode", K::String}, {"block_size", K::Int}, {"output_dtype", K::Int}, {"precision", K::Int},
      {"stash_type", K::Int}, {"num_groups", K::Int}, {"epsilon", K::Float}, {"approximate", K::String},
      {"alpha", K::Float}, {"align_corners", K::Int}, {"is_causal", K::Int}, {"kv_num_heads", K::Int},
      {"q_num_heads", K::Int}, {"qk_matmul_output_mode", K::Int}, {"scale", K::Float}, {"softcap", K::Float},
      {"softmax_precision", K::Int}, {"left_window_size", K::Int}, {"right_window_size", K::Int},
      {"interleaved", K::Int}, {"num_heads", K::Int}, {"rotary_embedding_dim", K::Int}, {"axis", K::Int},
      {"mode", K::String}, {"to", K::Int}, {"exclusive", K::Int}, {"reverse", K::Int}, {"pixel_format", K::String},
      {"pattern", K::String}, {"delimiter", K::String}, {"maxsplit", K::Int}, {"group", K::Int},
      {"offset_group", K::Int}, {"kernel_shape", K::Ints}, {"pads", K::Ints}, {"strides", K::Ints},
      {"inverse", K::Int}, {"onesided", K::Int}};
  return m;
}

std::optional<ir::AttrType> expectedKind(const std::string& op, const std::string& name) {
  if (const auto* s = onnx::OpSchemaRegistry::Schema(op, static_cast<int>(kLibonnxMaxOpset), ""))
    if (auto it = s->attributes().find(name); it != s->attributes().end())
      return static_cast<ir::AttrType>(it->second.type);
  auto it = newAttributeKinds().find(name);
  return it == newAttributeKinds().end() ? std::nullopt : std::optional(it->second);
}

// Versions whose only change is types, or whose changes left the element types of the opset-17 version alone.
bool typesKnownFrom17(const std::string& op, int64_t opset) {
  static const std::set<std::string> sameTypes{"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMean",
                                               "ReduceProd", "ReduceSumSquare", "ReduceMax", "ReduceMin", "Split",
                                               "Pad", "Resize", "ScatterElements", "ScatterND", "LpPool", "AveragePool"};
  for (const auto& f : allSchemaFacts18()) {
    if (f.op != op || f.since > opset) continue;
    const bool sweep = f.change == "types only" || f.change.rfind("adds ", 0) == 0;
    if (!sweep && !sameTypes.count(op)) return false;
  }
  return true;
}

// Element types a version after 17 adds to the opset-17 constraint: each sweep's types.
std::set<ir::DataType> addedTypes(const std::string& op, int64_t opset) {
  std::set<ir::DataType> out;
  for (const auto& f : allSchemaFacts18()) {
    if (f.op != op || f.since > opset) continue;
    if (f.change == "types only" || f.op == "Pad" || f.op == "Dropout")
      for (int t = 17; t <= 26; ++t)
        if (ir::minIrVersionFor(static_cast<ir::DataType>(t)) <= irVersionForOpset(f.since)) out.insert(static_cast<ir::DataType>(t));
    if (f.change.find("bfloat16") != std::string::npos) out.insert(ir::DataType::BFloat16);
    if (f.change.find("bool") != std::string::npos) out.insert(ir::DataType::Bool);
    if (f.change.find("string") != std::string::npos) out.insert(ir::DataType::String);
  }
  return out;
}

// Input 0's element types of ops new after 17 whose constraint is a plain list (from onnx's operator docs).
const std::map<std::string, std::set<ir::DataType>>& newOpFirstInputTypes() {
  using D = ir::DataType;
  static const std::set<D> floats{D::Float16, D::Float, D::Double, D::BFloat16};
  static const std::set<D> ints{D::Int8, D::Int16, D::Int32, D::Int64, D::UInt8, D::UInt16, D::UInt32, D::UInt64};
  static const std::map<std::string, std::set<D>> m{
      {"Mish", floats}, {"Gelu", floats}, {"Swish", floats}, {"GroupNormalization", floats},
      {"RMSNormalization", floats}, {"AffineGrid", floats}, {"RotaryEmbedding", {D::Float, D::Float16, D::BFloat16}},
      {"BitwiseAnd", ints}, {"BitwiseOr", ints}, {"BitwiseXor", ints}, {"BitwiseNot", ints}};
  return m;
}

std::optional<ir::DataType> typeOf(const ir::Value* v, const ElemTypes& types) {
  if (!v) return std::nullopt;
  if (auto it = types.find(v); it != types.end() && it->second != ir::DataType::Undefined) return it->second;
  if (v->initializer()) return v->initializer()->dtype;
  if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) return v->type.elemType;
  return std::nullopt;
}

size_t presentCount(const std::vector<ir::Value*>& vs) {
  size_t n = vs.size();
  while (n > 0 && vs[n - 1] == nullptr) --n;
  return n;
}

std::optional<std::string> factMismatch(const ir::Node& node, const SchemaFact& f, int64_t opset, const ElemTypes& types) {
  const std::string where = node.opType + "-" + std::to_string(f.since);
  const size_t nIn = presentCount(node.inputs()), nOut = presentCount(node.outputs());
  if (nIn < size_t(f.minInputs) || nIn > size_t(f.maxInputs))
    return where + " takes " + std::to_string(f.minInputs) + ".." + std::to_string(f.maxInputs) + " inputs, the node has " +
           std::to_string(nIn);
  if (nOut < size_t(f.minOutputs) || nOut > size_t(f.maxOutputs))
    return where + " has " + std::to_string(f.minOutputs) + ".." + std::to_string(f.maxOutputs) + " outputs, the node has " +
           std::to_string(nOut);
  for (const auto& a : node.attributes) {
    if (!attributeDefault(f, a.name)) return where + " has no attribute '" + a.name + "'";
    if (auto kind = expectedKind(node.opType, a.name); kind && *kind != a.type)
      return where + ": attribute '" + a.name + "' is " + std::string(ir::attrTypeName(a.type)) + ", the schema wants " +
             std::string(ir::attrTypeName(*kind));
  }
  if (auto it = newOpFirstInputTypes().find(node.opType); it != newOpFirstInputTypes().end()) {
    // Mish-18 lacks bfloat16, which Mish-22 adds.
    auto t = typeOf(node.input(0), types);
    if (t && (!it->second.count(*t) || (node.opType == "Mish" && f.since < 22 && *t == ir::DataType::BFloat16)))
      return where + " does not accept " + std::string(ir::dataTypeName(*t)) + " for input 0";
    return std::nullopt;
  }
  if (!typesKnownFrom17(node.opType, opset)) return std::nullopt;
  const auto* s17 = onnx::OpSchemaRegistry::Schema(node.opType, static_cast<int>(kLibonnxMaxOpset), "");
  if (!s17) return std::nullopt;
  const auto added = addedTypes(node.opType, opset);
  const auto& formals = s17->inputs();
  for (size_t i = 0; i < nIn && i < formals.size(); ++i) {
    auto t = typeOf(node.input(i), types);
    if (!t || formals[i].GetTypes().empty() || added.count(*t)) continue;
    bool ok = false;
    for (const auto* d : formals[i].GetTypes())
      if (*d == "tensor(" + std::string(ir::dataTypeName(*t)) + ")") ok = true;
    if (!ok) return where + " does not accept " + std::string(ir::dataTypeName(*t)) + " for input " + formals[i].GetName();
  }
  return std::nullopt;
}

void checkGraph(const ir::Graph& g, const ir::Model& m, CheckResult& r) {
  const int64_t opset = m.opsetVersion("");
  const int64_t ir = m.irVersion;
  auto report = [&](const ir::Node& n, const std::string& why) {
    r.ok = false;
    r.messages.push_back({n.name.empty() ? n.opType + "#" + std::to_string(n.id()) : n.name, why});
  };
  static const ElemTypes kNone;
  for (const auto& n : g.nodes()) {
    for (const ir::Graph* sub : n->subgraphs()) checkGraph(*sub, m, r);
    for (const ir::Value* v : n->inputs())
      if (auto t = typeOf(v, kNone); t && ir::minIrVersionFor(*t) > ir)
        report(*n, "'" + v->name() + "' is " + std::string(ir::dataTypeName(*t)) + ", which IR " + std::to_string(ir) + " lacks");
    if (!n->isDefaultDomain()) continue;
    if (auto why = structuralMismatch(*n, opset, kNone)) report(*n, *why);
  }
}

}  // namespace

std::optional<std::string> structuralMismatch(const ir::Node& node, int64_t opset, const ElemTypes& types) {
  if (const SchemaFact* f = schemaFact18(node.opType, opset)) return factMismatch(node, *f, opset, types);
  if (int64_t first = firstOpset18(node.opType); first > opset)
    return node.opType + " does not exist at opset " + std::to_string(opset) + " (first in opset " + std::to_string(first) + ")";
  const auto* s = schemaAt("", node.opType, std::min(opset, kLibonnxMaxOpset));
  if (!s) return node.opType + " is not an operator of opset " + std::to_string(opset);
  return schemaMismatch(node, *s, types);
}

CheckResult checkStructure(const ir::Model& m) {
  CheckResult r;
  const int64_t opset = m.opsetVersion("");
  if (m.irVersion < irVersionForOpset(opset))
    r.messages.push_back({"", "IR version " + std::to_string(m.irVersion) + " is older than opset " + std::to_string(opset) +
                                  " needs (" + std::to_string(irVersionForOpset(opset)) + ")"}),
        r.ok = false;
  checkGraph(m.graph(), m, r);
  for (const auto& f : m.functions)
    if (f.body) checkGraph(*f.body, m, r);
  return r;
}

}  // namespace fb::convert
