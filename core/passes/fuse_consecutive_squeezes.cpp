// Squeeze(Squeeze(x, a), b) is one Squeeze of x: b indexes the intermediate shape, so each of its axes
// is mapped back past the axes a already removed. Negative axes need the input rank.
#include <algorithm>
#include <set>

#include "passes/axes_utils.h"
#include "passes/pass_registry.h"

namespace fb::passes {
namespace {

std::optional<std::vector<int64_t>> normalized(std::vector<int64_t> axes, std::optional<size_t> rank) {
  for (auto& a : axes)
    if (a < 0) {
      if (!rank) return std::nullopt;
      a += static_cast<int64_t>(*rank);
    }
  return axes;
}

class FuseConsecutiveSqueezes final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_consecutive_squeezes"; }
  std::string_view description() const override { return "Merge Squeeze of Squeeze into one Squeeze"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Squeeze"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Squeeze"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* s2 : nodesToVisit(g)) {
      if (s2->opType != "Squeeze" || !s2->isDefaultDomain() || !s2->input(0)) continue;
      ir::Value* mid = s2->input(0);
      ir::Node* s1 = mid->producer();
      if (!s1 || s1->opType != "Squeeze" || !s1->isDefaultDomain() || !s1->input(0)) continue;
      auto a1 = readAxes(*s1, rw.opset()), a2 = readAxes(*s2, rw.opset());
      if (!a1 || !a2 || a1->empty() || a2->empty()) continue;
      auto rank = knownRank(s1->input(0));
      auto n1 = normalized(*a1, rank);
      auto n2 = normalized(*a2, rank ? std::optional<size_t>(*rank - a1->size()) : std::nullopt);
      if (!n1 || !n2) continue;
      std::set<int64_t> removed(n1->begin(), n1->end());
      std::vector<int64_t> combined(n1->begin(), n1->end());
      for (int64_t b : *n2) {
        // the b-th axis that survived the first Squeeze
        int64_t orig = -1;
        for (int64_t i = 0, seen = -1; seen < b; ++i) {
          if (!removed.count(i)) ++seen;
          orig = i;
        }
        combined.push_back(orig);
      }
      std::sort(combined.begin(), combined.end());
      if (std::adjacent_find(combined.begin(), combined.end()) != combined.end()) continue;
      s2->setInput(0, s1->input(0));
      writeAxes(rw, *s2, combined);
      s2->origins = mergeOrigins({s1, s2});
      rw.change.other = true;
      if (mid->uses().empty() && !rw.pinned(mid)) rw.erase(s1);
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseConsecutiveSqueezes(bool inDefault) { registerPass<FuseConsecutiveSqueezes>(inDefault); }
}  // namespace fb::passes
