#pragma once
// Small helpers the ONNX->ONNX adapters share.
#include <string>
#include <vector>

#include "convert/handler.h"
#include "convert/handler_registry.h"

namespace fb::convert::onnx_onnx {

// Registers `fn` for (ONNX domain, op) at `since`, described in one line.
void add(HandlerRegistry& r, const std::string& op, int64_t since, std::string description, HandlerFn fn);

// The constant int64 contents of input `i`, or throws Unsupported naming what it is for.
std::vector<int64_t> requireConstantInts(const ir::Node& n, size_t i, const HandlerContext& ctx, const char* what);
// Same, for a float input (Clip bounds, Pad value).
double requireConstantScalar(const ir::Node& n, size_t i, const HandlerContext& ctx, const char* what);

// Adds axes to rank and sorts nothing; throws Unsupported when a negative axis meets an unknown rank.
std::vector<int64_t> normalizedAxes(std::vector<int64_t> axes, std::optional<int64_t> rank, const char* what);

// True when the output is used by something (a node or the graph's outputs).
bool isUsed(const ir::Value* v);

// An initializer holding a scalar of the given element type (float / double / float16 not supported: throws).
ir::Value* scalarLike(HandlerContext& ctx, const std::string& base, ir::DataType dt, double value);

}  // namespace fb::convert::onnx_onnx
