#include "convert/node_status.h"

namespace fb::convert {

std::string_view statusName(NodeStatus s) {
  switch (s) {
    case NodeStatus::Unchanged:
      return "unchanged";
    case NodeStatus::Converted:
      return "converted";
    case NodeStatus::Unsupported:
      return "unsupported";
    case NodeStatus::Failed:
      return "failed";
    case NodeStatus::Kept:
      return "kept";
  }
  return "?";
}

}  // namespace fb::convert
