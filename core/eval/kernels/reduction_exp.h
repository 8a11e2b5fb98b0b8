#pragma once
// exp for Softmax's rows of floats, where exp is most of the work: four lanes at a time with SSE2 (every x86-64
// CPU has it; the build targets the baseline, where the compiler does not vectorise libm's expf), as other runtimes
// have their own vector exp (ONNX Runtime's MLAS). x = n ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, so r
// keeps float precision), e^r by its Taylor series to degree 7 (truncation below 6e-9, under float's rounding),
// 2^n through the exponent bits: a few ulp from the exact value. Inputs here are x - max(row) <= 0; below -87.3
// (past float's normal range) the result is 0, and NaN stays NaN.
#include <bit>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fb::eval {

namespace expdetail {
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693145751953125f;  // ln2's top bits: n * kLn2Hi is exact for |n| < 2^10
constexpr float kLn2Lo = 1.42860682030941723e-6f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer in the low mantissa bits
constexpr float kLowest = -87.3f;
constexpr float kHighest = 88.0f;
constexpr float kTaylor[8] = {1.0f, 1.0f, 0.5f, 1.0f / 6, 1.0f / 24, 1.0f / 120, 1.0f / 720, 1.0f / 5040};
}  // namespace expdetail

// The same arithmetic one element at a time (for a row's tail), so every element gets the same function.
inline float expOfRow(float x) {
  using namespace expdetail;
  if (x != x) return x;
  if (x < kLowest) return 0.0f;
  const float c = x > kHighest ? kHighest : x;
  const float t = c * kLog2e + kRound;
  const float n = t - kRound;
  const int32_t ni = std::bit_cast<int32_t>(t) - std::bit_cast<int32_t>(kRound);
  const float r = (c - n * kLn2Hi) - n * kLn2Lo;
  float p = kTaylor[7];
  for (int k = 6; k >= 0; --k) p = p * r + kTaylor[k];
  return p * std::bit_cast<float>(static_cast<int32_t>((ni + 127) << 23));
}

#if defined(__SSE2__)
inline __m128 expOfRow4(__m128 x) {
  using namespace expdetail;
  const __m128 nan = _mm_cmpunord_ps(x, x);
  const __m128 inRange = _mm_cmpge_ps(x, _mm_set1_ps(kLowest));  // false for NaN
  const __m128 c = _mm_min_ps(_mm_max_ps(x, _mm_set1_ps(kLowest)), _mm_set1_ps(kHighest));
  const __m128 round = _mm_set1_ps(kRound);
  const __m128 t = _mm_add_ps(_mm_mul_ps(c, _mm_set1_ps(kLog2e)), round);
  const __m128 n = _mm_sub_ps(t, round);
  const __m128i ni = _mm_sub_epi32(_mm_castps_si128(t), _mm_castps_si128(round));
  const __m128 r = _mm_sub_ps(_mm_sub_ps(c, _mm_mul_ps(n, _mm_set1_ps(kLn2Hi))), _mm_mul_ps(n, _mm_set1_ps(kLn2Lo)));
  __m128 p = _mm_set1_ps(kTaylor[7]);
  for (int k = 6; k >= 0; --k) p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(kTaylor[k]));
  const __m128 scale = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(ni, _mm_set1_epi32(127)), 23));
  const __m128 e = _mm_and_ps(_mm_mul_ps(p, scale), inRange);
  return _mm_or_ps(_mm_and_ps(nan, x), _mm_andnot_ps(nan, e));
}
#endif

// Sum of e^(x[a] - shift) over a row of floats, each stored in y when y is not null. Lanes are added in a fixed
// order: the result depends neither on the thread count nor on the machine.
inline float expSumOfRow(const float* x, float* y, int64_t n, float shift) {
  int64_t a = 0;
  float sum = 0;
#if defined(__SSE2__)
  __m128 acc = _mm_setzero_ps();
  const __m128 s = _mm_set1_ps(shift);
  for (; a + 4 <= n; a += 4) {
    const __m128 e = expOfRow4(_mm_sub_ps(_mm_loadu_ps(x + a), s));
    if (y) _mm_storeu_ps(y + a, e);
    acc = _mm_add_ps(acc, e);
  }
  float lanes[4];
  _mm_storeu_ps(lanes, acc);
  sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
#endif
  for (; a < n; ++a) {
    const float e = expOfRow(x[a] - shift);
    if (y) y[a] = e;
    sum += e;
  }
  return sum;
}

}  // namespace fb::eval
