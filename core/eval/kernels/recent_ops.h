#pragma once
// The "recent" family: ONNX ops added after opset 17 (Swish, BitCast, CumProd, RotaryEmbedding, TensorScatter,
// Attention, ...), one file per idea; registerRecentOpKernels (kernel_families.h) calls these.
namespace fb::eval {

class KernelRegistry;

void registerRecentElementwiseKernels(KernelRegistry& r);    // recent_ops_elementwise.cpp: Swish, BitCast
void registerRecentScanKernels(KernelRegistry& r);           // recent_ops_cumprod.cpp: CumProd
void registerRecentRotaryKernels(KernelRegistry& r);         // recent_ops_rotary.cpp: RotaryEmbedding
void registerRecentTensorScatterKernels(KernelRegistry& r);  // recent_ops_tensor_scatter.cpp: TensorScatter
void registerRecentAttentionKernels(KernelRegistry& r);      // recent_ops_attention.cpp: Attention
void registerRecentDeformConvKernels(KernelRegistry& r);     // recent_ops_deform_conv.cpp: DeformConv (2-D)

}  // namespace fb::eval
