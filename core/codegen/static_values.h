#pragma once
// Shape arithmetic as Python ints. Exporters write `x.view(b, -1, 8)` as Shape -> Gather -> Unsqueeze -> Concat
// -> Reshape on int64 tensors; generated code that copies those tensors cannot be scripted, freezes the batch size
// when traced, and builds tensors without a device. A "static value" is an int64/int32 scalar or 1-D list whose
// elements are Python int expressions (`x.shape[0]`, `x.shape[2] // 8`, `7`): the nodes computing it write no
// tensor code, consumers (Reshape, Slice, Expand, Tile, ConstantOfShape, ...) take the ints directly, and a tensor
// is made (`T.tensor([...], dtype=..., device=x.device)`) only where one is really needed. Values whose elements
// are all known at generation time are folded into constants.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::codegen {

class PyNode;

// Small constants (scalars and 1-D tensors of at most this many elements, not trainable) are written as Python
// literals in the code instead of buffers in the weights file.
constexpr int64_t kMaxLiteralElements = 16;

struct StaticInt {
  std::string expr;              // a Python int expression; compound ones contain a space
  std::optional<int64_t> value;  // when known at generation time
  bool nonNegative = false;      // a dim, or arithmetic that keeps dims >= 0 (Div may then floor)
};

struct StaticValue {
  bool scalar = false;  // rank 0 (a Python int) or rank 1 (a list of ints)
  std::vector<StaticInt> elems;
  ir::DataType dtype = ir::DataType::Int64;
  std::string device;           // the tensor whose .device a materialised tensor takes ("" for none)
  std::vector<uint64_t> nodes;  // the ONNX nodes folded into it (their code is where it is used)
  int indent = 0;               // the block its locals live in

  bool known() const;
  std::vector<int64_t> values() const;  // when known()
  std::vector<std::string> exprs() const;
};

// Writes the node as Python int arithmetic when it is one of the shape ops on static values or small integer
// constants; returns false (nothing written) otherwise, and the node's handler runs.
bool lowerToStatic(PyNode& p);

// Input i as a static value: a lowered value or a small integer constant (scalar or 1-D); nullopt otherwise.
std::optional<StaticValue> staticInput(PyNode& p, size_t i);

// The tensor a static value stands for, as a Python expression (`T.` prefix).
std::string materialisedTensor(const StaticValue& s);

// A Python literal for a small non-trainable constant (int/bool scalars and 1-D tensors up to
// kMaxLiteralElements, float32/float64 scalars) as a tensor on `device` (a Python expression, "" for none);
// nullopt when the constant must stay a weight.
std::optional<std::string> tensorLiteral(const ir::Tensor& t, const std::string& device);

}  // namespace fb::codegen
