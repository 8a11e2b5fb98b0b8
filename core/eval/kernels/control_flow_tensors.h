#pragma once
// Moving whole slices of tensors without looking at their elements, for the ops that split, gather and stack
// values by an axis (Loop and Scan outputs, Scan inputs, SplitToSequence, ConcatFromSequence): bytes are copied
// as they are, so every element type with a whole number of bytes (and strings) is handled alike.
#include <cstdint>
#include <vector>

#include "eval/runtime/tensor.h"
#include "ir/type_info.h"

namespace fb::eval {

// `axis` of a tensor of `rank` dims from a possibly negative attribute value; throws BadInput naming `what`
// when it is outside [-rank, rank).
size_t normalizedAxis(int64_t axis, size_t rank, const char* what);

// The `length` entries of `t` from `start` along `axis`; with `keepAxis` false that axis is dropped (length 1).
Tensor sliceAlong(const Tensor& t, size_t axis, int64_t start, int64_t length, bool keepAxis);

// The parts joined along `axis`: as a new axis there (every part of the same shape, `newAxis`), or along an
// existing axis (the parts' other dims equal). At least one part; one element type.
Tensor joinAlong(const std::vector<const Tensor*>& parts, size_t axis, bool newAxis);

// Per-iteration tensors of one shape stacked along a new leading axis as they come (a Loop's scan outputs): one
// buffer that doubles when full, so that a long loop holds neither one allocation per iteration nor twice the
// result for long.
class IterationStack {
 public:
  void append(const Tensor& item);
  int64_t count() const { return count_; }
  // The stacked tensor [count, item dims...]; with nothing appended, zeroStack(declared, 0, 0).
  Tensor finish(const ir::TypeInfo& declared);

 private:
  Tensor buffer_;  // room for `capacity_` items
  std::vector<int64_t> itemDims_;
  int64_t itemElements_ = 0;
  int64_t count_ = 0;
  int64_t capacity_ = 0;
};

// `entries` zero items of the shape `declared` gives one item, stacked along a new axis at `axis`: what a Loop or
// Scan output is from zero iterations (no entries: unknown dims count 0, an unknown element type is float), and
// the zeros Scan-8 pads a short sequence with. Throws Unsupported when entries are needed of an undeclared shape.
Tensor zeroStack(const ir::TypeInfo& declared, size_t axis, int64_t entries);

}  // namespace fb::eval
