#pragma once
// One node evaluated on constant inputs, outside a run: how constant folding and the passes that precompute
// constants (a Transpose of a weight, a Constant's value) use the evaluator's kernels, the same ones `run` uses.
#include <cstdint>
#include <vector>

#include "eval/runtime/tensor.h"
#include "ir/node.h"

namespace fb::eval {

// True when a kernel exists for this default-domain node at `opset` (it may still refuse an attribute or type).
bool canEvaluate(const ir::Node& n, int64_t opset);

// The node's outputs, in order, from its inputs (nullptr for an omitted optional one), on one thread. Charges go to
// the calling thread's budgets (eval_budget.h for folding). Throws RunError; never runs subgraphs (If/Loop/Scan are
// refused as Unsupported).
std::vector<Tensor> evaluateNode(const ir::Node& n, const std::vector<const Tensor*>& inputs, int64_t opset);

}  // namespace fb::eval
