#pragma once
// Runs a whole graph on the reference kernels: a cheap numerical oracle for small graphs whose ops all
// have kernels (the tests use it to show a rewrite keeps outputs equal, without ONNX Runtime).
#include <map>
#include <string>

#include "eval/array.h"
#include "ir/model.h"

namespace fb::eval {

// Graph outputs by name. Throws Unsupported when an op has no kernel, std::invalid_argument for a missing input.
std::map<std::string, Array> runGraph(const ir::Model& m, const std::map<std::string, Array>& inputs);

}  // namespace fb::eval
