#pragma once
// Replacing an op of opsets 18-26 by an opset-17 body written for the node at hand (ONNX's function bodies,
// or an exact older expression), which is then taken down to the target opset node by node like any other
// opset-17 graph, and spliced in only when every body node converts.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <onnx/defs/function.h>

#include "convert/handler.h"

namespace fb::convert::onnx_onnx {

// Formal `inputs`/`outputs` stand for the node's by position; `build` adds the nodes (opset-17 ops, names
// local to the body). Throws Unsupported when a body node has no form at the target opset.
void replaceByBody17(ir::Node& n, HandlerContext& ctx, const std::vector<std::string>& inputs,
                     const std::vector<std::string>& outputs, const std::function<void(onnx::FunctionBuilder&)>& build,
                     const std::string& note);

// "[1, 2, 3]", for attribute text.
std::string intList(const std::vector<int64_t>& v);
// A float as text that parses back to the same float.
std::string floatText(double v);

// A float constant for a body (FunctionBuilder's Const).
onnx::TensorProto floatTensor(const std::vector<int64_t>& dims, const std::vector<float>& values);

// The element type of input 0 when it is float (or unknown); anything else throws Unsupported naming `op`.
void requireFloat32(const ir::Node& n, const HandlerContext& ctx);

}  // namespace fb::convert::onnx_onnx
