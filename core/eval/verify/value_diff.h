#pragma once
// Whether two values agree, as numpy.allclose decides it (|got - ref| <= atol + rtol * |ref|, NaN equal to NaN,
// infinities equal when their signs are), and by how much they differ: `convert --verify` and `compare`.
#include <cstdint>
#include <string>

#include "eval/runtime/value.h"

namespace fb::eval {

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-3;
};

struct ValueDiff {
  bool agree = true;
  std::string mismatch;     // non-empty when the values cannot be compared element by element (kind, type, shape)
  double maxAbs = 0;        // largest |got - ref| over the elements
  double maxRel = 0;        // largest |got - ref| / |ref| over the elements where ref is not 0
  int64_t outside = 0;      // elements outside the tolerance
  int64_t worstIndex = -1;  // flat index (into the sequence's concatenation) of the largest |got - ref|
};

// `ref` is the reference (the source model's value). Element types may differ when both are numeric (a conversion
// may widen an integer type): values are compared as doubles.
ValueDiff diffValues(const Value& ref, const Value& got, const Tolerance& tol);

// "max abs 1.2e-06, max rel 3.4e-05" or the mismatch.
std::string toText(const ValueDiff& d);

}  // namespace fb::eval
