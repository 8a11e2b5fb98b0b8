#include "eval/verify/value_stats.h"

#include <cmath>
#include <cstdio>

#include "eval/runtime/value_conversion.h"

namespace fb::eval {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

ValueStats statsOf(const Tensor& t) {
  ValueStats s;
  s.count = t.size();
  if (t.isString()) {
    s.numeric = false;
    return s;
  }
  const Tensor d = castTensor(t, ir::DataType::Double);
  const double* p = d.data<double>();
  long double sum = 0;
  int64_t finite = 0;
  for (int64_t k = 0; k < d.size(); ++k) {
    const double v = p[k];
    if (std::isnan(v)) {
      ++s.nanCount;
      continue;
    }
    if (std::isinf(v)) {
      ++s.infCount;
      continue;
    }
    if (finite == 0 || v < s.min) s.min = v;
    if (finite == 0 || v > s.max) s.max = v;
    sum += v;
    ++finite;
  }
  if (finite) s.mean = static_cast<double>(sum / finite);
  return s;
}

std::string toText(const ValueStats& s) {
  if (!s.numeric) return "(strings)";
  if (s.count == 0) return "(empty)";
  std::string r = "min " + number(s.min) + " max " + number(s.max) + " mean " + number(s.mean);
  if (s.nanCount) r += " nan " + std::to_string(s.nanCount);
  if (s.infCount) r += " inf " + std::to_string(s.infCount);
  return r;
}

}  // namespace fb::eval
