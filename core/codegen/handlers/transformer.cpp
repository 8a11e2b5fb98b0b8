// The transformer building blocks ONNX added at opsets 23-24: Attention, RMSNormalization, RotaryEmbedding and
// Swish. Written out of matmul / softmax / elementwise calls that PyTorch 1.13 and OneFlow 0.8-1.0 both have (neither
// has a one-call equivalent with ONNX's exact meaning in every release the code targets), so both flavours share
// one text.
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// A floating input computed in float32 when it is narrower (ONNX's stash_type 1); float32/float64 stay as they are.
bool computedAsItself(ir::DataType t) { return t == ir::DataType::Float || t == ir::DataType::Double; }

void registerHelpers() {
  HelperLibrary::instance().add(
      Helper{"_onnx_rotary_embedding",
             R"PY(def _onnx_rotary_embedding(x, cos, sin, position_ids, interleaved, num_heads, rotary_dim):
    # ONNX RotaryEmbedding-23: the first rotary_dim channels of each head are taken as pairs (the two halves, or
    # neighbours when interleaved) and rotated by the angle of the token's position; the rest pass through. x is
    # [batch, heads, seq, head] or [batch, seq, heads * head]; the caches are [batch, seq, rotary_dim / 2], or
    # [max_position, rotary_dim / 2] rows picked by position_ids [batch, seq].
    shape = x.shape
    if x.dim() == 3:
        x = x.reshape(shape[0], shape[1], num_heads, shape[2] // num_heads).transpose(1, 2)
    if rotary_dim == 0:
        rotary_dim = x.shape[-1]
    half = rotary_dim // 2
    if position_ids is not None:
        cos, sin = cos[position_ids], sin[position_ids]
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    rot, rest = x[..., :rotary_dim], x[..., rotary_dim:]
    if interleaved:
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
    else:
        x1, x2 = rot[..., :half], rot[..., half:]
    y1 = cos * x1 - sin * x2
    y2 = sin * x1 + cos * x2
    if interleaved:
        rot = T.stack((y1, y2), -1).reshape(rot.shape)
    else:
        rot = T.cat((y1, y2), -1)
    y = T.cat((rot, rest), -1)
    if len(shape) == 3:
        y = y.transpose(1, 2).reshape(shape)
    return y)PY",
             {}});
  HelperLibrary::instance().add(
      Helper{"_onnx_attention",
             R"PY(def _onnx_attention(q, k, v, mask, past_key, past_value, q_heads, kv_heads, is_causal, scale):
    # ONNX Attention-23: softmax(Q K^T * scale + mask) V per head. Q/K/V are [batch, heads, seq, head] or
    # [batch, seq, heads * head]; query head h reads key/value head h // (q_heads / kv_heads) (grouped-query). The
    # keys and values follow the past ones (present_key/present_value, always 4-D). A bool mask keeps the True
    # places; a mask shorter than the keys is padded with "masked"; the causal mask lets query i see keys up to
    # i + the past length.
    flat = q.dim() == 3
    if flat:
        batch, seq = q.shape[0], q.shape[1]
        q = q.reshape(batch, seq, q_heads, q.shape[2] // q_heads).transpose(1, 2)
        k = k.reshape(batch, k.shape[1], kv_heads, k.shape[2] // kv_heads).transpose(1, 2)
        v = v.reshape(batch, v.shape[1], kv_heads, v.shape[2] // kv_heads).transpose(1, 2)
    if past_key is not None:
        k = T.cat((past_key, k), 2)
        v = T.cat((past_value, v), 2)
    present_key, present_value = k, v
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k = k.repeat_interleave(group, 1)
        v = v.repeat_interleave(group, 1)
    if scale is None:
        scale = 1.0 / float(q.shape[-1]) ** 0.5
    scores = T.matmul(q, k.transpose(-1, -2)) * scale
    total = k.shape[2]
    if mask is not None:
        if mask.dtype == T.bool:
            mask = T.zeros(mask.shape, dtype=scores.dtype).masked_fill(mask.logical_not(), float("-inf"))
        if mask.shape[-1] < total:
            mask = F.pad(mask, (0, total - mask.shape[-1]), value=float("-inf"))
        scores = scores + mask
    if is_causal:
        visible = T.ones((q.shape[2], total), dtype=T.bool).tril(total - q.shape[2])
        scores = scores.masked_fill(visible.logical_not(), float("-inf"))
    y = T.matmul(T.softmax(scores, -1), v)
    if flat:
        y = y.transpose(1, 2).reshape(batch, seq, -1)
    return y, present_key, present_value)PY",
             {}});
}

void registerSwish(convert::HandlerRegistry& r) {
  addPy(r, "Swish", 24, "x * sigmoid(alpha * x)", [](PyNode& p) {
    const std::string x = p.in(0);
    const float alpha = p.attrFloat("alpha", 1.0f);
    // alpha rounded as ONNX stores it (float32), so the product is the one ONNX Runtime computes.
    p.assign(x + " * T.sigmoid(" + (alpha == 1.0f ? x : pyFloat(alpha, ir::DataType::Float) + " * " + x) + ")");
  });
}

void registerRmsNormalization(convert::HandlerRegistry& r) {
  addPy(r, "RMSNormalization", 23, "x / sqrt(mean(x^2 over the dims from axis on) + epsilon) * scale", [](PyNode& p) {
    const std::string x = p.in(0);
    const int64_t axis = p.attrInt("axis", -1);
    const std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
    const int64_t stash = p.attrInt("stash_type", 1);
    const ir::DataType t = p.dtype(0);
    if (stash != 1 && !(stash == 11 && t == ir::DataType::Double)) p.unsupported("stash_type " + std::to_string(stash));
    std::string dims;
    if (auto rank = p.rank(0)) {
      const int64_t from = axis < 0 ? axis + *rank : axis;
      if (from < 0 || from >= *rank) p.unsupported("axis " + std::to_string(axis) + " out of range");
      std::vector<int64_t> d;
      for (int64_t i = from; i < *rank; ++i) d.push_back(i);
      dims = pyIntTuple(d);
    } else {
      dims = "tuple(range(" + std::to_string(axis) + " % " + x + ".dim(), " + x + ".dim()))";
    }
    // Narrow float types are normalized in float32 (stash_type 1) and cast back before the scale, as ONNX says.
    const std::string xs = computedAsItself(t) ? x : x + ".float()";
    std::string y = xs + " * T.rsqrt(" + xs + ".pow(2).mean(dim=" + dims + ", keepdim=True) + " + eps + ")";
    if (xs != x) y = "(" + y + ").to(" + x + ".dtype)";
    p.assign(y + " * " + (p.constant(1) ? p.weight(1, true) : p.in(1)));
  });
}

void registerRotaryEmbedding(convert::HandlerRegistry& r) {
  addPy(r, "RotaryEmbedding", 23, "rotation of each head's channel pairs by the cached cos/sin of its position",
        [](PyNode& p) {
          const int64_t rank = p.rank(0).value_or(0);
          const int64_t heads = p.attrInt("num_heads", 0);
          if (rank != 3 && rank != 4) p.unsupported("input of unknown rank or rank other than 3 and 4");
          if (rank == 3 && heads <= 0) p.unsupported("3-D input without num_heads");
          auto arg = [&](size_t i) { return p.constant(i) ? p.weight(i, false) : p.in(i); };
          p.assign(p.helper("_onnx_rotary_embedding") + "(" + p.in(0) + ", " + arg(1) + ", " + arg(2) + ", " +
                   (p.has(3) ? arg(3) : std::string("None")) + ", " + pyBool(p.attrInt("interleaved", 0) != 0) + ", " +
                   pyInt(heads) + ", " + pyInt(p.attrInt("rotary_embedding_dim", 0)) + ")");
        });
}

void registerAttention(convert::HandlerRegistry& r) {
  addPy(r, "Attention", 23, "softmax(Q K^T * scale + mask) V over (grouped-query) heads, with past key/value",
        [](PyNode& p) {
          if (p.attrFloat("softcap", 0.0f) != 0.0f) p.unsupported("softcap");
          if (p.outUsed(3)) p.unsupported("the qk_matmul_output output");
          if (p.opset >= 24 && p.has(6)) p.unsupported("nonpad_kv_seqlen (Attention-24)");
          if (p.has(4) != p.has(5)) p.unsupported("past_key without past_value or the other way round");
          const auto rank = p.rank(0);
          if (!rank || (*rank != 3 && *rank != 4)) p.unsupported("Q of unknown rank or rank other than 3 and 4");
          const int64_t qHeads = p.attrInt("q_num_heads", 0), kvHeads = p.attrInt("kv_num_heads", 0);
          if (*rank == 3 && (qHeads <= 0 || kvHeads <= 0))
            p.unsupported("3-D Q/K/V without q_num_heads and kv_num_heads");
          auto arg = [&](size_t i) {
            return !p.has(i) ? std::string("None") : p.constant(i) ? p.weight(i, false) : p.in(i);
          };
          const std::string scale =
              p.hasAttr("scale") ? pyFloat(p.attrFloat("scale", 1.0f), ir::DataType::Float) : std::string("None");
          const std::string call = p.helper("_onnx_attention") + "(" + p.in(0) + ", " + arg(1) + ", " + arg(2) + ", " +
                                   arg(3) + ", " + arg(4) + ", " + arg(5) + ", " + pyInt(qHeads) + ", " +
                                   pyInt(kvHeads) + ", " + pyBool(p.attrInt("is_causal", 0) != 0) + ", " + scale + ")";
          const std::string y = p.out(0);
          const std::string presentKey = p.outUsed(1) ? p.out(1) : "_";
          const std::string presentValue = p.outUsed(2) ? p.out(2) : "_";
          p.line(y + ", " + presentKey + ", " + presentValue + " = " + call);
        });
}

}  // namespace

void registerTransformerCode(convert::HandlerRegistry& r) {
  registerHelpers();
  registerSwish(r);
  registerRmsNormalization(r);
  registerRotaryEmbedding(r);
  registerAttention(r);
}

}  // namespace fb::codegen
