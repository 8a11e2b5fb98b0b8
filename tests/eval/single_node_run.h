#pragma once
// Runs one node of the default domain on the evaluator, as a one-node model (the kernel tests' way to call a
// kernel with the runner around it: optional inputs omitted, outputs by position, errors as RunError).
#include <QtTest>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/runtime/node_eval.h"
#include "eval/runtime/run.h"
#include "ir/graph.h"
#include "ir/model.h"

namespace fb::test {

using NodeInputs = std::vector<std::optional<eval::Tensor>>;

// The node's outputs at `opset`; an empty optional input is omitted.
inline std::vector<eval::Tensor> runNode(const std::string& op, int64_t opset, const NodeInputs& ins,
                                         std::vector<ir::Attribute> attrs, size_t outputs, int threads = 1) {
  ir::Model m;
  m.setOpsetVersion("", opset);
  ir::Graph& g = m.graph();
  std::map<std::string, eval::Value> feed;
  std::vector<ir::Value*> in;
  for (size_t k = 0; k < ins.size(); ++k) {
    if (!ins[k]) {
      in.push_back(nullptr);
      continue;
    }
    ir::Value* v = g.getOrCreateValue("in" + std::to_string(k));
    g.addInput(v);
    feed[v->name()] = *ins[k];
    in.push_back(v);
  }
  std::vector<ir::Value*> out;
  for (size_t k = 0; k < outputs; ++k) out.push_back(g.getOrCreateValue("out" + std::to_string(k)));
  ir::Node* n = g.addNode(op, in, out);
  n->attributes = std::move(attrs);
  for (ir::Value* v : out) g.addOutput(v);
  eval::RunOptions o;
  o.threads = threads;
  std::vector<eval::Tensor> result;
  for (auto& [name, v] : eval::runModel(m, feed, o).outputs) result.push_back(v.tensor());
  return result;
}

// The kind of error running the node raises (empty when it runs, or when the message is not one line).
inline std::optional<eval::RunError::Kind> nodeFailure(const std::string& op, int64_t opset, const NodeInputs& ins,
                                                       std::vector<ir::Attribute> attrs, size_t outputs = 1) {
  try {
    runNode(op, opset, ins, std::move(attrs), outputs);
  } catch (const eval::RunError& e) {
    const std::string what = e.what();
    if (what.empty() || what.find('\n') != std::string::npos) {
      qWarning("not a one-line message: %s", e.what());
      return std::nullopt;
    }
    return e.kind();
  }
  return std::nullopt;
}

// The node's outputs from eval::evaluateNode (as constant folding calls the kernels: no run around them).
inline std::vector<eval::Tensor> evaluateOp(const std::string& op, const std::vector<const eval::Tensor*>& ins,
                                            std::vector<ir::Attribute> attrs, int64_t opset) {
  ir::Node n;
  n.opType = op;
  n.attributes = std::move(attrs);
  return eval::evaluateNode(n, ins, opset);
}

// The kind of RunError `f` throws, or nothing when it does not throw.
template <typename F>
std::optional<eval::RunError::Kind> errorOf(F f) {
  try {
    f();
  } catch (const eval::RunError& e) {
    return e.kind();
  }
  return std::nullopt;
}

}  // namespace fb::test
