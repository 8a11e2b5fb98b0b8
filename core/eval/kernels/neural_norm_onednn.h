#pragma once
// oneDNN's normalization primitives on float tensors, for the f32 cases of neural_norm.cpp (its loops cover double,
// the shapes these do not take, and serve as the reference the tests check both against).
#include <cstdint>

#include "eval/runtime/tensor.h"

namespace fb::eval::onednn {

// y = (x - mean) / sqrt(variance + eps) * scale + shift over the rows of x viewed as [outer, inner]; scale and shift
// hold `inner` values. Writes each row's mean and (biased) variance.
void layerNormalize(const float* x, float* y, int64_t outer, int64_t inner, const float* scale, const float* shift,
                    float eps, float* mean, float* variance);

// BatchNormalization with given statistics over [N, C, spatial...] (rank 2 to 5), one scale/shift/mean/variance per
// channel.
void batchNormalize(const Tensor& x, const float* scale, const float* shift, const float* mean, const float* variance,
                    float eps, Tensor& y);

// LRN across channels of a [N, C, H, W] tensor with an odd window `size` (where oneDNN's window is ONNX's).
void localResponseNormalize(const Tensor& x, int64_t size, float alpha, float beta, float bias, Tensor& y);

}  // namespace fb::eval::onednn
