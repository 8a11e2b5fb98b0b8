// Signal processing: DFT (axis an attribute at opset 17, an input from 20), STFT, the Hann, Hamming and Blackman
// windows and MelWeightMatrix. Transforms compute in double (misc_fft.h) and round to the element type once.
// A signal's last dim holds 1 (real) or 2 (real, imaginary) components; results are always complex ([..., 2]).
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "eval/kernels/misc_family.h"
#include "eval/kernels/misc_fft.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"
#include "eval/runtime/value_conversion.h"

namespace fb::eval {

namespace {

using Complex = std::complex<double>;

int64_t scalarInt(const Tensor& t, const char* what) {
  if (t.size() != 1 || (t.dtype() != ir::DataType::Int64 && t.dtype() != ir::DataType::Int32))
    badInput(std::string(what) + " must be one int32 or int64, got " + describe(t));
  return t.int64At(0);
}

std::vector<Value> dft(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  if (rank < 2 || (x.dim(x.rank() - 1) != 1 && x.dim(x.rank() - 1) != 2))
    badInput("DFT input " + describe(x) + " must end in a dim of 1 (real) or 2 (complex)");
  int64_t axis = c.opset >= 20 ? -2 : c.node.attrInt("axis", 1);
  if (c.opset >= 20)
    if (const Tensor* a = c.optionalInput(2)) axis = scalarInt(*a, "DFT axis");
  // The last dim holds the components: the signal axes are [-rank, -2] and [0, rank - 2].
  if (axis < -rank || axis > rank - 2 || axis == -1)
    badInput("DFT axis " + std::to_string(axis) + " is out of range for " + describe(x));
  const size_t ax = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  const bool inverse = c.node.attrInt("inverse", 0) != 0;
  const bool onesided = c.node.attrInt("onesided", 0) != 0;
  if (inverse && onesided) unsupported("DFT with inverse and onesided (an inverse real FFT) is not implemented");
  const int64_t inLen = x.dim(ax);
  int64_t n = inLen;
  if (const Tensor* len = c.optionalInput(1)) n = scalarInt(*len, "DFT dft_length");
  if (n < 1) badInput("DFT dft_length " + std::to_string(n) + " must be positive");
  const int64_t outLen = onesided ? n / 2 + 1 : n;
  const int64_t comps = x.dim(x.rank() - 1);
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k + 1 < x.rank(); ++k) {
    if (k < ax) outer *= x.dim(k);
    if (k > ax) inner *= x.dim(k);
  }
  std::vector<int64_t> dims = x.dims();
  dims[ax] = outLen;
  dims.back() = 2;
  return {visitFloating(x.dtype(), [&]<typename T>() {
    Tensor y = Tensor::empty(x.dtype(), dims);
    checkedElementCount({n, 2});  // the work buffer below, checked like a tensor
    const T* p = x.data<T>();
    T* q = y.mutableData<T>();
    std::vector<Complex> buf;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        buf.assign(static_cast<size_t>(n), Complex(0, 0));  // zero-padded past the input's length
        for (int64_t a = 0; a < std::min(n, inLen); ++a) {
          const T* e = p + ((o * inLen + a) * inner + i) * comps;
          buf[a] = Complex(e[0], comps == 2 ? e[1] : T{0});
        }
        discreteFourierTransform(buf, inverse);
        for (int64_t a = 0; a < outLen; ++a) {
          T* e = q + ((o * outLen + a) * inner + i) * 2;
          e[0] = static_cast<T>(buf[a].real());
          e[1] = static_cast<T>(buf[a].imag());
        }
      }
    return y;
  })};
}

std::vector<Value> stft(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() != 3 || (x.dim(2) != 1 && x.dim(2) != 2))
    badInput("STFT signal " + describe(x) + " must be [batch, length, 1 or 2]");
  const int64_t step = scalarInt(c.input(1), "STFT frame_step");
  const Tensor* window = c.optionalInput(2);
  const Tensor* lengthInput = c.optionalInput(3);
  if (window && (window->rank() != 1 || window->dtype() != x.dtype()))
    badInput("STFT window " + describe(*window) + " for signal " + describe(x));
  int64_t frameLength = lengthInput ? scalarInt(*lengthInput, "STFT frame_length") : window ? window->dim(0) : -1;
  if (frameLength < 1) badInput("STFT needs a window or a positive frame_length");
  if (window && window->dim(0) != frameLength)
    badInput("STFT window of " + std::to_string(window->dim(0)) + " for frames of " + std::to_string(frameLength));
  if (step < 1) badInput("STFT frame_step must be positive, got " + std::to_string(step));
  const int64_t batch = x.dim(0), length = x.dim(1), comps = x.dim(2);
  if (frameLength > length)
    badInput("STFT frames of " + std::to_string(frameLength) + " longer than the signal (" + std::to_string(length) +
             ")");
  const bool onesided = c.node.attrInt("onesided", 1) != 0;
  const int64_t frames = (length - frameLength) / step + 1;
  const int64_t bins = onesided ? frameLength / 2 + 1 : frameLength;
  return {visitFloating(x.dtype(), [&]<typename T>() {
    Tensor y = Tensor::empty(x.dtype(), {batch, frames, bins, 2});
    const T* p = x.data<T>();
    const T* w = window ? window->data<T>() : nullptr;
    T* q = y.mutableData<T>();
    std::vector<Complex> buf;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t f = 0; f < frames; ++f) {
        buf.assign(static_cast<size_t>(frameLength), Complex(0, 0));
        for (int64_t j = 0; j < frameLength; ++j) {
          const T* e = p + (b * length + f * step + j) * comps;
          const double scale = w ? static_cast<double>(w[j]) : 1.0;
          buf[j] = Complex(e[0] * scale, comps == 2 ? e[1] * scale : 0.0);
        }
        discreteFourierTransform(buf, false);
        for (int64_t k = 0; k < bins; ++k) {
          T* e = q + ((b * frames + f) * bins + k) * 2;
          e[0] = static_cast<T>(buf[k].real());
          e[1] = static_cast<T>(buf[k].imag());
        }
      }
    return y;
  })};
}

ir::DataType outputType(const KernelContext& c) {
  const int64_t code = c.node.attrInt("output_datatype", 1);
  const auto t = static_cast<ir::DataType>(code);
  if (code < 1 || code > 16 || t == ir::DataType::String || t == ir::DataType::Bool)
    badInput("output_datatype " + std::to_string(code) + " is not a numeric type");
  return t;
}

// `values` (computed in double) as a tensor of the node's output_datatype.
Tensor asOutputType(const KernelContext& c, std::vector<int64_t> dims, const std::vector<double>& values) {
  Tensor d = Tensor::empty(ir::DataType::Double, std::move(dims));
  std::copy(values.begin(), values.end(), d.mutableData<double>());
  return castTensor(d, outputType(c));
}

enum class Window { Hann, Hamming, Blackman };

std::vector<Value> window(const KernelContext& c, Window kind) {
  const int64_t size = scalarInt(c.input(0), "window size");
  if (size < 0) badInput("window size " + std::to_string(size) + " is negative");
  outputType(c);
  Tensor probe = Tensor::empty(ir::DataType::Double, {size});  // charged before the vector below
  const bool periodic = c.node.attrInt("periodic", 1) != 0;
  const double n = static_cast<double>(periodic ? size : size - 1);
  std::vector<double> v(static_cast<size_t>(size));
  for (int64_t k = 0; k < size; ++k) {
    const double a = n > 0 ? 2 * std::numbers::pi * static_cast<double>(k) / n : 0;
    switch (kind) {
      case Window::Hann:
        v[k] = 0.5 - 0.5 * std::cos(a);
        break;
      case Window::Hamming:
        v[k] = 25.0 / 46.0 - (1 - 25.0 / 46.0) * std::cos(a);
        break;
      case Window::Blackman:
        v[k] = 0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a);
        break;
    }
  }
  return {asOutputType(c, {size}, v)};
}

// Triangular filters between mel-spaced points, each peaking at 1, as ONNX's reference builds them: the mel range
// is cut into num_mel_bins + 2 points, mapped back to hertz and then to spectrogram bins (rounded down).
std::vector<Value> melWeightMatrix(const KernelContext& c) {
  const int64_t mels = scalarInt(c.input(0), "num_mel_bins");
  const int64_t dftLength = scalarInt(c.input(1), "dft_length");
  const int64_t rate = scalarInt(c.input(2), "sample_rate");
  const double lower = c.input(3).doubleAt(0), upper = c.input(4).doubleAt(0);
  if (mels < 1 || dftLength < 1 || rate < 1)
    badInput("MelWeightMatrix needs positive num_mel_bins, dft_length and sample_rate");
  const int64_t spectrumBins = dftLength / 2 + 1;
  outputType(c);
  Tensor probe = Tensor::empty(ir::DataType::Double, {spectrumBins, mels});  // charged before the vector below
  auto toMel = [](double hz) { return 2595 * std::log10(1 + hz / 700); };
  const double lowMel = toMel(lower), highMel = toMel(upper);
  const double melStep = (highMel - lowMel) / static_cast<double>(mels + 2);
  std::vector<int64_t> bin(static_cast<size_t>(mels + 2));
  for (int64_t k = 0; k < mels + 2; ++k) {
    const double hz = 700 * (std::pow(10.0, (static_cast<double>(k) * melStep + lowMel) / 2595) - 1);
    const double b = std::floor(static_cast<double>(dftLength + 1) * hz / static_cast<double>(rate));
    if (!(b >= 0 && b < static_cast<double>(spectrumBins)))
      badInput("MelWeightMatrix edges outside the spectrum of " + std::to_string(spectrumBins) + " bins");
    bin[k] = static_cast<int64_t>(b);
  }
  std::vector<double> w(static_cast<size_t>(spectrumBins * mels), 0.0);
  for (int64_t m = 0; m < mels; ++m) {
    const int64_t left = bin[m], center = bin[m + 1], right = bin[m + 2];
    if (center == left) {
      w[center * mels + m] = 1;
    } else {
      for (int64_t j = left; j <= center && j >= 0; ++j)
        w[j * mels + m] = static_cast<double>(j - left) / static_cast<double>(center - left);
    }
    for (int64_t j = center; j < right; ++j)
      w[j * mels + m] = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  return {asOutputType(c, {spectrumBins, mels}, w)};
}

}  // namespace

void registerSignalKernels(KernelRegistry& r) {
  r.add("DFT", 17, dft);
  r.add("DFT", 20, dft);  // axis as an optional input (default -2)
  r.add("STFT", 17, stft);
  r.add("HannWindow", 17, [](const KernelContext& c) { return window(c, Window::Hann); });
  r.add("HammingWindow", 17, [](const KernelContext& c) { return window(c, Window::Hamming); });
  r.add("BlackmanWindow", 17, [](const KernelContext& c) { return window(c, Window::Blackman); });
  r.add("MelWeightMatrix", 17, melWeightMatrix);
}

}  // namespace fb::eval
