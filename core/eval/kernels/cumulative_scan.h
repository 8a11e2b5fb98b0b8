#pragma once
// CumSum and CumProd: running sums or products along the axis given as a scalar input, optionally exclusive (each
// element leaves itself out: the first is the identity) and/or reversed. Floats combine in their own type in order,
// as other runtimes do; integers in 64-bit unsigned arithmetic, so that overflow wraps instead of being undefined.
#include <vector>

#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

enum class Cumulative { Sum, Product };

std::vector<Value> cumulativeScan(const KernelContext& c, Cumulative kind);

}  // namespace fb::eval
