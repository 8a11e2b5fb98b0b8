#include "eval/verify/value_diff.h"

#include <cmath>
#include <cstdio>

#include "eval/runtime/value_conversion.h"

namespace fb::eval {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string dimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t k = 0; k < dims.size(); ++k) s += (k ? "," : "") + std::to_string(dims[k]);
  return s + "]";
}

void diffTensors(const Tensor& ref, const Tensor& got, const Tolerance& tol, int64_t base, ValueDiff& d) {
  if (ref.dims() != got.dims()) {
    d.agree = false;
    d.mismatch = "shape " + dimsText(got.dims()) + " where the reference is " + dimsText(ref.dims());
    return;
  }
  if (ref.isString() || got.isString()) {
    if (ref.isString() != got.isString() || ref.stringValues() != got.stringValues()) {
      d.agree = false;
      d.mismatch = ref.isString() && got.isString() ? "different strings" : "strings against numbers";
    }
    return;
  }
  const Tensor a = castTensor(ref, ir::DataType::Double);
  const Tensor b = castTensor(got, ir::DataType::Double);
  const double* pa = a.data<double>();
  const double* pb = b.data<double>();
  for (int64_t k = 0; k < a.size(); ++k) {
    const double x = pa[k], y = pb[k];
    if (std::isnan(x) || std::isnan(y)) {
      if (std::isnan(x) != std::isnan(y)) {
        ++d.outside;
        d.maxAbs = INFINITY;
        d.worstIndex = base + k;
      }
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) {
        ++d.outside;
        d.maxAbs = INFINITY;
        d.worstIndex = base + k;
      }
      continue;
    }
    const double diff = std::fabs(y - x);
    if (diff > d.maxAbs) {
      d.maxAbs = diff;
      d.worstIndex = base + k;
    }
    if (x != 0) d.maxRel = std::max(d.maxRel, diff / std::fabs(x));
    if (diff > tol.atol + tol.rtol * std::fabs(x)) ++d.outside;
  }
  if (d.outside) d.agree = false;
}

}  // namespace

ValueDiff diffValues(const Value& ref, const Value& got, const Tolerance& tol) {
  ValueDiff d;
  if (ref.kind() != got.kind()) {
    d.agree = false;
    d.mismatch = describe(got) + " where the reference is " + describe(ref);
    return d;
  }
  if (ref.isNone()) return d;
  if (ref.isTensor()) {
    diffTensors(ref.tensor(), got.tensor(), tol, 0, d);
    return d;
  }
  if (ref.items().size() != got.items().size()) {
    d.agree = false;
    d.mismatch = "a sequence of " + std::to_string(got.items().size()) + " where the reference has " +
                 std::to_string(ref.items().size());
    return d;
  }
  int64_t base = 0;
  for (size_t k = 0; k < ref.items().size() && d.mismatch.empty(); ++k) {
    diffTensors(ref.items()[k], got.items()[k], tol, base, d);
    base += ref.items()[k].size();
  }
  return d;
}

std::string toText(const ValueDiff& d) {
  if (!d.mismatch.empty()) return d.mismatch;
  std::string s = "max abs " + number(d.maxAbs) + ", max rel " + number(d.maxRel);
  if (d.outside) s += ", " + std::to_string(d.outside) + " outside the tolerance";
  return s;
}

}  // namespace fb::eval
