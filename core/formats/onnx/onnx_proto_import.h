#pragma once
// ModelProto -> ir::Model. Tensor bytes and long strings (names, attributes) are moved out of the proto, not
// copied: the proto is consumed.
#include <memory>
#include <string>

#include <onnx/onnx_pb.h>

#include "ir/model.h"

namespace fb::onnxfmt {

struct ImportOptions {
  std::string modelPath;  // for messages and for resolving external data
  std::string modelDir;   // folder that external-data locations are relative to
  // Bytes for the main graph's initializers whose raw_data the parser left out (by index; null = none).
  std::vector<std::shared_ptr<const ir::Buffer>> initializerData;
};

// Throws InputError(modelPath, reason) for anything that is not a valid model: undefined inputs,
// a value produced twice, a cycle, an unsafe external-data location.
std::unique_ptr<ir::Model> importModel(onnx::ModelProto& proto, const ImportOptions& opts);

ir::TypeInfo importType(const onnx::TypeProto& tp);
ir::Tensor importTensor(onnx::TensorProto& tp);  // inline data only

}  // namespace fb::onnxfmt
