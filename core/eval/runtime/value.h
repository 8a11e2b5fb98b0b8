#pragma once
// What a graph edge carries at run time: a tensor, a sequence of tensors, or an empty optional. An optional that
// holds something is represented by what it holds (OptionalHasElement asks isNone()).
#include <memory>
#include <string>
#include <vector>

#include "eval/runtime/tensor.h"

namespace fb::eval {

class Value {
 public:
  enum class Kind { Tensor, Sequence, None };
  Value() : kind_(Kind::None) {}
  Value(Tensor t) : kind_(Kind::Tensor), tensor_(std::move(t)) {}  // NOLINT: a tensor is a value
  static Value sequence(std::vector<Tensor> items, ir::DataType elementType);
  static Value none() { return Value(); }

  Kind kind() const { return kind_; }
  bool isTensor() const { return kind_ == Kind::Tensor; }
  bool isSequence() const { return kind_ == Kind::Sequence; }
  bool isNone() const { return kind_ == Kind::None; }
  // Throw RunError(BadInput) naming what was expected when the value is of another kind.
  const Tensor& tensor() const;
  const std::vector<Tensor>& items() const;
  ir::DataType sequenceElementType() const { return elementType_; }
  // Bytes held (shared bytes counted once per value): for memory accounting.
  size_t byteSize() const;

 private:
  Kind kind_;
  Tensor tensor_;
  std::shared_ptr<const std::vector<Tensor>> items_;
  ir::DataType elementType_ = ir::DataType::Undefined;
};

std::string describe(const Value& v);

}  // namespace fb::eval
