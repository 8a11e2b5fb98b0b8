#include "schema/onnx_schema.h"

#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <unordered_map>

#include "schema/opsets_18_26/op_facts.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/value.h"

namespace fb::schema {
namespace {

std::string schemaDomain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

// libonnx interns type strings ("tensor(float)"); look each element type up once.
onnx::DataType interned(ir::DataType t) {
  static std::array<onnx::DataType, 32> cache{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 1; i <= 16; ++i) {
      try {
        cache[i] =
            onnx::Utils::DataTypeUtils::ToType("tensor(" + onnx::Utils::DataTypeUtils::ToDataTypeString(i) + ")");
      } catch (const std::exception&) {
        cache[i] = nullptr;
      }
    }
  });
  int i = static_cast<int>(t);
  return i > 0 && i < static_cast<int>(cache.size()) ? cache[i] : nullptr;
}

ir::DataType fromInterned(onnx::DataType d) {
  for (int i = 1; i <= 16; ++i)
    if (interned(static_cast<ir::DataType>(i)) == d) return static_cast<ir::DataType>(i);
  return ir::DataType::Undefined;
}

std::optional<ir::DataType> knownType(const ir::Value* v, const ElemTypes& types) {
  if (!v) return std::nullopt;
  auto it = types.find(v);
  if (it != types.end() && it->second != ir::DataType::Undefined) return it->second;
  if (v->type.isTensor() && v->type.elemType != ir::DataType::Undefined) return v->type.elemType;
  return std::nullopt;
}

size_t presentCount(const std::vector<ir::Value*>& vs) {
  size_t n = vs.size();
  while (n > 0 && vs[n - 1] == nullptr) --n;  // trailing omitted optionals do not count
  return n;
}

// Index of the formal parameter that actual position `i` binds to (the last one when it is variadic).
size_t formalIndex(size_t i, size_t formals) { return formals == 0 ? 0 : std::min(i, formals - 1); }

}  // namespace

namespace {
struct SchemaKey {
  std::string domain, opType;
  int64_t opset = 0;
  bool operator==(const SchemaKey&) const = default;
};
struct SchemaKeyHash {
  size_t operator()(const SchemaKey& k) const {
    return std::hash<std::string>()(k.opType) ^ (std::hash<std::string>()(k.domain) << 1) ^
           static_cast<size_t>(k.opset) * 0x9e3779b97f4a7c15ull;
  }
};
}  // namespace

const onnx::OpSchema* schemaAt(const std::string& domain, const std::string& opType, int64_t opset) {
  // libonnx's lookup hashes the name several times per call, and a conversion asks for the same few schemas for
  // every node (source and target version, attributes, element types). Nothing registers schemas at run time.
  thread_local std::unordered_map<SchemaKey, const onnx::OpSchema*, SchemaKeyHash> known;
  thread_local SchemaKey probe;
  probe.domain = domain;  // assignments reuse the probe's capacity
  probe.opType = opType;
  probe.opset = opset;
  if (auto it = known.find(probe); it != known.end()) return it->second;
  const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(opType, static_cast<int>(opset), schemaDomain(domain));
  known.emplace(probe, s);
  return s;
}

int64_t firstOpsetOf(const std::string& domain, const std::string& opType) {
  const auto* s = onnx::OpSchemaRegistry::Schema(opType, 1, schemaDomain(domain));
  if (s) return s->since_version();
  // Walk up: the registry returns the highest version <= the bound.
  for (int v = 2; v <= 17; ++v)
    if ((s = onnx::OpSchemaRegistry::Schema(opType, v, schemaDomain(domain)))) return s->since_version();
  // Ops new after opset 17: FlowBridge's own table (libonnx 1.12 stops at 17).
  return schemaDomain(domain).empty() ? opsets_18_26::firstOpset(opType) : 0;
}

int64_t schemaVersionAt(const std::string& domain, const std::string& opType, int64_t opset) {
  if (schemaDomain(domain).empty())
    if (const opsets_18_26::SchemaFact* f = opsets_18_26::schemaFact(opType, opset))
      return f->since;  // versions after 17: own table
  const auto* s = schemaAt(domain, opType, opset);
  return s ? s->since_version() : 0;
}

std::vector<std::string> unknownAttributes(const ir::Node& node, const onnx::OpSchema& schema) {
  std::vector<std::string> out;
  for (const auto& a : node.attributes)
    if (!schema.attributes().count(a.name)) out.push_back(a.name);
  return out;
}

std::optional<ir::Attribute> schemaDefault(const onnx::OpSchema& schema, const std::string& name) {
  auto it = schema.attributes().find(name);
  if (it == schema.attributes().end()) return std::nullopt;
  const auto& d = it->second.default_value;
  if (!d.has_type()) return std::nullopt;
  switch (d.type()) {
    case onnx::AttributeProto::INT:
      return ir::Attribute::makeInt(name, d.i());
    case onnx::AttributeProto::FLOAT:
      return ir::Attribute::makeFloat(name, d.f());
    case onnx::AttributeProto::STRING:
      return ir::Attribute::makeString(name, d.s());
    case onnx::AttributeProto::INTS:
      return ir::Attribute::makeInts(name, {d.ints().begin(), d.ints().end()});
    case onnx::AttributeProto::FLOATS:
      return ir::Attribute::makeFloats(name, {d.floats().begin(), d.floats().end()});
    case onnx::AttributeProto::STRINGS: {
      ir::Attribute a;
      a.name = name;
      a.type = ir::AttrType::Strings;
      a.strings.assign(d.strings().begin(), d.strings().end());
      return a;
    }
    default:
      return std::nullopt;
  }
}

bool sameValue(const ir::Attribute& a, const ir::Attribute& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case ir::AttrType::Int:
      return a.i == b.i;
    case ir::AttrType::Float:
      return a.f == b.f;
    case ir::AttrType::String:
      return a.s == b.s;
    case ir::AttrType::Ints:
      return a.ints == b.ints;
    case ir::AttrType::Floats:
      return a.floats == b.floats;
    case ir::AttrType::Strings:
      return a.strings == b.strings;
    default:
      return false;
  }
}

std::optional<std::string> schemaMismatch(const ir::Node& node, const onnx::OpSchema& schema, const ElemTypes& types,
                                          const std::vector<std::string>& ignored) {
  const std::string where = node.opType + "-" + std::to_string(schema.since_version());
  size_t nIn = presentCount(node.inputs());
  if (nIn < static_cast<size_t>(schema.min_input()) || nIn > static_cast<size_t>(schema.max_input()))
    return where + " takes " + std::to_string(schema.min_input()) + ".." + std::to_string(schema.max_input()) +
           " inputs, the node has " + std::to_string(nIn);
  size_t nOut = presentCount(node.outputs());
  if (nOut < static_cast<size_t>(schema.min_output()) || nOut > static_cast<size_t>(schema.max_output()))
    return where + " has " + std::to_string(schema.min_output()) + ".." + std::to_string(schema.max_output()) +
           " outputs, the node has " + std::to_string(nOut);
  const auto& formals = schema.inputs();
  for (size_t i = 0; i < nIn && !formals.empty(); ++i) {
    const auto& f = formals[formalIndex(i, formals.size())];
    const ir::Value* v = node.input(i);
    if (!v) {
      if (f.GetOption() == onnx::OpSchema::Single)
        return where + " requires input " + std::to_string(i) + " (" + f.GetName() + ")";
      continue;
    }
    auto t = knownType(v, types);
    if (!t) continue;
    auto d = interned(*t);
    if (d && !f.GetTypes().empty() && !f.GetTypes().count(d))
      return where + " does not accept " + std::string(ir::dataTypeName(*t)) + " for input " + f.GetName();
  }
  for (const auto& name : unknownAttributes(node, schema))
    if (std::find(ignored.begin(), ignored.end(), name) == ignored.end())
      return where + " has no attribute '" + name + "'";
  for (const auto& [name, attr] : schema.attributes())
    if (attr.required && !node.hasAttr(name)) return where + " requires attribute '" + name + "'";
  return std::nullopt;
}

void propagateElemTypes(const ir::Node& node, const onnx::OpSchema* schema, ElemTypes& types) {
  auto set = [&](size_t i, ir::DataType t) {
    if (auto* v = node.output(i); v && t != ir::DataType::Undefined && !types.count(v)) types[v] = t;
  };
  if (node.opType == "Cast" && node.isDefaultDomain()) {
    set(0, static_cast<ir::DataType>(node.attrInt("to", 0)));
    return;
  }
  if (node.opType == "Constant" && node.isDefaultDomain()) {
    if (const auto* a = node.attr("value"); a && !a->tensors.empty())
      set(0, a->tensors[0].dtype);
    else if (node.hasAttr("value_float") || node.hasAttr("value_floats"))
      set(0, ir::DataType::Float);
    else if (node.hasAttr("value_int") || node.hasAttr("value_ints"))
      set(0, ir::DataType::Int64);
    return;
  }
  if (!schema) return;
  // Bind each type constraint to the first input that carries it.
  std::unordered_map<std::string, ir::DataType> bound;
  const auto& formals = schema->inputs();
  // A heterogeneous variadic parameter (Loop's carried values, Scan's states) gives each position its own
  // type: binding its constraint to the first one would type every other position alike.
  auto heterogeneous = [](const onnx::OpSchema::FormalParameter& f) {
    return f.GetOption() == onnx::OpSchema::Variadic && !f.GetIsHomogeneous();
  };
  for (size_t i = 0; i < node.inputs().size() && !formals.empty(); ++i) {
    auto t = knownType(node.input(i), types);
    const auto& f = formals[formalIndex(i, formals.size())];
    if (t && !heterogeneous(f)) bound.emplace(f.GetTypeStr(), *t);
  }
  const auto& outs = schema->outputs();
  for (size_t i = 0; i < node.outputs().size() && !outs.empty(); ++i) {
    const auto& f = outs[formalIndex(i, outs.size())];
    if (heterogeneous(f)) continue;
    if (auto it = bound.find(f.GetTypeStr()); it != bound.end())
      set(i, it->second);
    else if (f.GetTypes().size() == 1)
      set(i, fromInterned(*f.GetTypes().begin()));
  }
}

}  // namespace fb::schema
