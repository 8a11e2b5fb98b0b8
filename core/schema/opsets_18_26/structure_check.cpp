#include "ir/node_label.h"
#include "schema/opsets_18_26/structure_check.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <set>

#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"
#include "schema/opsets_18_26/type_constraints.h"
#include "schema/opsets_18_26/static_shapes.h"
#include "ir/graph.h"
#include "ir/packed_types.h"

namespace fb::schema::opsets_18_26 {
namespace {

// Kinds of the attributes that versions after 17 added (the others keep their opset-17 kind, read from
// libonnx's schema of the same op).
const std::map<std::string, ir::AttrType>& newAttributeKinds() {
  using K = ir::AttrType;
  static const std::map<std::string, K> m{{"noop_with_empty_axes", K::Int},
                                          {"num_outputs", K::Int},
                                          {"antialias", K::Int},
                                          {"axes", K::Ints},
                                          {"keep_aspect_ratio_policy", K::String},
                                          {"ceil_mode", K::Int},
                                          {"dilations", K::Ints},
                                          {"saturate", K::Int},
                                          {"round_mode", K::String},
                                          {"block_size", K::Int},
                                          {"output_dtype", K::Int},
                                          {"precision", K::Int},
                                          {"stash_type", K::Int},
                                          {"num_groups", K::Int},
                                          {"epsilon", K::Float},
                                          {"approximate", K::String},
                                          {"alpha", K::Float},
                                          {"align_corners", K::Int},
                                          {"is_causal", K::Int},
                                          {"kv_num_heads", K::Int},
                                          {"q_num_heads", K::Int},
                                          {"qk_matmul_output_mode", K::Int},
                                          {"scale", K::Float},
                                          {"softcap", K::Float},
                                          {"softmax_precision", K::Int},
                                          {"left_window_size", K::Int},
                                          {"right_window_size", K::Int},
                                          {"interleaved", K::Int},
                                          {"num_heads", K::Int},
                                          {"rotary_embedding_dim", K::Int},
                                          {"axis", K::Int},
                                          {"mode", K::String},
                                          {"to", K::Int},
                                          {"exclusive", K::Int},
                                          {"reverse", K::Int},
                                          {"pixel_format", K::String},
                                          {"pattern", K::String},
                                          {"delimiter", K::String},
                                          {"maxsplit", K::Int},
                                          {"group", K::Int},
                                          {"offset_group", K::Int},
                                          {"kernel_shape", K::Ints},
                                          {"pads", K::Ints},
                                          {"strides", K::Ints},
                                          {"inverse", K::Int},
                                          {"onesided", K::Int}};
  return m;
}

std::optional<ir::AttrType> expectedKind(const std::string& op, const std::string& name) {
  if (const auto* s = onnx::OpSchemaRegistry::Schema(op, static_cast<int>(kLibonnxMaxOpset), ""))
    if (auto it = s->attributes().find(name); it != s->attributes().end())
      return static_cast<ir::AttrType>(it->second.type);
  auto it = newAttributeKinds().find(name);
  return it == newAttributeKinds().end() ? std::nullopt : std::optional(it->second);
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

std::string typeName(ir::DataType t) { return std::string(ir::dataTypeName(t)); }

// Element types against the version's type constraints (opsets_18_26/type_constraints): each known input and output
// type within its variable's types, and the positions that share a variable of one type.
std::optional<std::string> typeMismatch(const ir::Node& node, const SchemaFact& f, const ElemTypes& types) {
  const TypeSignature* sig = typeSignature(f.op, f.since);
  if (!sig) return std::nullopt;
  const std::string where = node.opType + "-" + std::to_string(f.since);
  std::map<std::string, std::pair<ir::DataType, std::string>> bound;
  auto check = [&](const ir::Value* v, const TypeSignature::Formal* formal, const char* kind,
                   size_t i) -> std::optional<std::string> {
    if (!v || !formal) return std::nullopt;
    auto t = typeOf(v, types);
    if (!t) return std::nullopt;
    const std::string what = std::string(kind) + " " + std::to_string(i) + " (" + formal->name + ")";
    auto allowed = sig->allowed.find(formal->typeVar);
    if (allowed != sig->allowed.end() && !allowed->second.empty() && !allowed->second.count(*t))
      return where + " does not accept " + typeName(*t) + " for " + what + " ('" + v->name() + "'; " + formal->typeVar +
             " is one of " + std::to_string(allowed->second.size()) + " types)";
    if (formal->heterogeneous) return std::nullopt;
    auto [it, fresh] = bound.emplace(formal->typeVar, std::make_pair(*t, what));
    if (!fresh && it->second.first != *t)
      return where + ": " + what + " is " + typeName(*t) + " but " + it->second.second + " is " +
             typeName(it->second.first) + " (both " + formal->typeVar + ")";
    return std::nullopt;
  };
  for (size_t i = 0; i < node.inputs().size(); ++i)
    if (auto why = check(node.input(i), sig->inputAt(i), "input", i)) return why;
  for (size_t i = 0; i < node.outputs().size(); ++i)
    if (auto why = check(node.output(i), sig->outputAt(i), "output", i)) return why;
  return std::nullopt;
}

std::optional<std::string> factMismatch(const ir::Node& node, const SchemaFact& f, const ElemTypes& types) {
  const std::string where = node.opType + "-" + std::to_string(f.since);
  const size_t nIn = presentCount(node.inputs()), nOut = presentCount(node.outputs());
  if (nIn < size_t(f.minInputs) || nIn > size_t(f.maxInputs))
    return where + " takes " + std::to_string(f.minInputs) + ".." + std::to_string(f.maxInputs) +
           " inputs, the node has " + std::to_string(nIn);
  if (nOut < size_t(f.minOutputs) || nOut > size_t(f.maxOutputs))
    return where + " has " + std::to_string(f.minOutputs) + ".." + std::to_string(f.maxOutputs) +
           " outputs, the node has " + std::to_string(nOut);
  for (const auto& a : node.attributes) {
    if (!attributeDefault(f, a.name)) return where + " has no attribute '" + a.name + "'";
    if (auto kind = expectedKind(node.opType, a.name); kind && *kind != a.type)
      return where + ": attribute '" + a.name + "' is " + std::string(ir::attrTypeName(a.type)) +
             ", the schema wants " + std::string(ir::attrTypeName(*kind));
  }
  return typeMismatch(node, f, types);
}

// Output element types of a node checked against FlowBridge's table: bound type variables, fixed types, and
// the outputs whose type an attribute or another input decides (Cast's `to`, Q/DQ, bool results).
void propagateTypes18(const ir::Node& n, const SchemaFact& f, ElemTypes& types) {
  const TypeSignature* sig = typeSignature(f.op, f.since);
  std::map<std::string, ir::DataType> bound;
  if (sig)
    for (size_t i = 0; i < n.inputs().size(); ++i)
      if (const auto* formal = sig->inputAt(i); formal && !formal->heterogeneous)
        if (auto t = typeOf(n.input(i), types)) bound.emplace(formal->typeVar, *t);
  auto known = [&](const ir::Value* v) { return typeOf(v, types).value_or(ir::DataType::Undefined); };
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    const ir::Value* o = n.output(i);
    if (!o || types.count(o)) continue;
    ir::DataType t = ir::DataType::Undefined;
    const auto* formal = sig ? sig->outputAt(i) : nullptr;
    if (formal && formal->heterogeneous) continue;  // If/Loop/Scan values: their bodies decide
    if (formal) {
      if (auto it = bound.find(formal->typeVar); it != bound.end())
        t = it->second;
      else if (auto a = sig->allowed.find(formal->typeVar); a != sig->allowed.end() && a->second.size() == 1)
        t = *a->second.begin();
    }
    // Outputs whose type an attribute or another input decides; anything else stays unknown (unchecked).
    static const std::set<std::string> decided{"Cast", "CastLike", "BitCast", "QuantizeLinear", "DequantizeLinear"};
    if (t == ir::DataType::Undefined && decided.count(n.opType)) t = outputElemType(n, i, known);
    if (t != ir::DataType::Undefined) types[o] = t;
  }
}

void checkGraph(const ir::Graph& g, const ir::Model& m, CheckResult& r, ElemTypes& types) {
  const int64_t opset = m.opsetVersion("");
  const int64_t ir = m.irVersion;
  auto report = [&](const ir::Node& n, const std::string& why) {
    r.ok = false;
    r.messages.push_back({ir::nodeLabel(n), why});
  };
  static const ElemTypes kNone;
  for (const auto& n : g.nodes()) {
    for (const ir::Graph* sub : n->subgraphs()) checkGraph(*sub, m, r, types);
    for (const ir::Value* v : n->inputs())
      if (auto t = typeOf(v, kNone); t && ir::minIrVersionFor(*t) > ir)
        report(*n, "'" + v->name() + "' is " + std::string(ir::dataTypeName(*t)) + ", which IR " + std::to_string(ir) +
                       " lacks");
    if (!n->isDefaultDomain()) continue;
    if (auto why = structuralMismatch(*n, opset, types)) report(*n, *why);
    // Types flow on, so that values without a declared type are checked too.
    if (const SchemaFact* f = schemaFact(n->opType, opset))
      propagateTypes18(*n, *f, types);
    else
      propagateElemTypes(*n, schemaAt("", n->opType, std::min(opset, kLibonnxMaxOpset)), types);
  }
}

}  // namespace

std::optional<std::string> structuralMismatch(const ir::Node& node, int64_t opset, const ElemTypes& types) {
  if (const SchemaFact* f = schemaFact(node.opType, opset)) return factMismatch(node, *f, types);
  if (int64_t first = firstOpset(node.opType); first > opset)
    return node.opType + " does not exist at opset " + std::to_string(opset) + " (first in opset " +
           std::to_string(first) + ")";
  const auto* s = schemaAt("", node.opType, std::min(opset, kLibonnxMaxOpset));
  if (!s) return node.opType + " is not an operator of opset " + std::to_string(opset);
  return schemaMismatch(node, *s, types);
}

CheckResult checkStructure(const ir::Model& m) {
  CheckResult r;
  const int64_t opset = m.opsetVersion("");
  if (m.irVersion < irVersionForOpset(opset))
    r.messages.push_back({"", "IR version " + std::to_string(m.irVersion) + " is older than opset " +
                                  std::to_string(opset) + " needs (" + std::to_string(irVersionForOpset(opset)) + ")"}),
        r.ok = false;
  ElemTypes types;
  checkGraph(m.graph(), m, r, types);
  for (const auto& f : m.functions)
    if (f.body) checkGraph(*f.body, m, r, types);
  return r;
}

}  // namespace fb::schema::opsets_18_26
