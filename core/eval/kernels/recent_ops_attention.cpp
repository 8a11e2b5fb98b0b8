// Attention-23/24/25: scaled dot-product attention over heads, covering multi-head, grouped-query and multi-query
// forms (query head h reads key/value head h / (q_heads / kv_heads)). Keys and values are appended to an optional
// past cache (returned as present_key/present_value); an additive or boolean mask (broadcast, padded with "masked"
// up to the total length), a causal mask aligned to the end of the past, and (24) per-batch valid key counts are
// added before the softmax; softcap bounds the scores first. Computed in the inputs' float type.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "eval/kernels/recent_ops.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

// Where element (b, h, s, d) of a 4-D [batch, heads, seq, head] tensor or its 3-D [batch, seq, heads * head] form
// lives.
struct HeadLayout {
  int64_t heads = 0, seq = 0, head = 0;
  bool flat = false;  // the 3-D form
  int64_t at(int64_t b, int64_t h, int64_t s, int64_t d) const {
    return flat ? ((b * seq + s) * heads + h) * head + d : ((b * heads + h) * seq + s) * head + d;
  }
};

HeadLayout layoutOf(const Tensor& t, int64_t batch, int64_t numHeadsAttr, const char* name) {
  HeadLayout l;
  if (t.rank() == 4) {
    if (t.dim(0) != batch) badInput(std::string("Attention's ") + name + " " + describe(t) + " has another batch");
    l.heads = t.dim(1);
    l.seq = t.dim(2);
    l.head = t.dim(3);
  } else if (t.rank() == 3) {
    if (t.dim(0) != batch) badInput(std::string("Attention's ") + name + " " + describe(t) + " has another batch");
    if (numHeadsAttr <= 0 || t.dim(2) % numHeadsAttr != 0)
      badInput(std::string("Attention's 3-D ") + name + " " + describe(t) +
               " needs a head count attribute dividing its hidden size");
    l.flat = true;
    l.heads = numHeadsAttr;
    l.seq = t.dim(1);
    l.head = t.dim(2) / numHeadsAttr;
  } else {
    badInput(std::string("Attention's ") + name + " must be 3-D or 4-D, got " + describe(t));
  }
  return l;
}

std::vector<Value> attention(const KernelContext& c) {
  const Tensor& q = c.input(0);
  const Tensor& k = c.input(1);
  const Tensor& v = c.input(2);
  const Tensor* mask = c.optionalInput(3);
  const Tensor* pastKey = c.optionalInput(4);
  const Tensor* pastValue = c.optionalInput(5);
  const Tensor* nonpad = c.opset >= 24 ? c.optionalInput(6) : nullptr;
  const bool causal = c.node.attrInt("is_causal", 0) != 0;
  const int64_t qkMode = c.node.attrInt("qk_matmul_output_mode", 0);
  const double softcap = c.node.attrFloat("softcap", 0.0f);
  if (c.opset >= 25 && (c.node.attrInt("left_window_size", -1) != -1 || c.node.attrInt("right_window_size", -1) != -1))
    unsupported("Attention's sliding window (left_window_size/right_window_size) is not implemented");

  if (q.dtype() != k.dtype() || q.dtype() != v.dtype() || q.rank() != k.rank() || q.rank() != v.rank())
    badInput("Attention's Q, K and V must share type and rank: " + describe(q) + ", " + describe(k) + ", " +
             describe(v));
  const int64_t batch = q.rank() >= 3 ? q.dim(0) : 0;
  const HeadLayout ql = layoutOf(q, batch, c.node.attrInt("q_num_heads", 0), "Q");
  const HeadLayout kl = layoutOf(k, batch, c.node.attrInt("kv_num_heads", 0), "K");
  const HeadLayout vl = layoutOf(v, batch, c.node.attrInt("kv_num_heads", 0), "V");
  if (kl.head != ql.head || kl.heads != vl.heads || kl.seq != vl.seq)
    badInput("Attention's K " + describe(k) + " and V " + describe(v) + " do not fit Q " + describe(q));
  if (kl.heads <= 0 || ql.heads % kl.heads != 0)
    badInput("Attention's " + std::to_string(ql.heads) + " query heads are not a multiple of its " +
             std::to_string(kl.heads) + " key/value heads");
  const int64_t group = ql.heads / kl.heads;
  const int64_t vHead = vl.head;
  if ((pastKey == nullptr) != (pastValue == nullptr))
    badInput("Attention needs both past_key and past_value, or neither");
  int64_t past = 0;
  if (pastKey) {
    // Both 4-D [batch, kv_heads, past, head], the same past length.
    past = pastKey->rank() == 4 ? pastKey->dim(2) : -1;
    if (pastKey->dims() != std::vector<int64_t>{batch, kl.heads, past, kl.head} ||
        pastValue->dims() != std::vector<int64_t>{batch, kl.heads, past, vHead} || pastKey->dtype() != q.dtype() ||
        pastValue->dtype() != q.dtype())
      badInput("Attention's past_key " + describe(*pastKey) + " and past_value " + describe(*pastValue) +
               " do not fit K and V");
  }
  const int64_t total = past + kl.seq;
  std::vector<int64_t> valid(static_cast<size_t>(batch), total);
  if (nonpad) {
    if (pastKey) badInput("Attention's nonpad_kv_seqlen cannot be combined with past_key/past_value");
    if (nonpad->dims() != std::vector<int64_t>{batch} || nonpad->dtype() != ir::DataType::Int64)
      badInput("Attention's nonpad_kv_seqlen must be int64 [batch], got " + describe(*nonpad));
    for (int64_t b = 0; b < batch; ++b) {
      valid[static_cast<size_t>(b)] = nonpad->int64At(b);
      if (valid[static_cast<size_t>(b)] < 0 || valid[static_cast<size_t>(b)] > total)
        badInput("Attention's nonpad_kv_seqlen " + std::to_string(valid[static_cast<size_t>(b)]) + " is outside 0.." +
                 std::to_string(total));
    }
  }
  // The mask broadcasts (numpy rules) to [batch, q_heads, q_seq, <= total]; columns past its end are masked.
  std::vector<int64_t> maskDims(4, 1);
  if (mask) {
    if (mask->rank() < 2 || mask->rank() > 4 || (mask->dtype() != ir::DataType::Bool && mask->dtype() != q.dtype()))
      badInput("Attention's attn_mask must be bool or Q's type, of rank 2 to 4, got " + describe(*mask));
    for (size_t d = 0; d < mask->rank(); ++d) maskDims[4 - mask->rank() + d] = mask->dim(d);
    const int64_t want[3] = {batch, ql.heads, ql.seq};
    for (int d = 0; d < 3; ++d)
      if (maskDims[static_cast<size_t>(d)] != 1 && maskDims[static_cast<size_t>(d)] != want[d])
        badInput("Attention's attn_mask " + describe(*mask) + " does not broadcast to the scores");
    if (maskDims[3] > total) badInput("Attention's attn_mask " + describe(*mask) + " is longer than the keys");
  }
  if (qkMode < 0 || qkMode > 3) badInput("Attention's qk_matmul_output_mode must be 0 to 3");
  const size_t outputs = std::min<size_t>(4, std::max<size_t>(1, c.node.outputs().size()));
  const bool wantScores = outputs > 3 && c.node.output(3) != nullptr;
  if (wantScores && (qkMode == 1 || qkMode == 2 || (qkMode == 0 && softcap > 0)))
    unsupported("Attention's qk_matmul_output with mode " + std::to_string(qkMode) +
                (softcap > 0 ? " and softcap" : "") + " is not implemented");

  return visitFloating(q.dtype(), [&]<typename T>() -> std::vector<Value> {
    const T inf = std::numeric_limits<T>::infinity();
    // present_key / present_value: the past followed by the new keys, always 4-D.
    Tensor presentKey = Tensor::empty(q.dtype(), {batch, kl.heads, total, kl.head});
    Tensor presentValue = Tensor::empty(q.dtype(), {batch, kl.heads, total, vHead});
    T* pk = presentKey.mutableData<T>();
    T* pv = presentValue.mutableData<T>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t h = 0; h < kl.heads; ++h)
        for (int64_t s = 0; s < total; ++s) {
          const bool old = s < past;
          for (int64_t d = 0; d < kl.head; ++d)
            pk[((b * kl.heads + h) * total + s) * kl.head + d] =
                old ? pastKey->data<T>()[((b * kl.heads + h) * past + s) * kl.head + d]
                    : k.data<T>()[kl.at(b, h, s - past, d)];
          for (int64_t d = 0; d < vHead; ++d)
            pv[((b * kl.heads + h) * total + s) * vHead + d] =
                old ? pastValue->data<T>()[((b * kl.heads + h) * past + s) * vHead + d]
                    : v.data<T>()[vl.at(b, h, s - past, d)];
        }
    const double scale =
        c.node.hasAttr("scale") ? c.node.attrFloat("scale", 1.0f) : 1.0 / std::sqrt(static_cast<double>(ql.head));
    Tensor y = Tensor::empty(q.dtype(), q.rank() == 4 ? std::vector<int64_t>{batch, ql.heads, ql.seq, vHead}
                                                      : std::vector<int64_t>{batch, ql.seq, ql.heads * vHead});
    const HeadLayout yl{ql.heads, ql.seq, vHead, q.rank() == 3};
    Tensor scoresOut = wantScores ? Tensor::empty(q.dtype(), {batch, ql.heads, ql.seq, total}) : Tensor();
    std::vector<T> row(static_cast<size_t>(total));
    const T* qd = q.data<T>();
    for (int64_t b = 0; b < batch; ++b) {
      // Causal frontier: query i sees key j <= i + offset, offset being the keys before this block of queries.
      const int64_t offset = nonpad ? valid[static_cast<size_t>(b)] - ql.seq : past;
      for (int64_t h = 0; h < ql.heads; ++h) {
        const int64_t kvh = h / group;
        for (int64_t i = 0; i < ql.seq; ++i) {
          for (int64_t j = 0; j < total; ++j) {
            T dot = 0;
            const T* key = pk + ((b * kl.heads + kvh) * total + j) * kl.head;
            for (int64_t d = 0; d < ql.head; ++d) dot += qd[ql.at(b, h, i, d)] * key[d];
            T s = static_cast<T>(dot * scale);
            if (softcap > 0) s = static_cast<T>(softcap * std::tanh(s / softcap));
            if (wantScores && qkMode == 0)
              scoresOut.mutableData<T>()[((b * ql.heads + h) * ql.seq + i) * total + j] = s;
            if (mask) {
              if (j >= maskDims[3]) {
                s = -inf;
              } else {
                const int64_t mb = maskDims[0] == 1 ? 0 : b, mh = maskDims[1] == 1 ? 0 : h,
                              mi = maskDims[2] == 1 ? 0 : i;
                const int64_t at = ((mb * maskDims[1] + mh) * maskDims[2] + mi) * maskDims[3] + j;
                if (mask->dtype() == ir::DataType::Bool)
                  s = mask->data<bool>()[at] ? s : -inf;
                else
                  s += mask->data<T>()[at];
              }
            }
            if (causal && j > i + offset) s = -inf;
            if (j >= valid[static_cast<size_t>(b)]) s = -inf;
            row[static_cast<size_t>(j)] = s;
          }
          T top = -inf;
          for (T s : row) top = std::max(top, s);
          T sum = 0;
          for (T& s : row) sum += (s = std::exp(s - top));
          for (T& s : row) s /= sum;
          if (wantScores && qkMode == 3)
            for (int64_t j = 0; j < total; ++j)
              scoresOut.mutableData<T>()[((b * ql.heads + h) * ql.seq + i) * total + j] = row[static_cast<size_t>(j)];
          for (int64_t d = 0; d < vHead; ++d) {
            T acc = 0;
            for (int64_t j = 0; j < total; ++j)
              acc += row[static_cast<size_t>(j)] * pv[((b * kl.heads + kvh) * total + j) * vHead + d];
            y.mutableData<T>()[yl.at(b, h, i, d)] = acc;
          }
        }
      }
    }
    std::vector<Value> out{y, presentKey, presentValue, scoresOut};
    out.resize(outputs);
    return out;
  });
}

}  // namespace

void registerRecentAttentionKernels(KernelRegistry& r) {
  r.add("Attention", 23, attention);
  r.add("Attention", 24, attention);  // nonpad_kv_seqlen
  r.add("Attention", 25, attention);  // sliding-window attributes (only their default, unlimited, here)
}

}  // namespace fb::eval
