#pragma once
// What happened to each source node in a conversion. Nothing is dropped silently.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fb::convert {

enum class NodeStatus {
  Unchanged,    // valid as it is at the target opset
  Converted,    // rewritten by a handler; `newNodes` lists what replaced it
  Unsupported,  // no handler at this target opset; `lowestOpset` says where one starts, if anywhere
  Failed,       // the handler threw or produced an invalid node; `message` says why
  Kept,         // custom domain, passed through as it is
};

std::string_view statusName(NodeStatus s);

struct NodeReport {
  uint64_t nodeId = 0;
  std::string nodeName;
  std::string opType;
  std::string domain;
  NodeStatus status = NodeStatus::Unchanged;
  std::string message;
  std::vector<std::string> warnings;  // e.g. an attribute the handler did not use
  std::vector<uint64_t> newNodes;     // ids of the nodes that replaced it
  std::optional<int64_t> lowestOpset;
  // Converted by spelling out or dropping attributes whose values mean the same at both opsets, nothing else:
  // a trivial conversion, which the app lists apart from real rewrites.
  bool attributesOnly = false;
};

}  // namespace fb::convert
