#include "ui/inspector/op_schema_lookup.h"

#include <onnx/defs/schema.h>

#include "schema/opsets_18_26/op_facts.h"

#include <algorithm>

namespace fb::ui {

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
      if (schema)
        facts.doc +=
            " " +
            QString::fromUtf8(schema->doc() ? schema->doc() : "").simplified().section(QLatin1String(". "), 0, 0) + ".";
      return facts;
    }
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
