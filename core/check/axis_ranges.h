#pragma once
// Axes out of their input's rank, where libonnx 1.12 lets them through: it reads Concat's `axis` through a 32-bit
// int (2^40 becomes 0) and Squeeze's axes without a range check, so a model it accepts can still name an axis its
// tensors do not have. Checked where the rank is known without inference (declared types, initializers).
#include <vector>

#include "check/onnx_check.h"
#include "ir/model.h"

namespace fb {

// One message per node of the main graph (and the graphs its nodes hold) whose axes lie outside their ranks.
std::vector<CheckMessage> axisRangeProblems(const ir::Model& m);

}  // namespace fb
