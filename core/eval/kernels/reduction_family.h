#pragma once
// The reduction family's files, each registering its own ops; registerReductionKernels (reduction.cpp) calls them.
namespace fb::eval {

class KernelRegistry;

void registerReduceKernels(KernelRegistry& r);   // reduction.cpp: ReduceSum, ReduceMean, ... ReduceLogSumExp
void registerArgKernels(KernelRegistry& r);      // reduction_arg.cpp: ArgMax, ArgMin
void registerSoftmaxKernels(KernelRegistry& r);  // reduction_softmax.cpp: Softmax, LogSoftmax, Hardmax
void registerTopKKernels(KernelRegistry& r);     // reduction_topk.cpp: TopK
void registerScanKernels(KernelRegistry& r);     // reduction_cumsum.cpp: CumSum
void registerUniqueKernels(KernelRegistry& r);   // reduction_unique.cpp: Unique
void registerEinsumKernels(KernelRegistry& r);   // reduction_einsum.cpp: Einsum

}  // namespace fb::eval
