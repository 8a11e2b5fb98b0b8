// The check of a node-heavy model, its main graph taken a window of nodes at a time: the checker and strict
// inference see each window as a graph of its own, whose inputs are the values earlier windows made (typed as
// inference typed them there), the graph inputs and the initializers it reads. Inference runs forward node by
// node, so the types are the ones whole-graph inference finds; the proto in memory is one window's instead of
// the whole graph's (100k nodes: about 190 MB of checker memory on top of the model, most of the conversion's
// peak). Where a window boundary would need a type inference could not give in full (no shape, not a tensor),
// or the graph has parts a window cannot carry (sparse initializers, quantization annotations, IR before 4,
// where initializers must be graph inputs), the caller checks the model whole instead.
#include <algorithm>
#include <unordered_map>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "check/checker_proto.h"
#include "check/onnx_check.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/tensor.h"

namespace fb {
namespace {

using checker_proto::guarded;

bool typeCarriesAcross(const onnx::TypeProto& t) {
  return t.has_tensor_type() && t.tensor_type().has_elem_type() && t.tensor_type().has_shape();
}

}  // namespace

std::optional<CheckResult> checkModelInWindows(const ir::Model& m, size_t windowNodes, bool strict) {
  const ir::Graph& g = m.graph();
  if (windowNodes == 0 || m.irVersion < 4 || !g.sparseInitializers().empty() || !g.quantizationAnnotations.empty())
    return std::nullopt;

  std::vector<const ir::Node*> order;
  order.reserve(g.nodeCount());
  absl::flat_hash_map<const ir::Node*, size_t> position;
  position.reserve(g.nodeCount());
  for (const auto& n : g.nodes()) {
    position.emplace(n.get(), order.size());
    order.push_back(n.get());
  }
  auto producedAt = [&](const ir::Value* v) -> std::optional<size_t> {
    if (!v->producer()) return std::nullopt;
    auto it = position.find(v->producer());
    return it == position.end() ? std::nullopt : std::optional<size_t>(it->second);
  };

  // What each node reads (its inputs and what its subgraphs read from this graph), and the last node that
  // reads each value.
  std::vector<std::vector<const ir::Value*>> reads(order.size());
  absl::flat_hash_map<const ir::Value*, size_t> lastRead;
  auto readFrom = [&](const ir::Value* v, size_t b) {
    auto it = lastRead.find(v);
    return it != lastRead.end() && it->second >= b;
  };
  for (size_t i = 0; i < order.size(); ++i) {
    auto& r = reads[i];
    for (const ir::Value* v : order[i]->inputs())
      if (v && !v->name().empty()) r.push_back(v);
    for (const ir::Graph* sg : order[i]->subgraphs())
      for (const auto& name : sg->capturedNames())
        if (const ir::Value* v = g.findValue(name)) r.push_back(v);
    for (const ir::Value* v : r) lastRead[v] = i;
  }

  CheckResult result;
  std::unordered_map<std::string, onnx::TypeProto> carried;  // types made by earlier windows, still to be read
  for (size_t a = 0; a < order.size() || a == 0; a += windowNodes) {
    const size_t b = std::min(order.size(), a + windowNodes);
    google::protobuf::Arena arena;
    onnx::ModelProto& p = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
    onnx::GraphProto& gp = *p.mutable_graph();
    bool carriedMissing = false;
    guarded(result, [&] {
      onnxfmt::exportModelHeader(m, p, checker_proto::markPlaceholder);
      if (!g.name.empty()) gp.set_name(g.name);
      absl::flat_hash_set<const ir::Value*> declared;
      auto declare = [&](const ir::Value* v) {
        if (!declared.insert(v).second) return;
        if (v->isGraphInput()) onnxfmt::exportValueInfoProto(*v, *gp.add_input());
        if (const ir::Tensor* t = v->initializer())
          onnxfmt::exportTensor(*t, *gp.add_initializer(), checker_proto::markPlaceholder);
      };
      if (a == 0) {
        // What no window would otherwise show the checker: every graph input, unread initializers, outputs
        // that no node makes.
        for (const ir::Value* v : g.inputs()) declare(v);
        for (const auto& t : g.initializers())
          if (const ir::Value* v = g.findValue(t->name); v && !lastRead.count(v)) declare(v);
      }
      for (size_t i = a; i < b; ++i) {
        for (const ir::Value* v : reads[i]) {
          const auto at = producedAt(v);
          if (!at) {
            declare(v);  // graph input or initializer; anything else stays undefined for the checker to name
          } else if (*at < a && declared.insert(v).second) {
            auto it = carried.find(v->name());
            if (it == carried.end()) {
              carriedMissing = true;
              return;
            }
            auto* in = gp.add_input();
            in->set_name(v->name());
            *in->mutable_type() = it->second;
          }
        }
        onnxfmt::exportNodeProto(*order[i], *gp.add_node(), checker_proto::markPlaceholder);
      }
      for (const ir::Value* v : g.outputs()) {
        const auto at = producedAt(v);
        if ((at && *at >= a && *at < b) || (!at && a == 0)) onnxfmt::exportValueInfoProto(*v, *gp.add_output());
      }
      for (const ir::Value* v : g.valueInfos()) {
        const auto at = producedAt(v);
        if (at && *at >= a && *at < b) onnxfmt::exportValueInfoProto(*v, *gp.add_value_info());
      }
      checker_proto::replaceMarked(p);
    });
    if (carriedMissing) return std::nullopt;
    if (!result.ok) return result;
    checker_proto::checkAndInfer(p, strict, result);
    if (!result.ok) return result;
    if (b >= order.size()) break;

    // Carry the types later windows read; drop those no later node reads.
    absl::flat_hash_set<std::string> wanted;
    for (size_t i = a; i < b; ++i)
      for (const ir::Value* v : order[i]->outputs())
        if (v && readFrom(v, b)) wanted.insert(v->name());
    auto take = [&](const onnx::ValueInfoProto& vi) {
      if (wanted.erase(vi.name()) && typeCarriesAcross(vi.type())) carried.emplace(vi.name(), vi.type());
    };
    for (const auto& vi : gp.value_info()) take(vi);
    for (const auto& vi : gp.output()) take(vi);
    for (auto it = carried.begin(); it != carried.end();) {
      const ir::Value* v = g.findValue(it->first);
      it = v && readFrom(v, b) ? std::next(it) : carried.erase(it);
    }
  }
  return result;
}

}  // namespace fb
