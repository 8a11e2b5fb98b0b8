#pragma once
// The structural check for default-domain opsets above 17, which libonnx 1.12's checker cannot do (its
// registry stops at 17 and would judge an opset-18 ReduceMean by ReduceMean-13). Versions after 17 are judged
// by FlowBridge's own tables: input/output counts, attribute names and kinds (opsets_18_26/op_facts), and every input
// and output element type against the version's type constraints (opsets_18_26/type_constraints), with types propagated
// through the graph. Ops unchanged since 17 go to libonnx's schema.
#include <cstdint>
#include <optional>
#include <string>

#include "check/onnx_check.h"
#include "schema/onnx_schema.h"

namespace fb::schema::opsets_18_26 {

// Why `node` is not valid at default-domain `opset` (> 17), or nullopt. Types unknown in `types` (and not
// declared on the values) are not checked.
std::optional<std::string> structuralMismatch(const ir::Node& node, int64_t opset, const ElemTypes& types);

// Every default-domain node of the model (subgraphs included) against its opset, plus the IR version against
// the opset and the element types; messages name the node.
CheckResult checkStructure(const ir::Model& m);

}  // namespace fb::schema::opsets_18_26
