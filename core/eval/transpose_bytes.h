#pragma once
// Transposes a tensor by moving its bytes, whatever the element type: constant folding meets Transposes of
// whole weight matrices (PyTorch's raw exports write MatMul(x, Transpose(W))), where converting every
// element to double and back would cost more than the copy itself.
#include <cstdint>
#include <vector>

#include "ir/tensor.h"

namespace fb::eval {

// `perm` empty means reversed axes. Throws RunError(Unsupported) for string tensors or a perm that does not fit.
ir::Tensor transposeBytes(const ir::Tensor& t, std::vector<int64_t> perm);

}  // namespace fb::eval
