#pragma once
// ONNX -> Python handlers, one file per op family. Each handler writes the statements for one node through
// PyNode; it throws convert::Unsupported (via PyNode::unsupported) with the reason when the node's meaning
// has no exact expression in the target library.
#include <functional>
#include <string>

#include "codegen/py_node.h"
#include "convert/handler_registry.h"

namespace fb::codegen {

using PyHandler = std::function<void(PyNode&)>;

// Integer element types, where ONNX's arithmetic (truncating division, kept types) differs from PyTorch's.
inline bool isInteger(ir::DataType t) {
  switch (t) {
    case ir::DataType::Int8:
    case ir::DataType::Int16:
    case ir::DataType::Int32:
    case ir::DataType::Int64:
    case ir::DataType::UInt8:
    case ir::DataType::UInt16:
    case ir::DataType::UInt32:
    case ir::DataType::UInt64:
      return true;
    default:
      return false;
  }
}

// Registers `fn` for ONNX op `op` from since-version `since`: a model importing opset N gets the handler with
// the highest since <= N.
void addPy(convert::HandlerRegistry& r, const std::string& op, int64_t since, const std::string& description,
           PyHandler fn, const std::string& domain = "");

void registerElementwiseCode(convert::HandlerRegistry& r);  // elementwise.cpp: math, comparisons, activations, Cast
void registerNeuralCode(
    convert::HandlerRegistry& r);  // neural.cpp: Conv, pooling, normalization, Gemm/MatMul, RNNs, Resize
void registerTensorCode(convert::HandlerRegistry& r);     // tensor.cpp: shape ops, indexing, constants
void registerReductionCode(convert::HandlerRegistry& r);  // reduce.cpp: Reduce*, ArgMax/ArgMin
void registerLossCode(convert::HandlerRegistry& r);  // losses.cpp: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void registerControlFlowCode(convert::HandlerRegistry& r);  // control_flow.cpp: If, Loop, Scan
void registerResizeCode(convert::HandlerRegistry& r);       // resize.cpp: Resize, Upsample
void registerRecurrentCode(convert::HandlerRegistry& r);    // recurrent.cpp: RNN, GRU, LSTM
void registerQuantizeCode(convert::HandlerRegistry& r);     // quantize.cpp: (De)QuantizeLinear, integer and QLinear ops
void registerSignalCode(convert::HandlerRegistry& r);       // signal.cpp: DFT, STFT, windows
void registerIndexingCode(convert::HandlerRegistry& r);     // indexing.cpp: gathers/scatters by index, TopK, Unique
void registerSequenceCode(convert::HandlerRegistry& r);     // sequence.cpp: sequences as lists, optionals as None
// transformer.cpp: Attention, RMSNormalization, RotaryEmbedding (23), Swish (24)
void registerTransformerCode(convert::HandlerRegistry& r);

void registerAllCodegenFamilies(convert::HandlerRegistry& r);

}  // namespace fb::codegen
