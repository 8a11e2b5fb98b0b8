#pragma once
// The type of a value: tensors with fixed/symbolic/unknown dims, and the container types ONNX allows.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/data_type.h"
#include "ir/rare.h"

namespace fb::ir {

struct Dim {
  enum class Kind : uint8_t { Unknown, Value, Param };
  Kind kind = Kind::Unknown;
  int64_t value = 0;
  // Rare holders: the dims of a large graph's initializer types are nearly all plain numbers.
  RareString param;
  RareString denotation;

  static Dim of(int64_t v) {
    Dim d;
    d.kind = Kind::Value;
    d.value = v;
    return d;
  }
  static Dim named(std::string p) {
    Dim d;
    d.kind = Kind::Param;
    d.param = std::move(p);
    return d;
  }
  bool isValue() const { return kind == Kind::Value; }
  bool operator==(const Dim&) const = default;
};

using Shape = std::vector<Dim>;

struct TypeInfo {
  enum class Kind : uint8_t { None, Tensor, SparseTensor, Sequence, Map, Optional };
  Kind kind = Kind::None;
  DataType elemType = DataType::Undefined;  // tensor / sparse tensor element; map key type
  std::optional<Shape> shape;               // tensor / sparse tensor; nullopt = rank unknown
  RareOptional<TypeInfo> inner;             // sequence / optional element, map value
  RareString denotation;

  static TypeInfo tensor(DataType t, std::optional<Shape> s = std::nullopt) {
    TypeInfo ti;
    ti.kind = Kind::Tensor;
    ti.elemType = t;
    ti.shape = std::move(s);
    return ti;
  }
  bool isTensor() const { return kind == Kind::Tensor; }
  // All dims known as numbers.
  bool hasStaticShape() const;
  std::optional<std::vector<int64_t>> staticDims() const;
  // "float[1,3,224,224]", "int64[batch,?]", "seq(float[?])".
  std::string toString() const;
  bool operator==(const TypeInfo& o) const;
};

std::string shapeToString(const Shape& s);

}  // namespace fb::ir
