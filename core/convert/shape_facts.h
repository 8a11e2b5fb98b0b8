#pragma once
// What libonnx's shape inference with data propagation knows about a model before it is converted: the
// type of every value it could infer, and the contents of small integer values computed from static
// shapes (Shape -> Gather -> Mul ... chains), which older opsets need as attributes.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace fb::convert {

struct ShapeFacts {
  std::unordered_map<std::string, ir::TypeInfo> types;               // main-graph value name -> type
  std::unordered_map<std::string, std::vector<int64_t>> shapeValues; // value name -> contents (all known)
  std::vector<std::string> warnings;
  // Set once per model: why libonnx's inference must not run on it (see check/inference_gate.h).
  bool inferenceChecked = false;
  std::optional<std::string> inferenceBlocked;
};

// Never throws: what inference could not do becomes a warning.
ShapeFacts inferShapeFacts(const ir::Model& m);

}  // namespace fb::convert
