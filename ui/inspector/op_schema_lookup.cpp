#include "ui/inspector/op_schema_lookup.h"

#include <onnx/defs/schema.h>

#include "schema/opsets_18_26/op_facts.h"
#include "schema/opsets_18_26/type_constraints.h"

#include <algorithm>

namespace fb::ui {

namespace {

QList<OpSchemaFacts::Formal> formalsOf(const std::vector<onnx::OpSchema::FormalParameter>& formals) {
  QList<OpSchemaFacts::Formal> out;
  for (const auto& f : formals)
    out.append({QString::fromStdString(f.GetName()), f.GetOption() == onnx::OpSchema::Variadic});
  return out;
}

QList<OpSchemaFacts::Formal> formalsOf(const std::vector<schema::opsets_18_26::TypeSignature::Formal>& formals) {
  QList<OpSchemaFacts::Formal> out;
  for (const auto& f : formals) out.append({QString::fromStdString(f.name), f.variadic});
  return out;
}

}  // namespace

QString formalName(const QList<OpSchemaFacts::Formal>& formals, int i) {
  if (formals.isEmpty() || i < 0) return {};
  const int last = int(formals.size()) - 1;
  if (formals[last].variadic && i >= last) return QStringLiteral("%1[%2]").arg(formals[last].name).arg(i - last);
  return i <= last ? formals[i].name : QString();
}

std::optional<OpSchemaFacts> lookupOpSchema(const QString& opType, const QString& domain, int opsetVersion) {
  try {
    const std::string d = domain == QLatin1String("ai.onnx") ? std::string() : domain.toStdString();
    // Versions after 17 come from FlowBridge's own table; libonnx would name the opset-17 version.
    const schema::opsets_18_26::SchemaFact* newer =
        d.empty() ? schema::opsets_18_26::schemaFact(opType.toStdString(), opsetVersion) : nullptr;
    if (d.empty() && opsetVersion > schema::kLibonnxMaxOpset && !newer) {
      const int64_t first = schema::opsets_18_26::firstOpset(opType.toStdString());
      if (first > opsetVersion) return std::nullopt;  // not an op of this opset yet
    }
    const int libonnxOpset = std::min<int>(opsetVersion, int(schema::kLibonnxMaxOpset));
    const auto* schema = onnx::OpSchemaRegistry::Schema(opType.toStdString(), libonnxOpset, d);
    if (newer) {
      OpSchemaFacts facts;
      facts.sinceVersion = int(newer->since);
      facts.doc = QString::fromStdString(opType.toStdString() + "-" + std::to_string(newer->since) + ": " +
                                         newer->change + ".");
      if (const auto* signature = schema::opsets_18_26::typeSignature(opType.toStdString(), newer->since)) {
        facts.inputs = formalsOf(signature->inputs);
        facts.outputs = formalsOf(signature->outputs);
      } else if (schema) {  // formals unchanged since opset 17
        facts.inputs = formalsOf(schema->inputs());
        facts.outputs = formalsOf(schema->outputs());
      }
      if (schema)
        facts.doc +=
            " " +
            QString::fromUtf8(schema->doc() ? schema->doc() : "").simplified().section(QLatin1String(". "), 0, 0) + ".";
      return facts;
    }
    if (!schema) return std::nullopt;
    OpSchemaFacts facts;
    facts.sinceVersion = schema->SinceVersion();
    facts.inputs = formalsOf(schema->inputs());
    facts.outputs = formalsOf(schema->outputs());
    QString doc = QString::fromUtf8(schema->doc() ? schema->doc() : "").simplified();
    const int stop = doc.indexOf(QLatin1String(". "));
    facts.doc = stop > 0 ? doc.left(stop + 1) : doc.left(300);
    return facts;
  } catch (const std::exception&) {
    return std::nullopt;  // libonnx throws on some malformed registry lookups; no facts then
  }
}

}  // namespace fb::ui
