// Common subexpression elimination: two nodes with the same op, the same input values and the same
// attributes compute the same outputs, so readers of the later one read the earlier one. Walking in
// order merges whole duplicated chains in one run. Random ops and nodes with subgraphs never merge.
#include <cstring>
#include <unordered_map>

#include <absl/container/flat_hash_map.h>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

bool nondeterministic(const std::string& op) {
  return op.rfind("Random", 0) == 0 || op == "Multinomial" || op == "Bernoulli";
}

void appendRaw(std::string& k, const void* p, size_t n) { k.append(static_cast<const char*>(p), n); }

// A byte key for the node's op, inputs and attributes; empty when the node must not merge.
std::string keyOf(const ir::Node& n) {
  if (!n.isDefaultDomain() || nondeterministic(n.opType) || n.outputs().empty()) return {};
  std::string k = n.opType;
  k += '\0';
  for (ir::Value* v : n.inputs()) appendRaw(k, &v, sizeof(v));
  for (const auto& a : n.attributes) {
    if (!a.graphs.empty() || !a.refAttrName.empty() || !a.sparseTensors.empty() || !a.typeProtos.empty()) return {};
    k += '|';
    k += a.name;
    k += '\0';
    appendRaw(k, &a.type, sizeof(a.type));
    appendRaw(k, &a.i, sizeof(a.i));
    appendRaw(k, &a.f, sizeof(a.f));
    k += a.s;
    k += '\0';
    for (auto x : a.ints) appendRaw(k, &x, sizeof(x));
    k += '\0';
    for (auto x : a.floats) appendRaw(k, &x, sizeof(x));
    k += '\0';
    for (const auto& s : a.strings) k += s + '\0';
    for (const auto& t : a.tensors) {
      if (t.dtype == ir::DataType::String) return {};
      appendRaw(k, &t.dtype, sizeof(t.dtype));
      for (auto d : t.dims) appendRaw(k, &d, sizeof(d));
      auto b = t.bytes();
      k += std::to_string(b.size());
      appendRaw(k, b.data(), b.size());
    }
  }
  return k;
}

class MergeDuplicates final : public GraphPass {
 public:
  std::string_view name() const override { return "merge_duplicates"; }
  std::string_view description() const override {
    return "Merge nodes with the same op, inputs and attributes (common subexpressions)";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  // A duplicate of a node reads the same inputs: one step (to the other readers of its inputs) finds it.
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    absl::flat_hash_map<std::string, ir::Node*> seen;
    seen.reserve(g.nodeCount());
    for (ir::Node* n : nodesToVisit(g)) {
      // A duplicate reads the same first input, so a first input with one reader rules one out (walking in
      // order, a merge only adds readers to values later nodes read): no key to build for most nodes.
      if (const ir::Value* first = n->input(0); first && first->uses().size() < 2) continue;
      std::string key = keyOf(*n);
      if (key.empty()) continue;
      auto [it, fresh] = seen.emplace(std::move(key), n);
      if (fresh) continue;
      ir::Node* first = it->second;
      if (first->outputs().size() != n->outputs().size()) continue;
      bool ok = true;
      for (size_t k = 0; k < n->outputs().size(); ++k) {
        ir::Value* o = n->output(k);
        if (o && (rw.pinned(o) || !first->output(k))) ok = false;
      }
      if (!ok) continue;
      for (size_t k = 0; k < n->outputs().size(); ++k)
        if (ir::Value* o = n->output(k)) rw.replaceValue(o, first->output(k));
      first->origins = mergeOrigins({first, n});
      rw.erase(n);
    }
    return rw.change;
  }
};

}  // namespace
void registerMergeDuplicates(bool inDefault) { registerPass<MergeDuplicates>(inDefault); }
}  // namespace fb::passes
