#pragma once
// The sliding window that Conv, ConvTranspose and the pooling ops share: kernel, strides, dilations and the pads
// (explicit, or from auto_pad), checked, and the output's spatial dims they give.
#include <cstdint>
#include <vector>

#include "ir/node.h"

namespace fb::eval {

struct Window {
  std::vector<int64_t> kernel, strides, dilations, padBegin, padEnd;
  std::vector<int64_t> in, out;  // spatial dims

  size_t rank() const { return kernel.size(); }
  int64_t extent(size_t k) const { return (kernel[k] - 1) * dilations[k] + 1; }  // a dilated kernel's span
  int64_t inCount() const;
  int64_t outCount() const;
  int64_t kernelCount() const;
};

// The window of a forward sliding op (Conv, pools) over spatial dims `in` with kernel dims `kernel`.
// `ceilMode` rounds the output size up (pools' ceil_mode); a window may then start in the end padding only if it
// starts inside the input or the begin padding, as other runtimes count it. Throws BadInput for attributes that
// do not fit the rank, non-positive strides/dilations/kernel, negative pads, or a window larger than the padded
// input.
Window slidingWindow(const ir::Node& n, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                     bool ceilMode = false);

// The spatial rank of an [N, C, spatial...] input; BadInput unless it has at least one spatial dim.
size_t spatialRankOf(const std::vector<int64_t>& dims, const char* what);

// Attribute `name` as `rank` values: `fallback` for each when absent; BadInput when it has another length.
std::vector<int64_t> perAxis(const ir::Node& n, const char* name, size_t rank, int64_t fallback);

}  // namespace fb::eval
