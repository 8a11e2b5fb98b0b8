#pragma once
// The discrete Fourier transform of one complex sequence, in double: radix-2 when the length is a power of two,
// else Bluestein's algorithm (the transform as a convolution of power-of-two length), so every length costs
// O(n log n) and a long dft_length cannot turn into hours of direct summation.
#include <complex>
#include <vector>

namespace fb::eval {

// x <- DFT(x) (sum of x[n] e^{-2 pi i k n / N}); with `inverse`, sum of x[n] e^{+2 pi i k n / N} / N.
void discreteFourierTransform(std::vector<std::complex<double>>& x, bool inverse);

}  // namespace fb::eval
