#pragma once
// FlowBridge's own facts about the default-domain op schemas of opsets 18-26, which libonnx 1.12 (schemas up
// to opset 17) does not have. Source: /work/shared/docs/onnx-opsets-after-17.md (onnx's Changelog.md diffed
// version by version). Only what the converter asks: since-versions, first opsets of new ops, input/output
// counts and attributes with their defaults.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schema/opsets.h"

namespace fb::schema::opsets_18_26 {

struct AttrFact {
  std::string name;
  std::string defaultValue;  // as text ("0", "1.0", "stretch", "[]"); empty: required or no default
};

struct SchemaFact {
  std::string op;
  int64_t since = 0;  // this version's since_version (18..26)
  int minInputs = 0, maxInputs = 0, minOutputs = 0, maxOutputs = 0;
  std::vector<AttrFact> attributes;  // every attribute of this version
  std::string change;                // what changed against the previous version (for messages)
};

// The version of `op` that default-domain `opset` (> 17) selects when it is newer than 17, else nullptr
// (the op is unchanged since opset 17, or unknown: ask libonnx).
const SchemaFact* schemaFact(const std::string& op, int64_t opset);
// The first opset of an op that only exists from opset 18 on, or 0.
int64_t firstOpset(const std::string& op);
// Every version in the table, for listings and tests.
const std::vector<SchemaFact>& allSchemaFacts();
// The default (as text) of attribute `name` in `fact`, nullopt when the version has no such attribute.
std::optional<std::string> attributeDefault(const SchemaFact& fact, const std::string& name);

}  // namespace fb::schema::opsets_18_26
