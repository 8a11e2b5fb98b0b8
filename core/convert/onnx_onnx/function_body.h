#pragma once
// Replaces a node by its op's function body (ONNX schema), converted to the target opset node by node.
#include "convert/handler.h"

namespace onnx {
class FunctionProto;
class OpSchema;
}  // namespace onnx

namespace fb::convert::onnx_onnx {

// False when the op has no function body at the source version; throws Unsupported when a body node does
// not convert. In both cases the graph is unchanged.
bool expandFunctionBody(ir::Node& node, HandlerContext& ctx);

// The same for a body the caller writes (`f` in default-domain `opset`; its inputs and outputs stand for the
// node's by position). `schema`, when given, supplies defaults for attributes the body refers to.
bool expandBody(ir::Node& node, HandlerContext& ctx, const onnx::FunctionProto& f, int64_t opset,
                const onnx::OpSchema* schema = nullptr);

// The model-local function (ModelProto.functions) a node calls, or null.
const ir::Function* localFunction(const ir::Model& m, const ir::Node& node);

// Replaces a call of a model-local function by the function's body, converted from the function's own
// opset imports to the target (nested calls expand too). False when the node calls no local function;
// throws Unsupported (graph unchanged) when a body node does not convert.
bool expandLocalFunction(ir::Node& node, HandlerContext& ctx);

// After retargeting: the model-local functions no node calls any more go, with opset imports only they used.
void dropUncalledFunctions(ir::Model& m);

}  // namespace fb::convert::onnx_onnx
