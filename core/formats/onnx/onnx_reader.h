#pragma once
// Reads an .onnx file into the IR. External data is mapped lazily, on first access to a tensor.
#include <memory>
#include <string>

#include <onnx/onnx_pb.h>

#include "ir/model.h"

namespace fb::onnxfmt {

// Throws InputError(path, reason) when the file cannot be read or is not a valid ONNX model.
std::unique_ptr<ir::Model> readOnnxFile(const std::string& path);

// Parses the protobuf only (no IR); streams the file so peak memory stays near the file size.
void parseOnnxProtoFile(const std::string& path, onnx::ModelProto& out);

// True when the first bytes look like a serialized ModelProto (used by format detection).
bool looksLikeOnnx(const std::string& path);

}  // namespace fb::onnxfmt
