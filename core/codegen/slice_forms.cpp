#include "codegen/slice_forms.h"

#include <limits>

namespace fb::codegen {
namespace {

// Beyond any dim a tensor can have here: ONNX clamps such bounds to the dim.
constexpr int64_t kBeyondAnyDim = std::numeric_limits<int32_t>::max();

}  // namespace

std::optional<std::vector<int64_t>> flippedAxes(const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                                                const std::vector<int64_t>& axes,
                                                const std::optional<std::vector<int64_t>>& steps) {
  if (!steps || steps->size() != starts.size() || ends.size() != starts.size() || axes.size() != starts.size() ||
      starts.empty())
    return std::nullopt;
  for (size_t i = 0; i < starts.size(); ++i) {
    const bool fromLast = starts[i] == -1 || starts[i] >= kBeyondAnyDim;
    if ((*steps)[i] != -1 || !fromLast || ends[i] > -kBeyondAnyDim) return std::nullopt;
  }
  return axes;
}

bool keepsEverything(const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                     const std::optional<std::vector<int64_t>>& steps) {
  if (ends.size() != starts.size() || (steps && steps->size() != starts.size())) return false;
  for (size_t i = 0; i < starts.size(); ++i) {
    const bool fromFirst = starts[i] == 0 || starts[i] <= -kBeyondAnyDim;
    if (!fromFirst || ends[i] < kBeyondAnyDim || (steps && (*steps)[i] != 1)) return false;
  }
  return true;
}

}  // namespace fb::codegen
