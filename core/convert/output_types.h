#pragma once
// ONNX's checker wants an element type and a shape on every main-graph output; hand-built and some exported models
// leave them out, and ONNX Runtime runs such models. A converted model gets the types shape inference finds for
// them, and an output inference cannot type is named with what the user can do about it.
#include <string>
#include <vector>

#include "check/onnx_check.h"
#include "ir/model.h"

namespace fb::convert {

struct OutputTyping {
  std::vector<std::string> written;   // "output 'y': float[1,1,672,672] (inferred)", per output typed here
  std::vector<CheckMessage> untyped;  // per output still without a shape: which, why, and what to do
};

// Writes the inferred type into each main-graph output of `m` that has no shape (or no type at all). An output whose
// declared element type differs from the inferred one is left as it is and listed as untyped.
OutputTyping typeShapelessOutputs(ir::Model& m);

}  // namespace fb::convert
