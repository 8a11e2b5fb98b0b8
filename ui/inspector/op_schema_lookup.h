#pragma once
// What ONNX's schema registry says about an op at the model's opset (libonnx 1.12).
#include <QString>
#include <optional>

namespace fb::ui {

struct OpSchemaFacts {
  int sinceVersion = 0;
  QString doc;  // first sentence of the op's documentation
};

// nullopt for ops the registry does not know (custom domains, typos, ops newer than the opset). Versions after
// opset 17 come from FlowBridge's own table (schema/opsets_18_26/op_facts.h).
std::optional<OpSchemaFacts> lookupOpSchema(const QString& opType, const QString& domain, int opsetVersion);

}  // namespace fb::ui
