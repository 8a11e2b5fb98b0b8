#pragma once
// libonnx's checker and shape inference behind two calls. Their exceptions never escape: they become
// messages tied to a node where libonnx names one, or to the model otherwise.
#include <optional>
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
// A main graph of kCheckWindowFrom nodes and more is checked in windows (checkModelInWindows) where it can be.
CheckResult checkModel(const ir::Model& m, bool strictShapeInference = true);
// The check for a model at any opset FlowBridge reads: checkModel up to opset 17, where libonnx 1.12's schemas end,
// and FlowBridge's own structure check (schema/opsets_18_26) above it, which libonnx would read by opset-17 rules.
CheckResult checkModelAtItsOpset(const ir::Model& m);
inline constexpr size_t kCheckWindowFrom = 20000;
inline constexpr size_t kCheckWindowNodes = 8192;

// The same check with the main graph's nodes shown to libonnx `windowNodes` at a time, so that its memory is
// one window's. nullopt when the model cannot be checked so (see windowed_check.cpp); the caller then checks it
// whole. With several faults, the one in the earliest window is reported.
std::optional<CheckResult> checkModelInWindows(const ir::Model& m, size_t windowNodes,
                                               bool strictShapeInference = true);

// Shape inference on a copy, for display: value name -> inferred type, for every value libonnx could type
// (graph inputs/outputs included). The model itself is never changed. Errors become `warnings`.
// `branchTypes`, when given, also gets the types inference gave the values If branches make, per branch graph: a
// branch runs once, on the outer values it reads, so they are facts. Not those of Loop/Scan bodies (nor of branches
// inside them): a Loop's carried state may change shape from one iteration to the next, and libonnx gives it the
// shape it enters with.
using BranchTypes = std::unordered_map<const ir::Graph*, std::unordered_map<std::string, ir::TypeInfo>>;
std::unordered_map<std::string, ir::TypeInfo> inferShapes(const ir::Model& m,
                                                          std::vector<CheckMessage>* warnings = nullptr,
                                                          BranchTypes* branchTypes = nullptr);

// Writes inferred types into the model's value_info (used by the converters before libonnx's version converter).
void applyInferredShapes(ir::Model& m, std::vector<CheckMessage>* warnings = nullptr);

}  // namespace fb
