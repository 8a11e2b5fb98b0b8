#pragma once
// Constant subgraphs computed at generation time: a node whose inputs are all constants (initializers, Constant
// nodes, values folded before it) is evaluated with FlowBridge's own kernels (eval::evaluateNode) and its outputs
// become constants, written as literals where they are small (static_values.h) and as buffers otherwise. Inputs that
// are floating-point tensors of more than one element are weights a researcher may train: nodes reading them stay
// code. Random ops stay code too.

namespace fb::codegen {

class PyNode;

// Folds the node when it can; returns false (nothing done) otherwise.
bool foldConstantNode(PyNode& p);

}  // namespace fb::codegen
