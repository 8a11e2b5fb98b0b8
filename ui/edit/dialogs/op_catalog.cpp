#include "ui/edit/dialogs/op_catalog.h"

#include <QObject>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "edit/edit_support.h"
#include "schema/onnx_schema.h"
#include "schema/opsets.h"
#include "schema/opsets_18_26/op_facts.h"
#include "ui/edit/dialogs/attribute_value_editor.h"

namespace fb::ui {

namespace {

std::string normalDomain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

// The type a default written as text suggests ("1" int, "0.5" float, "[]" ints, else string).
ir::AttrType typeOfDefault(const std::string& text) {
  if (text.empty()) return ir::AttrType::Undefined;
  if (text[0] == '[') return ir::AttrType::Ints;
  if (edit::parseInt(text)) return ir::AttrType::Int;
  if (edit::parseDouble(text)) return ir::AttrType::Float;
  return ir::AttrType::String;
}

SchemaAttribute fromLibonnx(const onnx::OpSchema& s, const onnx::OpSchema::Attribute& a) {
  SchemaAttribute out;
  out.name = a.name;
  out.type = static_cast<ir::AttrType>(a.type);
  out.required = a.required;
  out.doc = QString::fromStdString(a.description).simplified();
  if (auto d = schema::schemaDefault(s, a.name)) {
    out.defaultText = QString::fromStdString(d->valueToString(16));
    out.defaultValue = editableText(*d);
  }
  return out;
}

// Every op name per libonnx domain, once (get_all_schemas copies the registry).
const std::map<std::string, std::vector<std::string>>& libonnxOpNames() {
  static std::once_flag once;
  static std::map<std::string, std::vector<std::string>> names;
  std::call_once(once, [] {
    for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas()) names[s.domain()].push_back(s.Name());
  });
  return names;
}

}  // namespace

const SchemaAttribute* OpAttributes::find(const std::string& name) const {
  for (const auto& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

OpAttributes opAttributes(const std::string& domainIn, const std::string& op, int64_t opset) {
  OpAttributes out;
  const std::string domain = normalDomain(domainIn);
  try {
    const int64_t libonnxOpset = domain.empty() ? std::min(opset, schema::kLibonnxMaxOpset) : opset;
    const onnx::OpSchema* s = schema::schemaAt(domain, op, libonnxOpset);
    if (s && s->Deprecated()) s = nullptr;
    const schema::opsets_18_26::SchemaFact* fact =
        domain.empty() && opset > schema::kLibonnxMaxOpset ? schema::opsets_18_26::schemaFact(op, opset) : nullptr;
    if (fact) {
      out.known = true;
      out.sinceVersion = int(fact->since);
      for (const auto& f : fact->attributes) {
        SchemaAttribute a;
        a.name = f.name;
        a.defaultText = QString::fromStdString(f.defaultValue);
        a.defaultValue = QString(a.defaultText).remove('[').remove(']').remove(' ');
        a.required = f.defaultValue.empty();
        const onnx::OpSchema::Attribute* older = nullptr;
        if (s)
          if (auto it = s->attributes().find(f.name); it != s->attributes().end()) older = &it->second;
        if (older) {
          a.type = static_cast<ir::AttrType>(older->type);
          a.doc = QString::fromStdString(older->description).simplified();
          a.required = older->required;
        } else {
          a.type = typeOfDefault(f.defaultValue);
          a.doc = QObject::tr("New in %1-%2 (%3).")
                      .arg(QString::fromStdString(op))
                      .arg(fact->since)
                      .arg(QString::fromStdString(fact->change));
        }
        out.attributes.append(a);
      }
    } else if (domain.empty() && opset > schema::kLibonnxMaxOpset && schema::opsets_18_26::firstOpset(op) > opset) {
      return out;  // an op of a later opset
    } else if (s) {
      out.known = true;
      out.sinceVersion = s->SinceVersion();
      for (const auto& [name, a] : s->attributes()) out.attributes.append(fromLibonnx(*s, a));
    }
  } catch (const std::exception&) {
    return OpAttributes{};  // libonnx throws on some malformed lookups: nothing known then
  }
  std::sort(out.attributes.begin(), out.attributes.end(),
            [](const SchemaAttribute& a, const SchemaAttribute& b) { return a.name < b.name; });
  return out;
}

QStringList knownOps(const std::string& domainIn, int64_t opset) {
  const std::string domain = normalDomain(domainIn);
  QStringList out;
  if (opset <= 0) return out;
  const auto& names = libonnxOpNames();
  if (auto it = names.find(domain); it != names.end())
    for (const auto& op : it->second) {
      // The version the opset selects (libonnx's newest up to 17); ops that start after 17 come from the facts.
      const int64_t at = domain.empty() ? std::min(opset, schema::kLibonnxMaxOpset) : opset;
      const onnx::OpSchema* s = schema::schemaAt(domain, op, at);
      if (s && !s->Deprecated()) out.append(QString::fromStdString(op));
    }
  if (domain.empty() && opset > schema::kLibonnxMaxOpset)
    for (const auto& f : schema::opsets_18_26::allSchemaFacts())
      if (schema::opsets_18_26::firstOpset(f.op) != 0 && schema::opsets_18_26::firstOpset(f.op) <= opset)
        out.append(QString::fromStdString(f.op));
  out.sort();
  out.removeDuplicates();
  return out;
}

QString editableTypeName(ir::AttrType t) {
  switch (t) {
    case ir::AttrType::Int:
      return QStringLiteral("int");
    case ir::AttrType::Float:
      return QStringLiteral("float");
    case ir::AttrType::String:
      return QStringLiteral("string");
    case ir::AttrType::Ints:
      return QStringLiteral("ints");
    case ir::AttrType::Floats:
      return QStringLiteral("floats");
    case ir::AttrType::Strings:
      return QStringLiteral("strings");
    case ir::AttrType::Tensor:
      return QStringLiteral("tensor");
    default:
      return {};
  }
}

}  // namespace fb::ui
