#pragma once
// The convolution call shared by Conv (neural.cpp) and the quantized convolutions (quantize.cpp).
#include <string>

#include "codegen/py_node.h"

namespace fb::codegen {

// `F.convNd(input, weight, bias)` for the node's Conv attributes (pads, auto_pad, strides, dilations, group), after an
// explicit F.pad where the call cannot pad itself; the kernel comes from kernel_shape or input `weightIndex`'s shape.
// `bias` may be empty.
std::string convExpression(PyNode& p, const std::string& input, size_t weightIndex, const std::string& weight,
                           const std::string& bias);

}  // namespace fb::codegen
