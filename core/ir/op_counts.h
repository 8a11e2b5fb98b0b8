#pragma once
// How many nodes of each op a graph holds, its If/Loop/Scan bodies included ("domain::Op" outside the default
// domain): the before/after counts of conversion reports and the pass stepper.
#include <cstddef>
#include <map>
#include <string>

#include "ir/graph.h"

namespace fb::ir {

std::map<std::string, size_t> countOps(const Graph& g);

}  // namespace fb::ir
