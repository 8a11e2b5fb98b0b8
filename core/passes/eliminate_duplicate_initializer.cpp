// Byte-identical initializers (same type, dims and data) are one constant: readers of the later ones
// read the first. Tensors are hashed by type, dims and sampled bytes, so distinct weights are never compared whole.
#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <string_view>
#include <unordered_map>

#include <absl/container/flat_hash_map.h>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"
#include "util/idle_memory.h"

namespace fb::passes {
namespace {

constexpr size_t kFingerprintSamples = 65;  // 64 spread over the bytes, and the last byte
constexpr size_t kRememberFrom = 2 * 4096;

uint64_t fingerprint(std::span<const std::byte> b) {
  uint64_t h = 1469598103934665603ull ^ b.size();
  const size_t step = std::max<size_t>(1, b.size() / (kFingerprintSamples - 1));
  for (size_t k = 0; k < b.size(); k += step) h = (h ^ static_cast<uint8_t>(b[k])) * 1099511628211ull;
  if (!b.empty()) h = (h ^ static_cast<uint8_t>(b.back())) * 1099511628211ull;
  return h;
}

class EliminateDuplicateInitializer final : public GraphPass {
 public:
  std::string_view name() const override { return "eliminate_duplicate_initializer"; }
  std::string_view description() const override { return "Merge initializers with identical type, dims and bytes"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    // Graph inputs can be fed other data and outputs must keep their names: neither takes part.
    // One hash table keyed by type, dims and a fingerprint of a few sampled bytes (weights of equal shape
    // almost always differ early): only tensors that agree on all three are compared in full.
    absl::flat_hash_map<uint64_t, std::vector<ir::Value*>> candidates;
    candidates.reserve(g.initializers().size());
    std::vector<ir::Value*> dropped;
    MappedReadBudget budget;  // reading every weight would otherwise bring the whole file back into memory
    for (const auto& t : g.initializers()) {
      if (t->dtype == ir::DataType::String) continue;
      ir::Value* v = g.findValue(t->name);
      if (!v || v->isGraphInput() || rw.pinned(v)) continue;
      auto b = t->bytes();
      uint64_t key = fingerprintOf(*t, b, budget) ^ (static_cast<uint64_t>(t->dtype) * 0x9E3779B97F4A7C15ull);
      for (auto d : t->dims) key = (key ^ static_cast<uint64_t>(d)) * 1099511628211ull;
      auto& same = candidates[key];
      ir::Value* match = nullptr;
      for (ir::Value* u : same) {
        const ir::Tensor* o = u->initializer();
        if (o->dtype != t->dtype || o->dims != t->dims) continue;
        auto c = o->bytes();
        if (c.size() == b.size() && std::memcmp(c.data(), b.data(), b.size()) == 0) {
          match = u;
          break;
        }
      }
      if (!match) {
        same.push_back(v);
        continue;
      }
      g.replaceAllUses(v, match);
      dropped.push_back(v);
    }
    g.removeInitializers(dropped);
    rw.change.initializersRemoved += dropped.size();
    return rw.change;
  }

 private:
  // Bytes in a mapped file never change while it is mapped, so their fingerprint is taken once per pipeline run:
  // the pass runs after every round that changed the model, and sampling the weights again each time faulted
  // their pages back in (a third of swin_t's pass time).
  absl::flat_hash_map<std::pair<const std::byte*, size_t>, uint64_t> mappedPrints_;

  uint64_t fingerprintOf(const ir::Tensor& t, std::span<const std::byte> b, MappedReadBudget& budget) {
    // Small tensors' samples lie on a page or two: taking them again costs less than remembering them.
    const bool mapped = b.size() >= kRememberFrom && t.mappedFile() != nullptr;
    if (mapped)
      if (auto it = mappedPrints_.find(std::pair(b.data(), b.size())); it != mappedPrints_.end()) return it->second;
    // At most one page per sample comes in, not the whole tensor.
    budget.read(std::min(b.size(), kFingerprintSamples * 4096));
    const uint64_t h = fingerprint(b);
    if (mapped) mappedPrints_.emplace(std::pair(b.data(), b.size()), h);
    return h;
  }
};

}  // namespace
void registerEliminateDuplicateInitializer(bool inDefault) { registerPass<EliminateDuplicateInitializer>(inDefault); }
}  // namespace fb::passes
