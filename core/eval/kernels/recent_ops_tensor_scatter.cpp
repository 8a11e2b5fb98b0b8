// TensorScatter-24: a KV-cache update. The output is past_cache with each batch row's `update` written along the
// sequence axis starting at that row's write index (0 when write_indices is omitted); in circular mode positions
// wrap modulo the cache length, in linear mode they must fit. Elements are moved as bytes, whatever their type.
#include <cstring>
#include <string>

#include "eval/kernels/recent_ops.h"
#include "eval/kernels/reduction_axes.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> tensorScatter(const KernelContext& c) {
  const Tensor& past = c.input(0);
  const Tensor& update = c.input(1);
  const Tensor* writeIndices = c.optionalInput(2);
  const std::string mode = c.node.attrString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    badInput("TensorScatter's mode must be linear or circular, got '" + mode + "'");
  const bool circular = mode == "circular";
  if (past.isString() || ir::elementSize(past.dtype()) == 0 ||
      past.byteSize() != past.size() * ir::elementSize(past.dtype()))
    unsupported("TensorScatter of " + describe(past) + " (string or sub-byte elements)");
  if (past.rank() < 2)
    badInput("TensorScatter's past_cache must have a batch and a sequence axis, got " + describe(past));
  const size_t axis = normalizeAxis(c.node.attrInt("axis", -2), past.rank());
  if (axis == 0) badInput("TensorScatter's axis cannot be the batch axis 0");
  if (update.dtype() != past.dtype() || update.rank() != past.rank())
    badInput("TensorScatter's update " + describe(update) + " does not fit past_cache " + describe(past));
  for (size_t k = 0; k < past.rank(); ++k)
    if (k != axis ? update.dim(k) != past.dim(k) : update.dim(k) > past.dim(k))
      badInput("TensorScatter's update " + describe(update) + " does not fit past_cache " + describe(past));
  const int64_t batch = past.dim(0);
  if (writeIndices &&
      (writeIndices->dims() != std::vector<int64_t>{batch} || writeIndices->dtype() != ir::DataType::Int64))
    badInput("TensorScatter's write_indices must be int64 [" + std::to_string(batch) + "], got " +
             describe(*writeIndices));

  const AxisSplit cache = splitAt(past.dims(), axis);
  const int64_t seq = update.dim(axis);
  const int64_t maxSeq = cache.axis;
  std::vector<int64_t> start(static_cast<size_t>(batch), 0);
  for (int64_t b = 0; b < batch && writeIndices; ++b) {
    const int64_t w = writeIndices->int64At(b);
    if (w < 0 || (!circular && w + seq > maxSeq))
      badInput("TensorScatter's write index " + std::to_string(w) + " with " + std::to_string(seq) +
               " new entries does not fit a cache of " + std::to_string(maxSeq));
    start[static_cast<size_t>(b)] = circular && maxSeq > 0 ? w % maxSeq : w;
  }

  Tensor out = past.copy();
  const size_t elem = ir::elementSize(past.dtype());
  const size_t rowBytes = static_cast<size_t>(cache.inner) * elem;
  const int64_t perBatch = batch > 0 ? cache.outer / batch : 0;  // prefix positions per batch entry
  const std::byte* src = update.bytes().data();
  std::byte* dst = out.mutableData<std::byte>();
  for (int64_t o = 0; o < cache.outer; ++o) {
    const int64_t b = o / perBatch;
    for (int64_t s = 0; s < seq; ++s) {
      int64_t at = start[static_cast<size_t>(b)] + s;
      if (circular) at %= maxSeq;
      std::memcpy(dst + static_cast<size_t>(o * maxSeq + at) * rowBytes,
                  src + static_cast<size_t>(o * seq + s) * rowBytes, rowBytes);
    }
  }
  return {out};
}

}  // namespace

void registerRecentTensorScatterKernels(KernelRegistry& r) {
  r.add("TensorScatter", 24, tensorScatter, HalfTypes::AsIs);  // bytes moved, no arithmetic
}

}  // namespace fb::eval
