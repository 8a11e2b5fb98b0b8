#pragma once
// A handler converts one node of a source dialect for a target opset (tf2onnx / version_converter style:
// one small unit per op and version). It rewrites the graph in place through the IR API and reports through
// the context; throwing marks the node `failed` with the exception's message.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::convert {

struct HandlerContext {
  ir::Model& model;
  ir::Graph& graph;             // the graph the node is in (subgraphs are converted too)
  int64_t sourceOpset = 0;      // the model's opset for the node's source domain
  int64_t targetOpset = 0;      // target ONNX opset
  std::vector<uint64_t> newNodes;    // ids of nodes the handler created (filled by the handler)
  std::vector<std::string> warnings; // attributes it did not use, semantics it approximated...
  bool replaced = false;             // the handler removed the node and put others in its place
  bool changed = false;              // the handler edited the node in place

  // Convenience for handlers: a new node before `at`, recorded in newNodes, origins copied from `at`.
  ir::Node* insertNode(ir::Node& at, std::string opType, const std::vector<ir::Value*>& inputs,
                       const std::vector<ir::Value*>& outputs, std::string domain = "");
  // A fresh value named after `base`.
  ir::Value* newValue(const std::string& base) { return graph.createUniqueValue(base); }
  // An initializer holding `values` (int64), named after `base`.
  ir::Value* constantInt64(const std::string& base, const std::vector<int64_t>& values, bool asScalar = false);
  ir::Value* constantFloat(const std::string& base, const std::vector<float>& values, bool asScalar = false);
  // Removes `n` after its outputs have been re-produced by new nodes.
  void removeReplaced(ir::Node& n);
};

using HandlerFn = std::function<void(ir::Node& node, HandlerContext& ctx)>;

struct HandlerInfo {
  std::string domain;      // source domain: "" for ONNX, "oneflow" for OneFlow ops
  std::string opType;      // source op type
  int64_t sinceVersion = 1;  // lowest target opset this handler produces valid output for
  std::string description;   // one line, printed by `flowbridge-cli ops`
  HandlerFn fn;
};

}  // namespace fb::convert
