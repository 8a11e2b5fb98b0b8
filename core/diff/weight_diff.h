#pragma once
// One pair of weights compared where their bytes lie (mapped side files are read in place, nothing is copied):
// type and shape first, then the bytes, then, where they differ, the largest absolute and relative difference.
#include "diff/model_diff.h"

namespace fb::diff {

// Either side may be null (a weight only in one model).
WeightDiff compareWeights(const ir::Tensor* a, const ir::Tensor* b, bool values);

}  // namespace fb::diff
