// Unsqueeze(Unsqueeze(x, a), b) is one Unsqueeze of x. The axes b are positions in the final shape; the
// other final positions hold the intermediate dims in order, and those at positions a of the
// intermediate shape are the ones the first Unsqueeze inserted.
#include <algorithm>
#include <set>

#include "passes/axes_utils.h"
#include "passes/pass_registry.h"

namespace fb::passes {
namespace {

class FuseConsecutiveUnsqueezes final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_consecutive_unsqueezes"; }
  std::string_view description() const override { return "Merge Unsqueeze of Unsqueeze into one Unsqueeze"; }
  TypeNeeds typeNeeds() const override { return TypeNeeds::forOps({"Unsqueeze"}); }
  std::vector<std::string_view> anchorOps() const override { return {"Unsqueeze"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    for (ir::Node* u2 : nodesToVisit(g)) {
      if (u2->opType != "Unsqueeze" || !u2->isDefaultDomain() || !u2->input(0)) continue;
      ir::Value* mid = u2->input(0);
      ir::Node* u1 = mid->producer();
      if (!u1 || u1->opType != "Unsqueeze" || !u1->isDefaultDomain() || !u1->input(0)) continue;
      auto a1 = readAxes(*u1, rw.opset()), a2 = readAxes(*u2, rw.opset());
      if (!a1 || !a2) continue;
      auto rank = knownRank(u1->input(0));
      const bool negative = std::any_of(a1->begin(), a1->end(), [](int64_t a) { return a < 0; }) ||
                            std::any_of(a2->begin(), a2->end(), [](int64_t a) { return a < 0; });
      if (negative && !rank) continue;
      const int64_t r = rank ? static_cast<int64_t>(*rank) : 0;
      const int64_t midRank = r + static_cast<int64_t>(a1->size());
      const int64_t finalRank = midRank + static_cast<int64_t>(a2->size());
      std::set<int64_t> s1, s2;
      for (auto a : *a1) s1.insert(a < 0 ? a + midRank : a);
      for (auto a : *a2) s2.insert(a < 0 ? a + finalRank : a);
      if (s1.size() != a1->size() || s2.size() != a2->size()) continue;
      if (s1.empty() || s2.empty()) continue;
      std::vector<int64_t> combined(s2.begin(), s2.end());
      // Walk the final positions until every intermediate axis of s1 has found its place.
      for (int64_t pos = 0, midIndex = 0; midIndex <= *s1.rbegin(); ++pos) {
        if (s2.count(pos)) continue;
        if (s1.count(midIndex)) combined.push_back(pos);
        ++midIndex;
      }
      if (rank && std::any_of(combined.begin(), combined.end(), [&](int64_t a) { return a >= finalRank; })) continue;
      if (combined.size() != s1.size() + s2.size()) continue;
      std::sort(combined.begin(), combined.end());
      u2->setInput(0, u1->input(0));
      writeAxes(rw, *u2, combined);
      u2->origins = mergeOrigins({u1, u2});
      rw.change.other = true;
      if (mid->uses().empty() && !rw.pinned(mid)) rw.erase(u1);
    }
    return rw.change;
  }
};

}  // namespace
void registerFuseConsecutiveUnsqueezes(bool inDefault) { registerPass<FuseConsecutiveUnsqueezes>(inDefault); }
}  // namespace fb::passes
