// Byte-identical initializers (same type, dims and data) are one constant: readers of the later ones
// read the first. Only same-type-and-dims groups are hashed, so big distinct weights cost a compare of dims.
#include <map>
#include <string_view>
#include <unordered_map>

#include "passes/pass_registry.h"
#include "passes/rewrite_utils.h"

namespace fb::passes {
namespace {

class EliminateDuplicateInitializer final : public Pass {
 public:
  std::string_view name() const override { return "eliminate_duplicate_initializer"; }
  std::string_view description() const override { return "Merge initializers with identical type, dims and bytes"; }
  PassChange run(ir::Model& m) override {
    ir::Graph& g = m.graph();
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
      std::unordered_map<std::string_view, ir::Value*> firstByBytes;
      for (ir::Value* v : vals) {
        auto b = v->initializer()->bytes();
        std::string_view bytes(reinterpret_cast<const char*>(b.data()), b.size());
        auto [it, fresh] = firstByBytes.emplace(bytes, v);
        if (fresh) continue;
        g.replaceAllUses(v, it->second);
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
