#pragma once
// The control-flow family's parts, each registered from its own file by registerControlFlowKernels
// (control_flow.cpp: If, Loop, Scan).
namespace fb::eval {

class KernelRegistry;

void registerSequenceKernels(KernelRegistry& r);  // control_flow_sequences.cpp: Sequence*, SplitToSequence, ...
void registerOptionalKernels(KernelRegistry& r);  // control_flow_optionals.cpp: Optional, OptionalHasElement, ...

}  // namespace fb::eval
