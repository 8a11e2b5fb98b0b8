#pragma once
// One registration function per op family (one file each).
namespace fb::convert::oneflow {

void registerSystemOps();       // input/output/return/variable markers, identity, distribute_*
void registerConvOps();         // conv1d, conv2d
void registerPoolOps();         // max/avg pooling (all names), adaptive_avg_pool2d
void registerNormOps();         // normalization, layer_norm, rms_norm, rms_layer_norm
void registerActivationOps();   // relu, gelu family, hardswish, hardtanh, silu, softmax, ...
void registerElementwiseOps();  // unary math, broadcast binaries, scalar_*, add_n, bias_add, comparisons
void registerMatmulOps();       // matmul family, fused attention helpers, cublas_fused_mlp
void registerShapeOps();        // reshape, flatten, squeeze, expand_dims, transpose, concat/cat, slice, narrow...
void registerReduceOps();       // reduce_*, argmax/argmin, var
void registerConstantOps();     // constant, fill_, arange, cast
void registerQuantOps();        // observers, fake_quantization

inline void registerAllFamilies() {
  registerSystemOps();
  registerConvOps();
  registerPoolOps();
  registerNormOps();
  registerActivationOps();
  registerElementwiseOps();
  registerMatmulOps();
  registerShapeOps();
  registerReduceOps();
  registerConstantOps();
  registerQuantOps();
}

}  // namespace fb::convert::oneflow
