#pragma once
// libonnx's checker and shape inference behind two calls. Their exceptions never escape: they become
// messages tied to a node where libonnx names one, or to the model otherwise.
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace fb {

struct CheckMessage {
  std::string node;     // node name (or "op#id") the message is about; empty for the model
  std::string message;  // libonnx's text, first line
};

struct CheckResult {
  bool ok = true;
  std::vector<CheckMessage> messages;
};

// onnx::checker::check_model, then strict shape inference (error_mode 1, type checks on), on a copy.
// External data is loaded inline for the check, so side files need not be beside the working directory.
CheckResult checkModel(const ir::Model& m, bool strictShapeInference = true);

// Shape inference on a copy, for display: value name -> inferred type, for every value libonnx could type
// (graph inputs/outputs included). The model itself is never changed. Errors become `warnings`.
std::unordered_map<std::string, ir::TypeInfo> inferShapes(const ir::Model& m, std::vector<CheckMessage>* warnings = nullptr);

// Writes inferred types into the model's value_info (used by the converters before libonnx's version converter).
void applyInferredShapes(ir::Model& m, std::vector<CheckMessage>* warnings = nullptr);

}  // namespace fb
