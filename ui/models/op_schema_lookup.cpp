#include "ui/models/op_schema_lookup.h"

#include <onnx/defs/schema.h>

namespace fb::ui {

std::optional<OpSchemaFacts> lookupOpSchema(const QString& opType, const QString& domain, int opsetVersion) {
  try {
    const std::string d = domain == QLatin1String("ai.onnx") ? std::string() : domain.toStdString();
    const auto* schema = onnx::OpSchemaRegistry::Schema(opType.toStdString(), opsetVersion, d);
    if (!schema) return std::nullopt;
    OpSchemaFacts facts;
    facts.sinceVersion = schema->SinceVersion();
    QString doc = QString::fromUtf8(schema->doc() ? schema->doc() : "").simplified();
    const int stop = doc.indexOf(QLatin1String(". "));
    facts.doc = stop > 0 ? doc.left(stop + 1) : doc.left(300);
    return facts;
  } catch (const std::exception&) {
    return std::nullopt;  // libonnx throws on some malformed registry lookups; no facts then
  }
}

}  // namespace fb::ui
