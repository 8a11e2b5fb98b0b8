#pragma once
// One function per kernel family, each defined in its own file under eval/kernels/. KernelRegistry::instance()
// calls them all, once.
namespace fb::eval {

class KernelRegistry;

void registerElementwiseKernels(KernelRegistry& r);  // kernels/elementwise*.cpp: math, activations, logic, Cast
void registerShapeKernels(KernelRegistry& r);        // kernels/shape*.cpp: Reshape, Concat, Slice, Gather, ...
void registerReductionKernels(KernelRegistry& r);    // kernels/reduction*.cpp: Reduce*, ArgMax, TopK, ...
void registerNeuralKernels(KernelRegistry& r);       // kernels/neural*.cpp: Conv, MatMul, pooling, norms (oneDNN)
void registerRecurrentKernels(KernelRegistry& r);    // kernels/recurrent*.cpp: RNN, GRU, LSTM
void registerImageKernels(KernelRegistry& r);        // kernels/image*.cpp: Resize, GridSample, RoiAlign, NMS, ...
void registerControlFlowKernels(KernelRegistry& r);  // kernels/control_flow*.cpp: If, Loop, Scan, sequences
void registerMiscKernels(KernelRegistry& r);         // kernels/misc*.cpp: losses, signal, strings, random, ...
void registerRecentOpKernels(KernelRegistry& r);     // kernels/recent_ops*.cpp: ops added after opset 17

}  // namespace fb::eval
