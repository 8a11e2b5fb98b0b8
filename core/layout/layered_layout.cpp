#include "layout/layered_layout.h"

#include <algorithm>
#include <numeric>

namespace fb::layout {

namespace {
constexpr double kRankGap = 36;
constexpr double kBoxGap = 18;
}  // namespace

LayoutResult layoutLayered(const LayoutRequest& request) {
  const size_t n = request.boxes.size();
  LayoutResult result;
  result.centers.resize(n);
  if (n == 0) return result;
  std::vector<std::vector<int>> preds(n), succs(n);
  for (auto [a, b] : request.edges) {
    if (a < 0 || b < 0 || size_t(a) >= n || size_t(b) >= n || a == b) continue;
    // Boxes arrive in graph order, so an edge going backwards closes a cycle: ignore it for ranking.
    if (a < b) {
      succs[a].push_back(b);
      preds[b].push_back(a);
    }
  }
  std::vector<int> rank(n, 0);
  int maxRank = 0;
  for (size_t i = 0; i < n; ++i) {
    for (int p : preds[i]) rank[i] = std::max(rank[i], rank[p] + 1);
    maxRank = std::max(maxRank, rank[i]);
  }
  std::vector<std::vector<int>> ranks(maxRank + 1);
  for (size_t i = 0; i < n; ++i) ranks[rank[i]].push_back(int(i));

  // Barycentre ordering: down then up, positions as order indices within the rank.
  std::vector<double> order(n);
  for (auto& r : ranks)
    for (size_t k = 0; k < r.size(); ++k) order[r[k]] = double(k);
  auto sweep = [&](const std::vector<std::vector<int>>& neighbours, bool down) {
    for (int ri = down ? 1 : maxRank - 1; down ? ri <= maxRank : ri >= 0; ri += down ? 1 : -1) {
      auto& r = ranks[ri];
      std::vector<double> key(r.size());
      for (size_t k = 0; k < r.size(); ++k) {
        const auto& nb = neighbours[r[k]];
        key[k] = nb.empty() ? order[r[k]] : std::accumulate(nb.begin(), nb.end(), 0.0, [&](double s, int v) {
                                              return s + order[v];
                                            }) / double(nb.size());
      }
      std::vector<size_t> idx(r.size());
      std::iota(idx.begin(), idx.end(), 0);
      std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
      std::vector<int> sorted;
      for (size_t k : idx) sorted.push_back(r[k]);
      r = std::move(sorted);
      for (size_t k = 0; k < r.size(); ++k) order[r[k]] = double(k);
    }
  };
  sweep(preds, true);
  sweep(succs, false);

  // Pack each rank along the cross axis, then centre the ranks on the widest one.
  const bool lr = request.leftToRight;
  std::vector<double> rankExtent(ranks.size(), 0), rankThickness(ranks.size(), 0);
  for (size_t ri = 0; ri < ranks.size(); ++ri) {
    for (int b : ranks[ri]) {
      const Size& s = request.boxes[b];
      rankExtent[ri] += (lr ? s.height : s.width) + kBoxGap;
      rankThickness[ri] = std::max(rankThickness[ri], lr ? s.width : s.height);
    }
  }
  const double widest = *std::max_element(rankExtent.begin(), rankExtent.end());
  double along = 0;
  for (size_t ri = 0; ri < ranks.size(); ++ri) {
    double cross = (widest - rankExtent[ri]) / 2 + kBoxGap / 2;
    for (int b : ranks[ri]) {
      const Size& s = request.boxes[b];
      const double extent = lr ? s.height : s.width;
      const double mid = along + rankThickness[ri] / 2;
      result.centers[b] = lr ? Point{mid, cross + extent / 2} : Point{cross + extent / 2, mid};
      cross += extent + kBoxGap;
    }
    along += rankThickness[ri] + kRankGap;
  }
  const double alongTotal = along - kRankGap;
  result.width = lr ? alongTotal : widest;
  result.height = lr ? widest : alongTotal;
  return result;
}

}  // namespace fb::layout
