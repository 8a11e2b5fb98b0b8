#include "eval/transpose_bytes.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "eval/runtime/run_error.h"
#include "eval/runtime/tensor.h"

namespace fb::eval {
namespace {

template <size_t N>
void permute(const std::byte* src, std::byte* dst, const std::vector<int64_t>& outDims,
             const std::vector<int64_t>& srcStride) {
  const size_t rank = outDims.size();
  const int64_t total = checkedElementCount(outDims);
  std::vector<int64_t> idx(rank, 0);
  int64_t pos = 0;
  for (int64_t e = 0; e < total; ++e) {
    std::memcpy(dst + e * N, src + pos * N, N);
    for (int64_t k = static_cast<int64_t>(rank) - 1; k >= 0; --k) {
      pos += srcStride[k];
      if (++idx[k] < outDims[k]) break;
      pos -= srcStride[k] * idx[k];
      idx[k] = 0;
    }
  }
}

// A matrix transpose in cache-sized tiles: the plain walk reads one element per cache line.
template <size_t N>
void transpose2d(const std::byte* src, std::byte* dst, int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kTile)
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile), c1 = std::min(cols, c0 + kTile);
      for (int64_t r = r0; r < r1; ++r)
        for (int64_t c = c0; c < c1; ++c) std::memcpy(dst + (c * rows + r) * N, src + (r * cols + c) * N, N);
    }
}

}  // namespace

ir::Tensor transposeBytes(const ir::Tensor& t, std::vector<int64_t> perm) {
  const size_t rank = t.dims.size();
  const size_t es = ir::elementSize(t.dtype);
  if (es == 0) unsupported("Transpose: element type has no fixed size");
  if (perm.empty())
    for (size_t k = 0; k < rank; ++k) perm.push_back(static_cast<int64_t>(rank - 1 - k));
  if (perm.size() != rank) unsupported("Transpose: perm does not match the rank");
  std::vector<int64_t> inStride(rank, 1), outDims(rank), srcStride(rank);
  for (int64_t k = static_cast<int64_t>(rank) - 2; k >= 0; --k) inStride[k] = inStride[k + 1] * t.dims[k + 1];
  std::vector<bool> used(rank, false);
  for (size_t k = 0; k < rank; ++k) {
    if (perm[k] < 0 || perm[k] >= static_cast<int64_t>(rank) || used[perm[k]]) unsupported("Transpose: bad perm");
    used[perm[k]] = true;
    outDims[k] = t.dims[perm[k]];
    srcStride[k] = inStride[perm[k]];
  }
  auto src = t.bytes();
  if (src.size() != static_cast<size_t>(t.numElements()) * es) unsupported("Transpose: tensor has no data");
  std::string out(src.size(), '\0');
  auto* dst = reinterpret_cast<std::byte*>(out.data());
  if (rank == 2 && perm[0] == 1) {
    switch (es) {
      case 1:
        transpose2d<1>(src.data(), dst, t.dims[0], t.dims[1]);
        break;
      case 2:
        transpose2d<2>(src.data(), dst, t.dims[0], t.dims[1]);
        break;
      case 4:
        transpose2d<4>(src.data(), dst, t.dims[0], t.dims[1]);
        break;
      case 8:
        transpose2d<8>(src.data(), dst, t.dims[0], t.dims[1]);
        break;
      default:
        unsupported("Transpose: element size");
    }
  } else
    switch (es) {
      case 1:
        permute<1>(src.data(), dst, outDims, srcStride);
        break;
      case 2:
        permute<2>(src.data(), dst, outDims, srcStride);
        break;
      case 4:
        permute<4>(src.data(), dst, outDims, srcStride);
        break;
      case 8:
        permute<8>(src.data(), dst, outDims, srcStride);
        break;
      default:
        unsupported("Transpose: element size");
    }
  ir::Tensor r;
  r.dtype = t.dtype;
  r.dims = outDims;
  r.setBytes(std::move(out));
  return r;
}

}  // namespace fb::eval
