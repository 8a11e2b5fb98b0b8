#pragma once
// A handler converts one node of a source dialect for a target opset (tf2onnx / version_converter style:
// one small unit per op and version). It rewrites the graph in place through the IR API and reports through
// the context; throwing marks the node `failed` with the exception's message.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/model.h"

namespace fb::codegen {
class PyNode;  // codegen/py_node.h
}

namespace fb::schema {
struct ShapeFacts;  // schema/shape_facts.h
}

namespace fb::convert {

// Thrown by a handler that cannot express the node at the target opset; the node becomes `unsupported`
// with this reason (any other exception makes it `failed`).
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A standalone model (a function body instantiated for one node) converted to a target opset by the pipeline the
// handler runs in, without passes or check: what HandlerContext::convertBody gives back.
struct BodyConversion {
  std::unique_ptr<ir::Model> model;  // the converted body; null when one of its nodes did not convert
  std::string refusal;               // then why: "<op>: <message>" of the first such node, or the pipeline's error
};
using BodyConverter = std::function<BodyConversion(const ir::Model& body, int64_t targetOpset)>;

struct HandlerContext {
  // Made for a node of `g`; the pipeline then sets the opsets, the dry run and the lookups.
  HandlerContext(ir::Model& m, ir::Graph& g) : model(m), graph(g) {}
  ir::Model& model;
  ir::Graph& graph;                   // the graph the node is in (subgraphs are converted too)
  int64_t sourceOpset = 0;            // the model's opset for the node's source domain
  int64_t targetOpset = 0;            // target ONNX opset
  std::vector<uint64_t> newNodes;     // ids of nodes the handler created (filled by the handler)
  std::vector<ir::Node*> created;     // the same nodes, so the pipeline need not search the graph for them
  std::vector<std::string> warnings;  // attributes it did not use, semantics it approximated...
  bool replaced = false;              // the handler removed the node and put others in its place
  bool changed = false;               // the handler edited the node in place
  std::string note;                   // one line on what the handler did, for the report
  bool attributesOnly = false;        // all it did was spell out or drop attributes at values that mean the same
  codegen::PyNode* py = nullptr;      // ONNX -> Python handlers write code through it (direction "onnx-python")
  // Converts a body the handler builds (a function body to put in the node's place) in the same direction; set by
  // the conversion pipeline, null where no model is built (code generation).
  BodyConverter convertBody;

  // In a dry run handlers decide and report but must not touch the graph: they call commit() right
  // before their first edit and return when it says no.
  bool dryRun = false;
  // Dry runs: the handler chose to put a body in the node's place (already converted to the target), which
  // commit() alone does not tell from an edit of the node itself.
  bool wouldReplace = false;
  bool commit() {
    changed = true;
    return !dryRun;
  }

  // What is known about values: element types (propagated through the graph) and, outside dry runs,
  // shape facts for the main graph (inferred types, integer values that follow from static shapes).
  // Facts cost a round of libonnx shape inference, so the pipeline computes them on first request.
  const std::unordered_map<const ir::Value*, ir::DataType>* elemTypes = nullptr;
  std::function<const schema::ShapeFacts*()> facts;
  std::unordered_map<const ir::Value*, std::optional<int64_t>>* rankCache = nullptr;
  const ir::TypeInfo* inferredType(const ir::Value* v) const;
  ir::DataType elemType(const ir::Value* v) const;
  std::optional<int64_t> rank(const ir::Value* v) const;
  std::optional<std::vector<int64_t>> staticShape(const ir::Value* v) const;
  // The int64 contents of a value that is an initializer or the output of a Constant node.
  std::optional<std::vector<int64_t>> constantInts(const ir::Value* v) const;
  std::optional<std::vector<double>> constantDoubles(const ir::Value* v) const;
  std::optional<int64_t> rankOf(const ir::Value* v, int depth) const;
  // Detaches input `i` of `n`; a Constant node or initializer left without users goes too.
  void dropInput(ir::Node& n, size_t i);

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
  std::string domain;        // source domain: "" for ONNX, "oneflow" for OneFlow ops
  std::string opType;        // source op type
  int64_t sinceVersion = 1;  // lowest target opset this handler produces valid output for
  std::string description;   // one line, printed by `flowbridge-cli ops`
  HandlerFn fn;
};

}  // namespace fb::convert
