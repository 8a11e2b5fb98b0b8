#pragma once
// The evaluator's op table, shared by the files that fill it (kernels.cpp, indexing_kernels.cpp).
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/array.h"
#include "ir/node.h"

namespace fb::eval {

using Kernel = std::function<std::vector<Array>(const ir::Node&, const std::vector<const Array*>&, int64_t)>;
using KernelTable = std::unordered_map<std::string, Kernel>;

// Scatter/Gather by index tensors, Tile, Split, Trilu, CumSum: what exporters build masks and position
// tables from (swin's shifted-window mask is a chain of ScatterND on constants).
void addIndexingKernels(KernelTable& t);

}  // namespace fb::eval
