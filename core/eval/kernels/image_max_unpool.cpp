// MaxUnpool: the inverse of MaxPool's indices output. Each input value goes to the position its index names in the
// flattened tensor of the shape the pooling attributes imply (indices count over the whole tensor, as MaxPool
// produces them); every other position is zero. An output_shape input, at least that large on every axis, receives
// that tensor in its leading corner (as ONNX's reference places it).
#include <cstring>
#include <string>
#include <vector>

#include "eval/kernels/image_kernels.h"
#include "eval/runtime/run_error.h"

namespace fb::eval {

std::vector<Value> maxUnpoolKernel(const KernelContext& c) {
  const ir::Node& n = c.node;
  const Tensor& x = c.input(0);
  const Tensor& indices = c.input(1);
  if (x.rank() < 3) badInput("MaxUnpool input " + describe(x) + " has no spatial axes");
  if (indices.dims() != x.dims()) badInput("MaxUnpool indices " + describe(indices) + " do not match " + describe(x));
  const size_t k = x.rank() - 2;
  const std::vector<int64_t> kernel = n.attrInts("kernel_shape");
  if (kernel.size() != k) badInput("MaxUnpool kernel_shape does not give one size per spatial axis");
  std::vector<int64_t> strides = n.attrInts("strides");
  if (strides.empty()) strides.assign(k, 1);
  std::vector<int64_t> pads = n.attrInts("pads");
  if (pads.empty()) pads.assign(2 * k, 0);
  if (strides.size() != k || pads.size() != 2 * k) badInput("MaxUnpool strides or pads do not fit the spatial axes");
  std::vector<int64_t> inferred = {x.dim(0), x.dim(1)};
  for (size_t a = 0; a < k; ++a) {
    if (strides[a] <= 0 || kernel[a] <= 0) badInput("MaxUnpool kernel_shape and strides must be positive");
    const int64_t in = x.dim(a + 2);
    if (in > (INT64_MAX / 4) / strides[a] || kernel[a] > INT64_MAX / 4) badInput("MaxUnpool output is too large");
    inferred.push_back((in - 1) * strides[a] + kernel[a] - pads[a] - pads[a + k]);
  }
  for (int64_t d : inferred)
    if (d < 0) badInput("MaxUnpool output would have a negative dimension");
  const size_t es = ir::elementSize(x.dtype());
  if (es == 0 || x.isString()) unsupported("MaxUnpool of " + describe(x));
  Tensor y = Tensor::zeros(x.dtype(), inferred);
  const std::byte* src = x.bytes().data();
  std::byte* dst = y.mutableData<std::byte>();
  for (int64_t i = 0; i < x.size(); ++i) {
    const int64_t at = indices.int64At(i);
    if (at < 0 || at >= y.size())
      badInput("MaxUnpool index " + std::to_string(at) + " is outside the output of " + std::to_string(y.size()));
    std::memcpy(dst + static_cast<size_t>(at) * es, src + static_cast<size_t>(i) * es, es);
  }
  const Tensor* shape = c.optionalInput(2);
  if (!shape) return {std::move(y)};
  const std::vector<int64_t> outDims = shape->toInt64s();
  if (outDims.size() != x.rank()) badInput("MaxUnpool output_shape does not have the input's rank");
  for (size_t a = 0; a < outDims.size(); ++a)
    if (outDims[a] < inferred[a])
      badInput("MaxUnpool output_shape is smaller than the unpooled shape on axis " + std::to_string(a));
  if (outDims == inferred) return {std::move(y)};
  Tensor out = Tensor::zeros(x.dtype(), outDims);
  // Copy rows of the innermost axis into the larger tensor.
  const int64_t row = inferred.back();
  const int64_t rows = row == 0 ? 0 : y.size() / row;
  std::byte* to = out.mutableData<std::byte>();
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rest = r, offset = 0, stride = outDims.back();
    for (size_t a = inferred.size() - 1; a-- > 0;) {
      offset += (rest % inferred[a]) * stride;
      rest /= inferred[a];
      stride *= outDims[a];
    }
    std::memcpy(to + static_cast<size_t>(offset) * es, dst + static_cast<size_t>(r * row) * es,
                static_cast<size_t>(row) * es);
  }
  return {std::move(out)};
}

}  // namespace fb::eval
