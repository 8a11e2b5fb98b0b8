#pragma once
// The part of a model that computes some of its values from others, as a model of its own: `extract` cuts it so
// that a node that diverges becomes a reproducer anyone can run elsewhere.
#include <memory>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::eval {

// The nodes of `m`'s main graph that compute `outputs` from `inputs` (when `inputs` is empty: from the graph
// inputs they need), with the initializers they read, as a new model with the same opsets and functions. The cut's
// inputs and outputs keep the types `m` gives their values (the caller types them first: values without a type
// make an invalid model). Throws std::invalid_argument naming the value when an output or input is not a value of
// the main graph, when an output is not computed from the inputs (it needs a graph input that is not among them
// and `inputs` was given), or when an input's producer is needed for another value of the cut.
std::unique_ptr<ir::Model> extractSubgraph(const ir::Model& m, const std::vector<std::string>& outputs,
                                           const std::vector<std::string>& inputs);

}  // namespace fb::eval
