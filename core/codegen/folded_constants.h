#pragma once
// Constant subgraphs computed at generation time: a node whose inputs are all constants (initializers, Constant
// nodes, values folded before it) is evaluated with FlowBridge's own kernels (eval::evaluateNode) and its outputs
// become constants written as literals (static_values.h): only results of that size are kept, so folding never
// makes a weight the source does not have. Inputs that are floating-point tensors of more than one element are
// weights a researcher may train, and narrow or unsigned types follow the handlers' own rules: nodes reading them
// stay code. Random ops stay code too.

namespace fb::codegen {

class PyNode;

// Folds the node when it can; returns false (nothing done) otherwise.
bool foldConstantNode(PyNode& p);

}  // namespace fb::codegen
