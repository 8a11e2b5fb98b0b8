#pragma once
// Registration of the ONNX->ONNX adapters, one function per op family (each in its own file).
#include "convert/handler_registry.h"

namespace fb::convert::onnx_onnx {

void registerSoftmaxAdapters(HandlerRegistry& r);        // Softmax / LogSoftmax / Hardmax axis semantics (13)
void registerAxesInputAdapters(HandlerRegistry& r);      // Squeeze / Unsqueeze / ReduceSum axes, Split split (13)
void registerAxisAttributeAdapters(HandlerRegistry& r);  // negative axes below opset 11
void registerClipAdapters(HandlerRegistry& r);           // Clip min/max attributes <-> inputs (11)
void registerPadAdapters(HandlerRegistry& r);            // Pad pads/value attributes <-> inputs (11)
void registerSliceAdapters(HandlerRegistry& r);          // Slice starts/ends/axes attributes <-> inputs (10)
void registerDropoutAdapters(HandlerRegistry& r);        // Dropout ratio / training_mode (12)
void registerPoolAdapters(HandlerRegistry& r);           // MaxPool ceil_mode / dilations below 10
void registerGemmAdapters(HandlerRegistry& r);           // Gemm without C below 11
void registerConstantAdapters(HandlerRegistry& r);       // Constant value_* attributes below 12
void registerDepthToSpaceAdapters(HandlerRegistry& r);   // DepthToSpace CRD mode below 11
void registerResizeAdapters(HandlerRegistry& r);         // Resize -> Resize-10 / Upsample
void registerTopKScatterAdapters(HandlerRegistry& r);    // TopK k (10), Scatter <-> ScatterElements (11)
void registerDecompositions(HandlerRegistry& r);         // LayerNormalization, HardSwish, Range for opsets without them
void registerTriluAdapters(HandlerRegistry& r);          // Trilu below 14: constant mask + Where
void registerShapeAdapters(HandlerRegistry& r);          // Shape start/end below 15: Shape + Slice
void registerSmallIntArithmeticAdapters(HandlerRegistry& r);  // 8/16-bit Add/Sub/Mul/Div below 14: via int32
void registerIsInfAdapters(HandlerRegistry& r);               // IsInf below 10: Greater/Less than the largest finite
void registerGatherElementsAdapters(HandlerRegistry& r);      // GatherElements below 11: Gather on flattened data
void registerModAdapters(HandlerRegistry& r);                 // Mod below 10: from its definition
void registerConstantOfShapeAdapters(HandlerRegistry& r);     // ConstantOfShape below 9: known shape -> Constant
void registerMinMaxAdapters(HandlerRegistry& r);              // integer Max/Min below 12: Greater/Less + Where
void registerArgExtremeAdapters(HandlerRegistry& r);          // ArgMax/ArgMin select_last_index below 12
void registerWhereAdapters(HandlerRegistry& r);               // Where below 9: Gather from the stacked branches
void registerCumSumAdapters(HandlerRegistry& r);              // CumSum below 11: unrolled running sums
void registerScanAdapters(HandlerRegistry& r);                // Scan-8 -> 9+: batch axis of 1 dropped
void registerBatchNormTrainingAdapters(HandlerRegistry& r);  // BatchNormalization training_mode=1 below 14: written out
void registerEinsumAdapters(HandlerRegistry& r);  // Einsum below 12: static shapes, Transpose/ReduceSum/MatMul
void registerGatherNDAdapters(
    HandlerRegistry& r);  // GatherND below 11 / batch_dims below 12: one Gather, static shapes
void registerGridSampleAdapters(HandlerRegistry& r);  // GridSample below 16: bilinear/nearest, zeros/border, Gather

}  // namespace fb::convert::onnx_onnx
