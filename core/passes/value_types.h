#pragma once
// Passes that need element types or static shapes (nop Cast/Reshape, Shape folding, Gemm fusion) read
// Value::type. This fills it from libonnx shape inference (with data propagation), for every value that
// is not a graph input, output or initializer; those keep what the file declares.
#include <vector>

#include "ir/model.h"

namespace fb::passes {

// Whether inference could still tell more of a value of type `t`: no type, no element type or shape, or a dim that
// is unknown or one libonnx made up (unk__...).
bool typeIncomplete(const ir::TypeInfo& t);

// Values an If/Loop/Scan body reads from the graphs around it take the outer value's type, and the values If branches
// make take what inference says of them (not those Loop/Scan bodies make: see check/onnx_check.h).
// Returns the number of values whose type it set. Never throws (inference errors leave types as they were).
size_t refreshValueTypes(ir::Model& m);

// Types for the outputs of `nodes` (nodes of m's main graph) whose type is incomplete (kind None, no shape, or an
// unknown dim / an "unk__" dim param), from libonnx inference on a small model made of just those nodes, their inputs
// declared with the types they have now; then the same for the nodes reading the outputs it typed, and so on
// downstream while something is learned (an output that only gained an element type or a rank can still complete
// its readers). Never overwrites a complete type, never touches graph inputs, outputs or
// initializers (as refreshValueTypes). Returns the number of values it typed. Never throws.
//
// After a round of rewrites only the nodes the passes created or rewired have stale types; inferring the whole
// graph again costs the graph's size for each of them. The cost here is the size of what is handed in (plus the
// short chains of small constants feeding it, see value_types.cpp, and what completes downstream).
size_t refreshValueTypesOf(ir::Model& m, const std::vector<ir::Node*>& nodes);

}  // namespace fb::passes
