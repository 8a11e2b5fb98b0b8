#include "eval/kernels/misc_fft.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

using Complex = std::complex<double>;

bool isPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// In-place forward transform of a power-of-two length.
void radix2(std::vector<Complex>& a) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const double angle = -2 * std::numbers::pi / static_cast<double>(len);
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < len / 2; ++k) {
        // Each twiddle from its own angle rather than by repeated multiplication: no drift over long lengths.
        const Complex w(std::cos(angle * static_cast<double>(k)), std::sin(angle * static_cast<double>(k)));
        const Complex u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
  }
}

// e^{-i pi n^2 / N}, with n^2 taken modulo 2N first so the angle stays small and exact.
Complex chirp(uint64_t n, uint64_t N) {
  const uint64_t m = (n * n) % (2 * N);  // n < N < 2^31 (discreteFourierTransform checks): no overflow
  const double angle = -std::numbers::pi * static_cast<double>(m) / static_cast<double>(N);
  return {std::cos(angle), std::sin(angle)};
}

void bluestein(std::vector<Complex>& x) {
  const size_t n = x.size();
  size_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  std::vector<Complex> a(m), b(m);
  for (size_t k = 0; k < n; ++k) {
    const Complex w = chirp(k, n);
    a[k] = x[k] * w;
    b[k] = std::conj(w);
    if (k) b[m - k] = std::conj(w);
  }
  radix2(a);
  radix2(b);
  for (size_t k = 0; k < m; ++k) a[k] = std::conj(a[k] * b[k]);
  radix2(a);  // inverse through conjugation: conj(DFT(conj(.))) / m
  for (size_t k = 0; k < n; ++k) x[k] = std::conj(a[k]) / static_cast<double>(m) * chirp(k, n);
}

}  // namespace

void discreteFourierTransform(std::vector<Complex>& x, bool inverse) {
  if (x.size() <= 1) return;
  if (x.size() >= (size_t{1} << 31)) badInput("a DFT of " + std::to_string(x.size()) + " points is too long");
  if (inverse)
    for (Complex& v : x) v = std::conj(v);
  if (isPowerOfTwo(x.size()))
    radix2(x);
  else
    bluestein(x);
  if (inverse) {
    const double scale = 1.0 / static_cast<double>(x.size());
    for (Complex& v : x) v = std::conj(v) * scale;
  }
}

}  // namespace fb::eval
