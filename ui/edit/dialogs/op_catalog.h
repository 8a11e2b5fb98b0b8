#pragma once
// What the edit dialogs offer to choose from: the ops an opset of a domain has, and an op's attributes with their
// types, defaults and documentation. libonnx 1.12 answers up to opset 17; for the default domain at opsets 18-26
// FlowBridge's own facts (schema/opsets_18_26/op_facts.h) name the attributes and defaults, and libonnx's newest
// version of the same attribute gives its type and documentation (a type the facts leave open is guessed from
// the default).
#include <QList>
#include <QString>
#include <QStringList>
#include <string>

#include "ir/attribute.h"

namespace fb::ui {

struct SchemaAttribute {
  std::string name;
  ir::AttrType type = ir::AttrType::Undefined;  // Undefined: nothing says
  QString defaultText;                          // as shown ("\"NOTSET\""); empty: required or no default
  QString defaultValue;                         // as typed into an editor ("NOTSET", "1,1")
  bool required = false;
  QString doc;  // one paragraph
};

struct OpAttributes {
  bool known = false;  // whether any schema source knows the op at this opset
  int sinceVersion = 0;
  QList<SchemaAttribute> attributes;  // by name
  const SchemaAttribute* find(const std::string& name) const;
};

// "" and "ai.onnx" are the default domain.
OpAttributes opAttributes(const std::string& domain, const std::string& op, int64_t opset);

// The ops `domain` has at `opset` (deprecated ones left out), sorted; empty for a domain no source knows.
QStringList knownOps(const std::string& domain, int64_t opset);

// Type names as set-attr's type= takes them ("int", "floats", "tensor"); empty for kinds edits do not set.
QString editableTypeName(ir::AttrType t);

}  // namespace fb::ui
