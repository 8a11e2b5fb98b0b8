#pragma once
// ir::Model -> ModelProto. Tensors chosen by `externalize` are written as references; their bytes are
// the caller's to store (see OnnxWriter).
#include <functional>
#include <string>

#include <onnx/onnx_pb.h>

#include "ir/model.h"

namespace fb::onnxfmt {

// Returns true when the tensor goes to the side file; it then fills location/offset/length in `ref`.
using ExternalizeFn = std::function<bool(const ir::Tensor&, ir::ExternalRef& ref)>;

void exportModel(const ir::Model& m, onnx::ModelProto& out, const ExternalizeFn& externalize = {});
// Everything but the main graph (opsets, metadata, functions): for a caller that builds the graph itself.
void exportModelHeader(const ir::Model& m, onnx::ModelProto& out, const ExternalizeFn& externalize = {});
void exportNodeProto(const ir::Node& n, onnx::NodeProto& out, const ExternalizeFn& externalize = {});
void exportValueInfoProto(const ir::Value& v, onnx::ValueInfoProto& out);
void exportFunction(const ir::Function& f, onnx::FunctionProto& out, const ExternalizeFn& externalize = {});
void exportType(const ir::TypeInfo& t, onnx::TypeProto& out);
void exportTensor(const ir::Tensor& t, onnx::TensorProto& out, const ExternalizeFn& externalize = {});
// exportTensor without raw_data: true when the tensor's bytes belong in raw_data (the caller writes them).
bool exportTensorHeader(const ir::Tensor& t, onnx::TensorProto& out, const ExternalizeFn& externalize = {});
// A graph's fields other than its nodes and initializers (name, inputs, outputs, value_info, sparse
// initializers, ...): for a writer that streams those two.
void exportGraphFrame(const ir::Graph& g, onnx::GraphProto& out, const ExternalizeFn& externalize = {});

}  // namespace fb::onnxfmt
