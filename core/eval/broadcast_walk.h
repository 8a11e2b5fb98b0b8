#pragma once
// Walks the elements of a broadcast result in order and keeps, for each operand, the offset of its element that
// broadcasts to the current one, advanced by strides: no index vector the size of the result is ever built (an
// Add of [16000, 1] and [1, 16000] took two of 2 GB that way before its result was even charged to the budget).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fb::eval {

template <size_t N>
class BroadcastWalk {
 public:
  // `operands` broadcast to `out` (eval::broadcastShapes): each has at most out's rank, and each of its dims is 1 or
  // out's.
  BroadcastWalk(const std::vector<int64_t>& out, const std::array<const std::vector<int64_t>*, N>& operands)
      : out_(out), idx_(out.size(), 0), step_(out.size()) {
    for (size_t o = 0; o < N; ++o) {
      const std::vector<int64_t>& d = *operands[o];
      const size_t off = out.size() - d.size();
      int64_t stride = 1;
      for (size_t k = d.size(); k-- > 0;) {
        step_[off + k][o] = d[k] == 1 ? 0 : stride;
        stride *= d[k];
      }
    }
  }
  // The offset in operand `o` of the element broadcast to the current position.
  size_t at(size_t o) const { return pos_[o]; }
  // To position `linear` of the result in row-major order (where a thread's share of the elements starts).
  void seek(int64_t linear) {
    pos_ = {};
    for (size_t k = out_.size(); k-- > 0;) {
      idx_[k] = out_[k] > 0 ? linear % out_[k] : 0;
      linear = out_[k] > 0 ? linear / out_[k] : 0;
      for (size_t o = 0; o < N; ++o) pos_[o] += step_[k][o] * idx_[k];
    }
  }
  // To the next position in row-major order (past the last, the offsets are back at 0).
  void next() {
    for (size_t k = out_.size(); k-- > 0;) {
      for (size_t o = 0; o < N; ++o) pos_[o] += step_[k][o];
      if (++idx_[k] < out_[k]) return;
      for (size_t o = 0; o < N; ++o) pos_[o] -= step_[k][o] * idx_[k];
      idx_[k] = 0;
    }
  }

 private:
  std::vector<int64_t> out_, idx_;
  std::vector<std::array<int64_t, N>> step_;  // per dim of the result: how far each operand moves along it
  std::array<int64_t, N> pos_{};
};

}  // namespace fb::eval
