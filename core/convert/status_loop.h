#pragma once
// The per-node bookkeeping every direction shares, the conversions (node_walk.cpp) and code generation
// (codegen/code_generator.cpp) alike: one report per node, in graph order with a node's subgraph nodes after it,
// and the one rule that turns what a node's handler did into the node's status and message:
//   the handler returns          -> `converted` when it changed or replaced the node (or, in code generation, wrote
//                                   its code), else `unchanged`; the message is the handler's note
//   it throws Unsupported        -> `unsupported`, the message its reason (no handler at all is reported that way)
//   it throws anything else      -> `failed`, the message the exception's text (out of memory said in words)
#include <functional>
#include <string>
#include <vector>

#include "convert/handler.h"
#include "convert/node_status.h"

namespace fb::convert {

class StatusLoop {
 public:
  struct Rules {
    // Code generation: a handler that returns has written the node's code, whatever the context says.
    bool returnMeansConverted = false;
    // The step a `failed` message names when the exception is running out of memory.
    std::string failing = "converting this node";
  };

  StatusLoop(std::vector<NodeReport>& reports, Rules rules);

  // Opens the node's report (id, label, op type, domain) before any of its subgraph nodes'; returns its slot.
  size_t open(const ir::Node& node);
  // The report in `slot`. Opening another report may move it: hold the slot, not the reference.
  NodeReport& report(size_t slot) { return reports_[slot]; }

  // The node stays as it is: status `kept` with `why`.
  void keep(size_t slot, std::string why);
  // Runs `handle` (which decides the node through ctx: finds its handler and runs it, or throws Unsupported) and
  // records the verdict in the slot's report by the rule above: status, message, the context's warnings (after
  // any the report holds), new nodes and whether only attributes changed. Returns the status.
  NodeStatus decide(size_t slot, HandlerContext& ctx, const std::function<void()>& handle);

 private:
  std::vector<NodeReport>& reports_;
  Rules rules_;
};

}  // namespace fb::convert
