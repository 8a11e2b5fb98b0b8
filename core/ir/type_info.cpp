#include "ir/type_info.h"

namespace fb::ir {

bool TypeInfo::hasStaticShape() const {
  if (!shape) return false;
  for (const auto& d : *shape)
    if (!d.isValue()) return false;
  return true;
}

std::optional<std::vector<int64_t>> TypeInfo::staticDims() const {
  if (!hasStaticShape()) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(shape->size());
  for (const auto& d : *shape) out.push_back(d.value);
  return out;
}

std::string shapeToString(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ",";
    switch (s[i].kind) {
      case Dim::Kind::Value:
        out += std::to_string(s[i].value);
        break;
      case Dim::Kind::Param:
        out += s[i].param;
        break;
      case Dim::Kind::Unknown:
        out += "?";
        break;
    }
  }
  return out + "]";
}

std::string TypeInfo::toString() const {
  switch (kind) {
    case Kind::None:
      return "?";
    case Kind::Tensor:
    case Kind::SparseTensor: {
      std::string out = kind == Kind::SparseTensor ? "sparse(" : "";
      out += dataTypeName(elemType);
      out += shape ? shapeToString(*shape) : std::string("[...]");
      return kind == Kind::SparseTensor ? out + ")" : out;
    }
    case Kind::Sequence:
      return "seq(" + (inner ? inner->toString() : std::string("?")) + ")";
    case Kind::Optional:
      return "optional(" + (inner ? inner->toString() : std::string("?")) + ")";
    case Kind::Map:
      return "map(" + std::string(dataTypeName(elemType)) + "," + (inner ? inner->toString() : std::string("?")) + ")";
  }
  return "?";
}

bool TypeInfo::operator==(const TypeInfo& o) const {
  if (kind != o.kind || elemType != o.elemType || shape != o.shape || denotation != o.denotation) return false;
  if (!inner || !o.inner) return !inner && !o.inner;
  return *inner == *o.inner;
}

}  // namespace fb::ir
