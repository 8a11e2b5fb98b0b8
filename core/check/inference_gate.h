#pragma once
// libonnx 1.12's shape inference trusts the model it is given: on models nothing has checked it dereferences
// missing subgraphs, divides by a squared blocksize that overflowed to 0, or recurses through a function that
// calls itself, and the process dies. So inference runs only on models that pass the checker and a few
// checks for what the checker lets through (blocksizes, strides, dilations, kernel shapes, pads, permutations,
// self-calling functions); otherwise callers fall back to the types the model declares.
#include <optional>
#include <string>

#include <onnx/onnx_pb.h>

#include "ir/model.h"

namespace fb {

// The model as inference sees it: main-graph initializers of 4 KB and more become typed graph inputs (weights
// never feed shapes; leaving their bytes out keeps inference on a model with gigabytes of weights cheap, and
// unlike placeholder external data it still passes the checker); everything else is inline.
onnx::ModelProto exportForInference(const ir::Model& m);
// The same into `out` (which may live on an arena).
void exportForInference(const ir::Model& m, onnx::ModelProto& out);

// Why libonnx's shape inference must not run on `p` (the checker's first message, or the hazard found);
// nullopt when it may. Never throws.
std::optional<std::string> inferenceHazard(const onnx::ModelProto& p);
// The same without copying `p` (it is changed only while the checker runs).
std::optional<std::string> inferenceHazard(onnx::ModelProto& p);
// The hazards the checker lets through, for a model the checker has just accepted.
std::optional<std::string> inferenceHazardAfterCheck(const onnx::ModelProto& p);

}  // namespace fb
