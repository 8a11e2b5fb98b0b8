#pragma once
// libonnx 1.12's shape inference knows schemas up to opset 17 only: run on a model at opset 18-26 it would
// read an opset-18 ReduceMean by ReduceMean-13's rules (its axes input ignored, every axis reduced), and its
// checker refuses the model anyway, so no shape would be inferred at all. The opset-17 view is the model as
// libonnx can infer it: versions that only widened types stay, versions whose opset-17 spelling has the same
// output shape are spelled that way (constant Reduce* axes as the attribute, Cast's saturate dropped, ...),
// and every other 18+ node becomes an opaque node whose outputs carry the shapes FlowBridge's own rules
// (opsets_18_26/static_shapes) found in the rounds before. Used only to learn shape facts; never written.
#include <onnx/onnx_pb.h>

#include "schema/shape_facts.h"

namespace fb::schema::opsets_18_26 {

// Rewrites `p` (a model at default-domain opset > 17, as exportForInference wrote it) into its opset-17 view.
void makeOpset17View(onnx::ModelProto& p);

// Whether the view has opaque nodes (whose outputs only declareOpaqueOutputs can type).
bool hasOpaqueNodes(const onnx::ModelProto& view);

// Declares the outputs of the view's opaque nodes with the types `f` knows for them (main graph only).
void declareOpaqueOutputs(onnx::ModelProto& p, const ShapeFacts& f);

}  // namespace fb::schema::opsets_18_26
