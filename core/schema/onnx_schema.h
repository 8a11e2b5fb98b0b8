#pragma once
// Questions about libonnx's operator schemas that the ONNX->ONNX retargeting asks for every node:
// which version of an op an opset means, and whether a node as it stands is valid against that version.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace onnx {
class OpSchema;
}

namespace fb::schema {

// Element types known for values (from value_info, initializers, graph inputs, or propagated).
using ElemTypes = std::unordered_map<const ir::Value*, ir::DataType>;

// The schema an opset selects for an op (highest since_version <= opset), or nullptr when the op does not
// exist there.
const onnx::OpSchema* schemaAt(const std::string& domain, const std::string& opType, int64_t opset);
// The first opset that has the op at all (0 when libonnx does not know it).
int64_t firstOpsetOf(const std::string& domain, const std::string& opType);
// since_version of the schema that `opset` selects, 0 when none.
int64_t schemaVersionAt(const std::string& domain, const std::string& opType, int64_t opset);

// Why `node` is not valid against `schema` as it stands (input/output counts, attributes, element types),
// or nullopt when it is. Types unknown in `types` are not checked.
// Attributes named in `ignored` are treated as absent.
std::optional<std::string> schemaMismatch(const ir::Node& node, const onnx::OpSchema& schema, const ElemTypes& types,
                                          const std::vector<std::string>& ignored = {});

// Attributes the node carries that `schema` does not define.
std::vector<std::string> unknownAttributes(const ir::Node& node, const onnx::OpSchema& schema);
// The default `schema` gives attribute `name`, as an attribute; nullopt when it has none (required, or
// optional without a default).
std::optional<ir::Attribute> schemaDefault(const onnx::OpSchema& schema, const std::string& name);
// Same kind and same value (scalars and lists; other kinds never compare equal).
bool sameValue(const ir::Attribute& a, const ir::Attribute& b);

// Element types of the node's outputs that follow from its inputs through the schema's type constraints
// (Cast's `to`, fixed-type outputs like Shape's int64). Unknown ones are left out.
void propagateElemTypes(const ir::Node& node, const onnx::OpSchema* schema, ElemTypes& types);

}  // namespace fb::schema
