#pragma once
// Passes that need element types or static shapes (nop Cast/Reshape, Shape folding, Gemm fusion) read
// Value::type. This fills it from libonnx shape inference (with data propagation), for every value that
// is not a graph input, output or initializer; those keep what the file declares.
#include "ir/model.h"

namespace fb::passes {

// Returns the number of values whose type it set. Never throws (inference errors leave types as they were).
size_t refreshValueTypes(ir::Model& m);

}  // namespace fb::passes
