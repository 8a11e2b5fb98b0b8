#pragma once
// OneFlow AttrValue -> IR attribute. ONNX attribute kinds are coarser than OneFlow's (int32, int64 and bool are
// all INT; float and double are FLOAT), so the OneFlow case name ("at_bool", "at_double", ...) is kept in the
// attribute's doc string: the app shows it, and nothing about the original is lost but double precision.
#include <string>

#include "ir/attribute.h"

namespace oneflow {
class AttrValue;
}

namespace fb::oneflow {

// Throws std::runtime_error for an AttrValue with no case set.
ir::Attribute toIrAttribute(const std::string& name, const ::oneflow::AttrValue& v);

// The OneFlow case name recorded by toIrAttribute ("at_int32", ...), empty for attributes made elsewhere.
std::string oneflowAttrCase(const ir::Attribute& a);

}  // namespace fb::oneflow
