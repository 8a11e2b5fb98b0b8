#pragma once
// Recognised blocks (issue 25, point 4): chains of ONNX nodes an exporter made from one PyTorch call, found before
// any code is written so that the chain becomes that call again: LayerNorm decomposed at opset < 17 (ReduceMean, Sub,
// Pow, ReduceMean, Add, Sqrt, Div, Mul, Add) as F.layer_norm, GELU's erf form (Div, Erf, Add, Mul, Mul) and tanh form
// as F.gelu, hardswish (HardSigmoid + Mul, or Add/Clip/Div/Mul) as F.hardswish. A chain matches only when it computes
// exactly what the call computes (the same epsilon, the last axis, GELU's exact constants) and nothing outside it reads
// its intermediate values. ONNX models themselves are never changed (`convert` does not see this).
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "ir/tensor.h"

namespace fb::codegen {

struct RecognisedBlock {
  enum class Kind { LayerNorm, Gelu, HardSwish };
  Kind kind = Kind::LayerNorm;
  std::vector<const ir::Node*> nodes;  // in graph order; the last one's output is the block's output
  const ir::Value* input = nullptr;
  const ir::Value* output = nullptr;
  // LayerNorm: the affine weight and bias (nullptr when the chain has none), the node and slot reading each,
  // the size of the normalised (last) dim when known without running (-1: take it from the input) and epsilon.
  const ir::Value* weight = nullptr;
  const ir::Value* bias = nullptr;
  const ir::Node* weightReader = nullptr;
  const ir::Node* biasReader = nullptr;
  int weightSlot = -1, biasSlot = -1;
  int64_t normalizedSize = -1;
  float epsilon = 0;
  bool tanhApproximation = false;  // GELU: the tanh form
};

struct BlockLookups {
  std::function<const ir::Tensor*(const ir::Value*)> constant;  // the constant behind a value, or nullptr
  std::function<ir::DataType(const ir::Value*)> elemType;       // Undefined when unknown
  // F.gelu(x, approximate='tanh') is there: torch from 1.12; OneFlow's docs show it for 1.0 only, so not for OneFlow.
  bool tanhGelu = true;
};

class RecognisedBlocks {
 public:
  // Finds the blocks of one graph (not its subgraphs); graphs whose nodes carry subgraphs are left alone, since
  // their bodies read values by name and could read a block's intermediates.
  void findIn(const ir::Graph& g, const BlockLookups& look);
  const RecognisedBlock* blockOf(const ir::Node& n) const {
    auto it = byNode_.find(n.id());
    return it == byNode_.end() ? nullptr : &blocks_[it->second];
  }

 private:
  void add(RecognisedBlock b);
  std::vector<RecognisedBlock> blocks_;
  std::unordered_map<uint64_t, size_t> byNode_;
};

const char* blockKindName(RecognisedBlock::Kind k);

// The comment of the block's statement: what it is and the ONNX nodes it stands for.
std::string blockComment(const RecognisedBlock& b);

}  // namespace fb::codegen
