#pragma once
// One entry point for every format FlowBridge reads: the format is detected from the path and content.
#include <memory>
#include <string>

#include "ir/model.h"

namespace fb {

enum class ModelFormat { Unknown, Onnx, OneFlow };

ModelFormat detectFormat(const std::string& path);
// Throws InputError(path, reason) when the file cannot be read as any known format.
std::unique_ptr<ir::Model> loadModel(const std::string& path);

}  // namespace fb
