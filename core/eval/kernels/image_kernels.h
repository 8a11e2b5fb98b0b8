#pragma once
// The image and detection kernels, one file each (image_*.cpp), registered together by registerImageKernels
// (image.cpp).
#include <vector>

#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

std::vector<Value> resizeKernel(const KernelContext& c);    // Resize 10, 11, 13, 18, 19
std::vector<Value> upsampleKernel(const KernelContext& c);  // Upsample 1, 7, 9
std::vector<Value> gridSampleKernel(const KernelContext& c);
std::vector<Value> affineGridKernel(const KernelContext& c);
std::vector<Value> roiAlignKernel(const KernelContext& c);
std::vector<Value> nonMaxSuppressionKernel(const KernelContext& c);
std::vector<Value> maxUnpoolKernel(const KernelContext& c);

}  // namespace fb::eval
