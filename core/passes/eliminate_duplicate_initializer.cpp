// Byte-identical initializers (same type, dims and data) are one constant: readers of the later ones
// read the first. Only same-type-and-dims groups are hashed, so big distinct weights cost a compare of dims.
#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <string_view>
#include <unordered_map>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

uint64_t fingerprint(std::span<const std::byte> b) {
  uint64_t h = 1469598103934665603ull ^ b.size();
  const size_t step = std::max<size_t>(1, b.size() / 64);
  for (size_t k = 0; k < b.size(); k += step) h = (h ^ static_cast<uint8_t>(b[k])) * 1099511628211ull;
  if (!b.empty()) h = (h ^ static_cast<uint8_t>(b.back())) * 1099511628211ull;
  return h;
}

class EliminateDuplicateInitializer final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_duplicate_initializer"; }
  std::string_view description() const override { return "Merge initializers with identical type, dims and bytes"; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    // Graph inputs can be fed other data and outputs must keep their names: neither takes part.
    std::map<std::pair<int32_t, std::vector<int64_t>>, std::vector<ir::Value*>> groups;
    for (const auto& t : g.initializers()) {
      ir::Value* v = g.findValue(t->name);
      if (!v || v->isGraphInput() || rw.pinned(v) || t->dtype == ir::DataType::String) continue;
      groups[{static_cast<int32_t>(t->dtype), t->dims}].push_back(v);
    }
    std::vector<ir::Value*> dropped;
    for (auto& [key, vals] : groups) {
      if (vals.size() < 2) continue;
      // Weights of equal shape almost always differ early: a fingerprint of a few sampled bytes sorts
      // them apart, and only equal fingerprints are compared in full.
      std::unordered_map<uint64_t, std::vector<ir::Value*>> byPrint;
      for (ir::Value* v : vals) {
        auto b = v->initializer()->bytes();
        auto& same = byPrint[fingerprint(b)];
        ir::Value* match = nullptr;
        for (ir::Value* u : same) {
          auto c = u->initializer()->bytes();
          if (c.size() == b.size() && std::memcmp(c.data(), b.data(), b.size()) == 0) match = u;
        }
        if (!match) {
          same.push_back(v);
          continue;
        }
        g.replaceAllUses(v, match);
        dropped.push_back(v);
      }
    }
    for (ir::Value* v : dropped) {
      g.removeInitializer(v);
      ++rw.change.initializersRemoved;
    }
    return rw.change;
  }
};

}  // namespace
void registerEliminateDuplicateInitializer(bool inDefault) { registerPass<EliminateDuplicateInitializer>(inDefault); }
}  // namespace fb::passes
