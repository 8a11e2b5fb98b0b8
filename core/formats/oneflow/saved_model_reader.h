#pragma once
// Lazy-era SavedModel (OneFlow 0.4-0.8, ModelBuilder.Save): <version>/saved_model.pb or .prototxt with the ops
// of each graph and its signatures, and <version>/variables/ in the check_point_v2 layout. No blob shapes are
// stored: the signature gives the input shapes and the rest is inferred (shape_inference.h).
#include <memory>
#include <optional>
#include <string>

#include "ir/model.h"

namespace fb::oneflow {

// Throws InputError(path, ...) when the file is not a SavedModel or its weights cannot be read. With `containDir`
// (the folder the user named, the file having been found in it), the file must resolve inside that folder.
std::unique_ptr<ir::Model> readSavedModel(const std::string& path, const std::optional<std::string>& weightDir,
                                          const std::string& containDir = {});

}  // namespace fb::oneflow
