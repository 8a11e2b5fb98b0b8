#pragma once
// An attribute value typed from text: the type given, else the one the node's attribute has, else the one the
// op's schema declares, else what the text looks like. "1", "0.5", "relu", "1,2,3", "0.5,1.5", "@file.npy" (a
// tensor).
#include <optional>
#include <string>

#include "ir/attribute.h"
#include "ir/model.h"

namespace fb::edit {

// The type the schema of (domain, op) at the model's opset declares for attribute `name`: Undefined when the
// schema is unknown; nullopt when the schema is known and has no such attribute. Above opset 17 FlowBridge's own
// facts (schema/opsets_18_26) say which attributes the op's version has.
std::optional<ir::AttrType> schemaAttrType(const ir::Model& m, const std::string& domain, const std::string& op,
                                           const std::string& name);

// `typeName` may be empty (then `known`, then a guess). Returns nullopt with the reason in `why`. Reads the .npy
// file of a tensor value.
std::optional<ir::Attribute> parseAttribute(const std::string& name, const std::string& text,
                                            const std::string& typeName, ir::AttrType known, std::string& why);

}  // namespace fb::edit
