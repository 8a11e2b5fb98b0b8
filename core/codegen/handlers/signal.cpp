// Signal processing: DFT, STFT and the Hann / Hamming / Blackman windows. The DFT is written as a product with the
// DFT matrix (cos / sin tables in float64, angles reduced modulo the length first) so that the same exact code runs on
// PyTorch and on OneFlow 0.8, which has no oneflow.fft.
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// A Python int for a scalar input: its literal when constant, else read at run time.
std::string intScalar(PyNode& p, size_t i) {
  if (auto v = p.constInts(i); v && v->size() == 1) return pyInt((*v)[0]);
  return "int(" + p.in(i) + ".item())";
}

// w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic) or size - 1 (symmetric).
void window(PyNode& p, const std::string& a0, const std::string& a1, const std::string& a2) {
  const int64_t periodic = p.attrInt("periodic", 1);
  const ir::DataType t = static_cast<ir::DataType>(p.attrInt("output_datatype", 1));
  std::string size = intScalar(p, 0);
  std::string n = p.temp("n"), angle = p.temp("angle");
  p.line(n + " = T.arange(" + size + ", dtype=T.float64)");
  p.line(angle + " = 2 * 3.141592653589793 * " + n + " / " + (periodic ? size : "(" + size + " - 1)"));
  std::string e = a0 + " - " + a1 + " * T.cos(" + angle + ")";
  if (!a2.empty()) e += " + " + a2 + " * T.cos(2 * " + angle + ")";
  p.assign("(" + e + ").to(" + p.dtypeExpr(t) + ")");
}

}  // namespace

void registerSignalCode(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(Helper{"_onnx_dft",
                                       R"PY(def _onnx_dft(x, length=None, axis=1, inverse=False, onesided=False):
    # ONNX DFT as a product with the DFT matrix, in float64: x is [..., 1] (real) or [..., 2] (real, imaginary), the
    # transform runs along `axis` (zero-padded or cut to `length`); the inverse divides by the length; onesided
    # keeps the first length // 2 + 1 frequencies. The result is [..., 2].
    a = axis % x.dim()
    re = x[..., 0].double()
    im = x[..., 1].double() if x.shape[-1] == 2 else T.zeros_like(re)
    n = re.shape[a]
    length = n if length is None else int(length)
    if length < n:
        re, im = re.narrow(a, 0, length), im.narrow(a, 0, length)
    elif length > n:
        shape = list(re.shape)
        shape[a] = length - n
        re, im = T.cat([re, re.new_zeros(shape)], a), T.cat([im, im.new_zeros(shape)], a)
    k = T.arange(length // 2 + 1 if onesided else length, dtype=T.float64, device=x.device)
    t = T.arange(length, dtype=T.float64, device=x.device)
    angle = (k.reshape(-1, 1) * t.reshape(1, -1)) % length * (2 * 3.141592653589793 / length)
    cos, sin = T.cos(angle).t(), T.sin(angle).t() * (1 if inverse else -1)
    re, im = re.transpose(a, -1), im.transpose(a, -1)
    out_re, out_im = T.matmul(re, cos) - T.matmul(im, sin), T.matmul(re, sin) + T.matmul(im, cos)
    if inverse:
        out_re, out_im = out_re / length, out_im / length
    return T.stack([out_re.transpose(a, -1), out_im.transpose(a, -1)], -1).to(x.dtype)
)PY",
                                       {}});
  HelperLibrary::instance().add(
      Helper{"_onnx_stft",
             R"PY(def _onnx_stft(signal, frame_step, window=None, frame_length=None, onesided=True):
    # ONNX STFT: frames of frame_length every frame_step samples, each multiplied by the window, then a DFT of
    # the frame. signal is [batch, length, 1 or 2]; the result is [batch, frames, bins, 2].
    if frame_length is None:
        frame_length = window.shape[0]
    frame_length, frame_step = int(frame_length), int(frame_step)
    count = (signal.shape[1] - frame_length) // frame_step + 1
    frames = T.stack([signal.narrow(1, f * frame_step, frame_length) for f in range(count)], 1)
    if window is not None:
        frames = frames * window.reshape(1, 1, -1, 1).to(frames.dtype)
    return _onnx_dft(frames, frame_length, axis=2, onesided=onesided)
)PY",
             {"_onnx_dft"}});
  addPy(r, "HannWindow", 17, "0.5 - 0.5 cos(2 pi n / N)", [](PyNode& p) { window(p, "0.5", "0.5", ""); });
  addPy(r, "HammingWindow", 17, "25/46 - 21/46 cos(2 pi n / N)",
        [](PyNode& p) { window(p, "(25 / 46)", "(21 / 46)", ""); });
  addPy(r, "BlackmanWindow", 17, "0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)",
        [](PyNode& p) { window(p, "0.42", "0.5", "0.08"); });
  auto dft = [](bool v20) {
    return [v20](PyNode& p) {
      std::string call = p.helper("_onnx_dft") + "(" + p.in(0);
      if (p.has(1)) call += ", " + intScalar(p, 1);
      int64_t axis = 1;
      if (v20) {
        axis = -2;
        if (p.has(2)) {
          auto a = p.constInts(2);
          if (!a || a->size() != 1) p.unsupported("axis computed at run time");
          axis = (*a)[0];
        }
      } else {
        axis = p.attrInt("axis", 1);
      }
      if (!p.has(1)) call += ", None";
      call += ", axis=" + std::to_string(axis);
      if (p.attrInt("inverse", 0)) call += ", inverse=True";
      if (p.attrInt("onesided", 0)) call += ", onesided=True";
      p.assign(call + ")");
    };
  };
  addPy(r, "DFT", 17, "product with the DFT matrix (_onnx_dft)", dft(false));
  addPy(r, "DFT", 20, "product with the DFT matrix (_onnx_dft)", dft(true));
  addPy(r, "STFT", 17, "windowed frames, each through _onnx_dft", [](PyNode& p) {
    std::string call = p.helper("_onnx_stft") + "(" + p.in(0) + ", " + intScalar(p, 1);
    if (p.has(2)) call += ", window=" + (p.constant(2) ? p.weight(2, false) : p.in(2));
    if (p.has(3)) call += ", frame_length=" + intScalar(p, 3);
    if (!p.has(2) && !p.has(3)) p.unsupported("neither window nor frame_length is given");
    if (p.attrInt("onesided", 1) == 0) call += ", onesided=False";
    p.assign(call + ")");
  });
}

}  // namespace fb::codegen
