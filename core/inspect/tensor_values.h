#pragma once
// What the Tensor panel and `inspect` say about a constant tensor: its element type's storage (bits, packing
// in raw_data) and statistics over the decoded values. Covers every element type up to IR 13 (float8 x5,
// float4e2m1, int4/uint4, int2/uint2 included); NaN and infinities are counted, not averaged.
#include <cstdint>
#include <string>
#include <vector>

#include "ir/tensor.h"

namespace fb {

struct ValueStats {
  size_t count = 0;   // decoded elements
  size_t finite = 0;  // of which finite; min/max/mean/std are over these
  size_t nan = 0, inf = 0;
  double min = 0, max = 0, mean = 0, std = 0;
  std::vector<double> first;  // up to `keep` leading values, as decoded
};

// Decodes `t` (throws what Tensor::asDouble throws: a missing side file, ...). Not for strings.
ValueStats valueStats(const ir::Tensor& t, size_t keep = 32);

// "4-bit, 2 per byte, element 0 in the low nibble", "8-bit float8e4m3fn, 1 byte each", "32-bit", ...
std::string storageDescription(ir::DataType t);

}  // namespace fb
