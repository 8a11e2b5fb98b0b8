#pragma once
// OneFlow -> ONNX: every node of domain "oneflow" goes through the handler the registry picks for the target
// opset (direction "oneflow"); each gets a NodeReport. The model is converted in place.
#include <cstdint>
#include <string>
#include <vector>

#include "convert/node_status.h"
#include "ir/model.h"

namespace fb::convert {

struct OneflowConversion {
  std::vector<NodeReport> reports;  // one per OneFlow node, in graph order
  bool ok() const;                  // no node unsupported or failed
  // "12 converted, 1 unsupported (arange: needs opset 11)" style summary.
  std::string summary() const;
};

// Registers the OneFlow handlers once (idempotent; called by convertOneflowToOnnx).
void registerOneflowHandlers();

// Converts `model` (read by the OneFlow reader) for ONNX opset `targetOpset` (7..17). When some node is
// unsupported or fails, the model is left partly converted and must not be written; the reports say why.
OneflowConversion convertOneflowToOnnx(ir::Model& model, int64_t targetOpset);

}  // namespace fb::convert
