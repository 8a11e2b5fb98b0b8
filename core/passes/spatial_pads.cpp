#include "passes/spatial_pads.h"

#include "passes/rewrite_utils.h"

namespace fb::passes {

std::optional<std::vector<int64_t>> zeroFillPads(const ir::Node& pad, int64_t opset) {
  if (pad.attrString("mode", "constant") != "constant") return std::nullopt;
  if (opset < 11) {
    if (pad.attrFloat("value", 0.f) != 0.f) return std::nullopt;
    return pad.attrInts(opset < 2 ? "paddings" : "pads");
  }
  auto c = constantInts(pad.input(1));
  if (!c || pad.input(3)) return std::nullopt;
  if (pad.input(2) && !isConstantAllEqual(pad.input(2), 0.0)) return std::nullopt;
  return c;
}

bool addSpatialPads(std::vector<int64_t>& nodePads, const std::vector<int64_t>& pads, size_t rank) {
  if (rank < 3 || pads.size() != 2 * rank) return false;
  if (pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0) return false;
  for (auto p : pads)
    if (p < 0) return false;
  const size_t sp = rank - 2;
  std::vector<int64_t> out = nodePads.empty() ? std::vector<int64_t>(2 * sp, 0) : nodePads;
  if (out.size() != 2 * sp) return false;
  for (size_t k = 0; k < sp; ++k) {
    out[k] += pads[2 + k];
    out[sp + k] += pads[rank + 2 + k];
  }
  nodePads = std::move(out);
  return true;
}

}  // namespace fb::passes
