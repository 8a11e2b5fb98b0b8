#include "check/axis_ranges.h"

#include <optional>
#include <string>
#include <unordered_set>

namespace fb {
namespace {

std::optional<int64_t> rankOf(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (v->type.isTensor() && v->type.shape) return int64_t(v->type.shape->size());
  if (const ir::Tensor* t = v->initializer()) return int64_t(t->dims.size());
  return std::nullopt;
}

// Axes given as an attribute, or (from the opset where they moved there) as a constant input.
std::optional<std::vector<int64_t>> axesOf(const ir::Node& n, size_t inputIndex) {
  if (n.hasAttr("axes")) return n.attrInts("axes");
  if (n.inputs().size() > inputIndex && n.inputs()[inputIndex])
    if (const ir::Tensor* t = n.inputs()[inputIndex]->initializer()) return t->asInt64();
  return std::nullopt;
}

std::string nodeName(const ir::Node& n) { return n.name.empty() ? n.opType : n.name; }

// The axis that is outside [-rank, rank - 1 + extra], if any.
std::optional<int64_t> outside(const std::vector<int64_t>& axes, int64_t rank, int64_t extra = 0) {
  for (int64_t a : axes)
    if (a < -rank - extra || a > rank - 1 + extra) return a;
  return std::nullopt;
}

void checkNode(const ir::Node& n, std::vector<CheckMessage>& out) {
  if (!n.domain.empty()) return;
  static const std::unordered_set<std::string> kAxisOps = {
      "Concat", "Gather", "GatherElements", "Split", "Softmax", "LogSoftmax", "Hardmax", "ArgMax", "ArgMin"};
  const auto say = [&](const std::string& what, int64_t axis, int64_t rank) {
    out.push_back({nodeName(n), n.opType + ": " + what + " " + std::to_string(axis) +
                                    " is outside the rank of its input (" + std::to_string(rank) + ")"});
  };
  const auto rank = rankOf(n.inputs().empty() ? nullptr : n.inputs()[0]);
  if (!rank) return;
  if (kAxisOps.count(n.opType) && n.hasAttr("axis")) {
    if (auto a = outside({n.attrInt("axis", 0)}, *rank)) say("axis", *a, *rank);
  } else if (n.opType == "Flatten" && n.hasAttr("axis")) {
    // Flatten's axis may also be the rank itself (everything in the first dimension).
    const int64_t a = n.attrInt("axis", 1);
    if (a < -*rank || a > *rank) say("axis", a, *rank);
  } else if (n.opType == "Squeeze" || n.opType.rfind("Reduce", 0) == 0) {
    if (auto axes = axesOf(n, 1))
      if (auto a = outside(*axes, *rank)) say("axis", *a, *rank);
  } else if (n.opType == "Unsqueeze") {
    // The axes index the output, whose rank is the input's plus their count.
    if (auto axes = axesOf(n, 1))
      if (auto a = outside(*axes, *rank, int64_t(axes->size()))) say("axis", *a, *rank + int64_t(axes->size()));
  }
}

void checkGraph(const ir::Graph& g, std::vector<CheckMessage>& out) {
  for (const auto& n : g.nodes()) {
    checkNode(*n, out);
    for (const ir::Graph* body : n->subgraphs()) checkGraph(*body, out);
  }
}

}  // namespace

std::vector<CheckMessage> axisRangeProblems(const ir::Model& m) {
  std::vector<CheckMessage> out;
  checkGraph(m.graph(), out);
  return out;
}

}  // namespace fb
