#pragma once
// What ONNX's schema registry says about an op at the model's opset (libonnx 1.12).
#include <QList>
#include <QString>
#include <optional>

namespace fb::ui {

struct OpSchemaFacts {
  int sinceVersion = 0;
  QString doc;  // first sentence of the op's documentation
  // The formal inputs and outputs ("X", "W", "B"); the last may repeat when it is variadic (Concat's inputs).
  struct Formal {
    QString name;
    bool variadic = false;
  };
  QList<Formal> inputs, outputs;
};

// The schema's name for position `i` among `formals`: "W"; "inputs[1]" for the second value of a variadic; empty
// past the formals (and for an op without a schema), where only the position says something.
QString formalName(const QList<OpSchemaFacts::Formal>& formals, int i);

// nullopt for ops the registry does not know (custom domains, typos, ops newer than the opset). Versions after
// opset 17 come from FlowBridge's own table (schema/opsets_18_26/op_facts.h).
std::optional<OpSchemaFacts> lookupOpSchema(const QString& opType, const QString& domain, int opsetVersion);

}  // namespace fb::ui
