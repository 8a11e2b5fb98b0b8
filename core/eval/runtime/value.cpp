#include "eval/runtime/value.h"

#include "eval/runtime/run_error.h"

namespace fb::eval {

Value Value::sequence(std::vector<Tensor> items, ir::DataType elementType) {
  Value v;
  v.kind_ = Kind::Sequence;
  v.items_ = std::make_shared<const std::vector<Tensor>>(std::move(items));
  v.elementType_ = elementType;
  return v;
}

const Tensor& Value::tensor() const {
  if (kind_ != Kind::Tensor)
    badInput(std::string("expected a tensor, got ") + (isNone() ? "an empty optional" : "a sequence"));
  return tensor_;
}

const std::vector<Tensor>& Value::items() const {
  if (kind_ != Kind::Sequence)
    badInput(std::string("expected a sequence, got ") + (isNone() ? "an empty optional" : "a tensor"));
  return *items_;
}

size_t Value::byteSize() const {
  if (isTensor()) return tensor_.byteSize();
  size_t n = 0;
  if (isSequence())
    for (const auto& t : *items_) n += t.byteSize();
  return n;
}

std::string describe(const Value& v) {
  if (v.isTensor()) return describe(v.tensor());
  if (v.isNone()) return "empty optional";
  return "sequence of " + std::to_string(v.items().size()) + " " +
         std::string(ir::dataTypeName(v.sequenceElementType()));
}

}  // namespace fb::eval
