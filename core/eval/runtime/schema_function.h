#pragma once
// The evaluator's fallback for a default-domain op no kernel family implements: when libonnx 1.12's schema for
// the op at the model's opset defines a function body (OpSchema::GetFunction, or BuildContextDependentFunction
// from the node's attributes and its inputs' types), the runner expands the node into that body and runs it, as
// ONNX's backend tests do for their `_expanded` cases.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "eval/runtime/value.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace fb::eval {

struct SchemaFunction {
  // The body with the calling node's attributes (and the schema's defaults for those it omits) bound; its inputs
  // and outputs are the op's formal inputs and outputs.
  std::shared_ptr<const ir::Graph> body;
  int64_t opset = 0;  // the default-domain opset the body's nodes mean
};

// Builds the body for `node` given its inputs at `opset`; null when libonnx has no function body for the op there
// (unknown op, no function, or the op changed after opset 17, where libonnx's schemas stop). Throws
// RunError(Unsupported) when libonnx has one but cannot build or FlowBridge cannot import it.
std::shared_ptr<const SchemaFunction> buildSchemaFunction(const ir::Node& node, const std::vector<const Value*>& inputs,
                                                          int64_t opset);

// The bodies a run has expanded, by node. A body is built once for each op, opset, attributes and input types
// in the process and kept (never freed): tensors a body's constants give out share the body's bytes, and they may
// outlive the run (a model output), so a body must outlive every run that used it.
class SchemaFunctions {
 public:
  // The body for `node` (null when there is none; then the node stays unsupported).
  const SchemaFunction* find(const ir::Node& node, const std::vector<const Value*>& inputs, int64_t opset);

 private:
  struct Known {
    std::string signature;  // opset and input types it was built for
    std::shared_ptr<const SchemaFunction> function;
  };
  std::unordered_map<const ir::Node*, Known> byNode_;
};

}  // namespace fb::eval
