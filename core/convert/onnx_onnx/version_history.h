#pragma once
// Where versions of an ONNX op differ in ways a node's text does not show: an attribute that one version
// has and another lacks, or whose default changed; an input or output that appears, becomes optional or
// changes type. Every such difference in libonnx 1.12's schemas (opsets 1-17) has an entry here saying how
// retargeting keeps the node's meaning; test_convert_version_history derives the differences from the
// schemas and fails for any without an entry.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/attribute.h"

namespace fb::convert::onnx_onnx {

struct AttributeHistory {
  enum class Handling {
    // Versions without the attribute behave as if it held `implicit`: the compatible version step drops it
    // only when the node's value means that, and spells `implicit` out when a version that has it defaults
    // to something else.
    Implicit,
    // An adapter (core/convert/onnx_onnx/) owns the attribute; the compatible version step leaves it alone.
    Adapter,
    // The versions' defaults differ in spelling only (GRU-1's "foward"); nothing to do.
    SameMeaning,
  };
  std::string op;
  std::string attribute;
  Handling handling = Handling::Implicit;
  // Whether a value means what versions without the attribute do (Implicit only).
  std::function<bool(const ir::Attribute&)> meansImplicit;
  // The value to write when the target has the attribute with another default; nullopt when versions without
  // the attribute have no value that a later version could spell (then such conversions are refused).
  std::optional<ir::Attribute> implicit;
  std::string why;  // for the reader, and for messages
};

// The entry for (op, attribute), or nullptr.
const AttributeHistory* attributeHistory(const std::string& op, const std::string& attribute);
const std::vector<AttributeHistory>& attributeHistories();

// An op version whose inputs/outputs differ from the previous version's (names, optionality, output types).
struct SignatureChange {
  enum class Handling {
    Adapter,  // a dedicated adapter converts across the change (registered on both sides)
    Checked,  // the compatible version step's schema check refuses what the other side cannot express
  };
  std::string op;
  int64_t fromVersion = 0;  // since_version of the earlier schema
  int64_t toVersion = 0;    // since_version of the later schema
  Handling handling = Handling::Adapter;
  std::string why;
};

const std::vector<SignatureChange>& signatureChanges();

}  // namespace fb::convert::onnx_onnx
