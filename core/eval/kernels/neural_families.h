#pragma once
// The neural family's files, each registering its own ops; registerNeuralKernels (neural.cpp) calls them all.
namespace fb::eval {

class KernelRegistry;

void registerConvKernels(KernelRegistry& r);    // neural_conv.cpp: Conv, ConvTranspose, ConvInteger, QLinearConv
void registerMatMulKernels(KernelRegistry& r);  // neural_matmul.cpp: MatMul, Gemm, MatMulInteger, QLinearMatMul
void registerPoolKernels(KernelRegistry& r);    // neural_pool.cpp: Average/Max/Lp pools and their global forms
void registerNormKernels(KernelRegistry& r);    // neural_norm.cpp: Batch/Instance/Layer/Group/RMS norms, LRN, MVN
void registerDetKernels(KernelRegistry& r);     // neural_det.cpp: Det

}  // namespace fb::eval
