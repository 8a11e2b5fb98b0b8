#pragma once
// What `flowbridge-cli diff` prints: the JSON with every pair, and the text (a summary line, the signature, then
// the changes grouped by block, most significant first). Nodes without a name are called what FlowBridge calls
// them everywhere ("Op#id", ir/node_label.h). The text is escaped for a terminal (util/printable.h), line by line;
// the JSON holds the model's strings as they are.
#include <string>

#include <nlohmann/json.hpp>

#include "diff/model_diff.h"

namespace fb::diff {

nlohmann::json diffJson(const ModelDiff& d, const std::string& pathA, const std::string& pathB);

struct TextOptions {
  size_t maxRows = 40;   // rows of changes shown (nodes and regions; weights with `weights`)
  bool weights = false;  // one row per weight that differs, with its largest differences
};
std::string diffText(const ModelDiff& d, const std::string& pathA, const std::string& pathB, const TextOptions& o);

// "12 same, 3 changed, 1 only in A, 0 only in B, 2 regions (9 -> 2 nodes)".
std::string nodeSummary(const DiffCounts& c);

}  // namespace fb::diff
