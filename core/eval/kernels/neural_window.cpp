#include "eval/kernels/neural_window.h"

#include <string>

#include "eval/runtime/run_error.h"

namespace fb::eval {

namespace {

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t d : v) p *= d;
  return p;
}

}  // namespace

int64_t Window::inCount() const { return product(in); }
int64_t Window::outCount() const { return product(out); }
int64_t Window::kernelCount() const { return product(kernel); }

size_t spatialRankOf(const std::vector<int64_t>& dims, const char* what) {
  if (dims.size() < 3)
    badInput(std::string(what) + " needs an input of rank 3 or more ([N, C, spatial...]), given rank " +
             std::to_string(dims.size()));
  return dims.size() - 2;
}

std::vector<int64_t> perAxis(const ir::Node& n, const char* name, size_t rank, int64_t fallback) {
  if (!n.hasAttr(name)) return std::vector<int64_t>(rank, fallback);
  std::vector<int64_t> v = n.attrInts(name);
  if (v.size() != rank)
    badInput(std::string(name) + " has " + std::to_string(v.size()) + " values for " + std::to_string(rank) +
             " spatial dims");
  return v;
}

Window slidingWindow(const ir::Node& n, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                     bool ceilMode) {
  const size_t r = in.size();
  Window w;
  w.in = in;
  w.kernel = kernel;
  if (kernel.size() != r)
    badInput("the kernel has " + std::to_string(kernel.size()) + " spatial dims, the input " + std::to_string(r));
  w.strides = perAxis(n, "strides", r, 1);
  w.dilations = perAxis(n, "dilations", r, 1);
  for (size_t k = 0; k < r; ++k) {
    if (kernel[k] <= 0) badInput("kernel dim " + std::to_string(kernel[k]) + " is not positive");
    if (w.strides[k] <= 0) badInput("stride " + std::to_string(w.strides[k]) + " is not positive");
    if (w.dilations[k] <= 0) badInput("dilation " + std::to_string(w.dilations[k]) + " is not positive");
    if (kernel[k] > (int64_t{1} << 32) || w.strides[k] > (int64_t{1} << 32) || w.dilations[k] > (int64_t{1} << 32))
      badInput("kernel, stride or dilation beyond 2^32");
  }
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  w.padBegin.assign(r, 0);
  w.padEnd.assign(r, 0);
  w.out.assign(r, 0);
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t k = 0; k < r; ++k) {
      w.out[k] = (in[k] + w.strides[k] - 1) / w.strides[k];
      const int64_t total = std::max<int64_t>(0, (w.out[k] - 1) * w.strides[k] + w.extent(k) - in[k]);
      w.padBegin[k] = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.padEnd[k] = total - w.padBegin[k];
    }
    return w;
  }
  if (autoPad != "NOTSET" && autoPad != "VALID") badInput("auto_pad '" + autoPad + "' is not an ONNX value");
  if (autoPad == "NOTSET" && n.hasAttr("pads")) {
    std::vector<int64_t> pads = n.attrInts("pads");
    if (pads.size() != 2 * r)
      badInput("pads has " + std::to_string(pads.size()) + " values for " + std::to_string(r) + " spatial dims");
    for (size_t k = 0; k < r; ++k) {
      w.padBegin[k] = pads[k];
      w.padEnd[k] = pads[k + r];
      if (pads[k] < 0 || pads[k + r] < 0) badInput("pads are negative");
      if (pads[k] > (int64_t{1} << 32) || pads[k + r] > (int64_t{1} << 32)) badInput("pads beyond 2^32");
    }
  }
  for (size_t k = 0; k < r; ++k) {
    const int64_t span = in[k] + w.padBegin[k] + w.padEnd[k] - w.extent(k);
    if (span < 0)
      badInput("the kernel (span " + std::to_string(w.extent(k)) + ") is larger than the padded input (" +
               std::to_string(in[k] + w.padBegin[k] + w.padEnd[k]) + ") on spatial axis " + std::to_string(k));
    w.out[k] = (ceilMode ? (span + w.strides[k] - 1) / w.strides[k] : span / w.strides[k]) + 1;
    if (ceilMode && (w.out[k] - 1) * w.strides[k] >= in[k] + w.padBegin[k]) --w.out[k];
  }
  return w;
}

}  // namespace fb::eval
