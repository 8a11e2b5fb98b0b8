#include "edit/attribute_value.h"

#include <onnx/defs/schema.h>

#include "edit/edit_support.h"
#include "eval/io/npy_file.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"

namespace fb::edit {

std::optional<ir::AttrType> schemaAttrType(const ir::Model& m, const std::string& domain, const std::string& op,
                                           const std::string& name) {
  const std::string d = domain == "ai.onnx" ? std::string() : domain;
  const int64_t opset = m.opsetVersion(d);
  const onnx::OpSchema* s = schema::schemaAt(d, op, opset);
  auto libonnxType = [&]() -> std::optional<ir::AttrType> {
    auto it = s->attributes().find(name);
    if (it == s->attributes().end()) return std::nullopt;
    return static_cast<ir::AttrType>(it->second.type);
  };
  // Opsets 18-26: FlowBridge's own facts say which attributes a version has (Cast-19's saturate); libonnx's newest
  // version of the same attribute gives its type, else the default's look does (Undefined: typed by the text).
  if (d.empty() && opset > schema::kLibonnxMaxOpset)
    if (const auto* fact = schema::opsets_18_26::schemaFact(op, opset)) {
      const auto def = schema::opsets_18_26::attributeDefault(*fact, name);
      if (!def) return std::nullopt;
      if (s)
        if (auto t = libonnxType()) return t;
      if (def->empty() || (*def)[0] == '[') return ir::AttrType::Undefined;
      if (parseInt(*def)) return ir::AttrType::Int;
      if (parseDouble(*def)) return ir::AttrType::Float;
      return ir::AttrType::String;
    }
  if (!s) return ir::AttrType::Undefined;
  return libonnxType();
}

namespace {

std::optional<ir::AttrType> typeFromName(const std::string& t) {
  if (t == "int") return ir::AttrType::Int;
  if (t == "float") return ir::AttrType::Float;
  if (t == "string") return ir::AttrType::String;
  if (t == "ints") return ir::AttrType::Ints;
  if (t == "floats") return ir::AttrType::Floats;
  if (t == "strings") return ir::AttrType::Strings;
  if (t == "tensor") return ir::AttrType::Tensor;
  return std::nullopt;
}

ir::AttrType guess(const std::string& text) {
  if (!text.empty() && text[0] == '@') return ir::AttrType::Tensor;
  if (parseInt(text)) return ir::AttrType::Int;
  if (parseDouble(text)) return ir::AttrType::Float;
  if (text.find(',') != std::string::npos || (!text.empty() && text[0] == '[')) {
    if (parseInts(text)) return ir::AttrType::Ints;
    if (parseDoubles(text)) return ir::AttrType::Floats;
  }
  return ir::AttrType::String;
}

}  // namespace

std::optional<ir::Attribute> parseAttribute(const std::string& name, const std::string& text,
                                            const std::string& typeName, ir::AttrType known, std::string& why) {
  ir::AttrType type = known;
  if (!typeName.empty()) {
    auto t = typeFromName(typeName);
    if (!t) {
      why = "unknown attribute type " + q(typeName) + " (int, float, string, ints, floats, strings, tensor)";
      return std::nullopt;
    }
    if (known != ir::AttrType::Undefined && *t != known) {
      why = "attribute " + q(name) + " is " + std::string(ir::attrTypeName(known)) + ", not " + typeName;
      return std::nullopt;
    }
    type = *t;
  }
  if (type == ir::AttrType::Undefined) type = guess(text);
  const std::string kind(ir::attrTypeName(type));
  auto bad = [&]() -> std::optional<ir::Attribute> {
    why = "attribute " + q(name) + " is " + kind + ": " + q(text) + " is not one";
    return std::nullopt;
  };
  switch (type) {
    case ir::AttrType::Int: {
      auto v = parseInt(text);
      return v ? std::optional(ir::Attribute::makeInt(name, *v)) : bad();
    }
    case ir::AttrType::Float: {
      auto v = parseDouble(text);
      return v ? std::optional(ir::Attribute::makeFloat(name, float(*v))) : bad();
    }
    case ir::AttrType::String:
      return ir::Attribute::makeString(name, text);
    case ir::AttrType::Ints: {
      auto v = parseInts(text);
      return v ? std::optional(ir::Attribute::makeInts(name, *v)) : bad();
    }
    case ir::AttrType::Floats: {
      auto v = parseDoubles(text);
      if (!v) return bad();
      return ir::Attribute::makeFloats(name, std::vector<float>(v->begin(), v->end()));
    }
    case ir::AttrType::Strings: {
      ir::Attribute a;
      a.name = name;
      a.type = ir::AttrType::Strings;
      for (auto& s : splitList(text)) a.strings.push_back(s);
      return a;
    }
    case ir::AttrType::Tensor: {
      const std::string path = !text.empty() && text[0] == '@' ? text.substr(1) : text;
      try {
        return ir::Attribute::makeTensor(name, eval::readNpyFile(path).toModel(""));
      } catch (const std::exception& e) {
        why = "attribute " + q(name) + ": " + path + ": " + e.what();
        return std::nullopt;
      }
    }
    default:
      why = "attribute " + q(name) + " is " + kind + ", which edits do not set";
      return std::nullopt;
  }
}

}  // namespace fb::edit
