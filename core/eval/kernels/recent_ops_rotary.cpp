// RotaryEmbedding-23 (RoPE): each head's first rotary_embedding_dim channels are taken as pairs (the two halves, or
// neighbours when interleaved) and rotated by the angle whose cosine and sine the caches hold for the token's
// position; the remaining channels pass through. Input is [batch, heads, seq, head] or [batch, seq, heads*head]
// (num_heads then says how to split it). Computed in the input's float type.
#include <string>

#include "eval/kernels/recent_ops.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

std::vector<Value> rotaryEmbedding(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& cosCache = c.input(1);
  const Tensor& sinCache = c.input(2);
  const Tensor* positions = c.optionalInput(3);
  const bool interleaved = c.node.attrInt("interleaved", 0) != 0;
  const int64_t numHeadsAttr = c.node.attrInt("num_heads", 0);
  int64_t rotaryDim = c.node.attrInt("rotary_embedding_dim", 0);

  if (x.rank() != 3 && x.rank() != 4) badInput("RotaryEmbedding's input must be 3-D or 4-D, got " + describe(x));
  if (cosCache.dtype() != x.dtype() || sinCache.dtype() != x.dtype() || cosCache.dims() != sinCache.dims())
    badInput("RotaryEmbedding's caches " + describe(cosCache) + " and " + describe(sinCache) +
             " must match each other and the input's type");
  const int64_t batch = x.dim(0);
  int64_t heads = 0, seq = 0, headSize = 0;
  if (x.rank() == 4) {
    heads = x.dim(1);
    seq = x.dim(2);
    headSize = x.dim(3);
  } else {
    seq = x.dim(1);
    heads = numHeadsAttr;
    if (heads <= 0 || x.dim(2) % heads != 0)
      badInput("RotaryEmbedding of 3-D " + describe(x) + " needs num_heads dividing the hidden size, got " +
               std::to_string(numHeadsAttr));
    headSize = x.dim(2) / heads;
  }
  if (rotaryDim == 0) rotaryDim = headSize;
  if (rotaryDim < 0 || rotaryDim > headSize || rotaryDim % 2 != 0)
    badInput("RotaryEmbedding's rotary_embedding_dim " + std::to_string(rotaryDim) +
             " must be even and at most the head size " + std::to_string(headSize));
  const int64_t half = rotaryDim / 2;

  // Row of the caches for token (b, s): position_ids picks it from a [max_position, half] table, else the caches
  // are [batch, seq, half] already.
  std::vector<int64_t> rowOf(static_cast<size_t>(batch * seq));
  if (positions) {
    if (positions->dims() != std::vector<int64_t>{batch, seq} || positions->dtype() != ir::DataType::Int64)
      badInput("RotaryEmbedding's position_ids must be int64 [batch, seq], got " + describe(*positions));
    if (cosCache.rank() != 2 || cosCache.dim(1) != half)
      badInput("RotaryEmbedding's caches must be [max_position, " + std::to_string(half) + "] with position_ids, got " +
               describe(cosCache));
    for (int64_t k = 0; k < batch * seq; ++k) {
      const int64_t p = positions->int64At(k);
      if (p < 0 || p >= cosCache.dim(0))
        badInput("RotaryEmbedding's position " + std::to_string(p) + " is outside the caches' " +
                 std::to_string(cosCache.dim(0)) + " rows");
      rowOf[static_cast<size_t>(k)] = p;
    }
  } else {
    if (cosCache.dims() != std::vector<int64_t>{batch, seq, half})
      badInput("RotaryEmbedding's caches must be [" + std::to_string(batch) + ", " + std::to_string(seq) + ", " +
               std::to_string(half) + "] without position_ids, got " + describe(cosCache));
    for (int64_t k = 0; k < batch * seq; ++k) rowOf[static_cast<size_t>(k)] = k;
  }

  return {visitFloating(x.dtype(), [&]<typename T>() -> Tensor {
    Tensor y = Tensor::empty(x.dtype(), x.dims());
    const T* p = x.data<T>();
    const T* cosData = cosCache.data<T>();
    const T* sinData = sinCache.data<T>();
    T* q = y.mutableData<T>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t s = 0; s < seq; ++s) {
          const int64_t base =
              x.rank() == 4 ? ((b * heads + h) * seq + s) * headSize : (b * seq + s) * heads * headSize + h * headSize;
          const T* cosRow = cosData + rowOf[static_cast<size_t>(b * seq + s)] * half;
          const T* sinRow = sinData + rowOf[static_cast<size_t>(b * seq + s)] * half;
          for (int64_t i = 0; i < half; ++i) {
            const int64_t first = base + (interleaved ? 2 * i : i);
            const int64_t second = base + (interleaved ? 2 * i + 1 : i + half);
            const T x1 = p[first], x2 = p[second];
            q[first] = cosRow[i] * x1 - sinRow[i] * x2;
            q[second] = sinRow[i] * x1 + cosRow[i] * x2;
          }
          for (int64_t d = rotaryDim; d < headSize; ++d) q[base + d] = p[base + d];
        }
    return y;
  })};
}

}  // namespace

void registerRecentRotaryKernels(KernelRegistry& r) {
  r.add("RotaryEmbedding", 23, rotaryEmbedding);  // float16 and bfloat16 computed in float
}

}  // namespace fb::eval
