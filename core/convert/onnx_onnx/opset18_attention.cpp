// Attention-23/24/25 written as an opset-17 body for the node at hand (ONNX defines it by a function body).
#include <cmath>
#include <string>

#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/opset18_body.h"
#include "convert/onnx_onnx/opset18_steps.h"

namespace fb::convert::onnx_onnx {
// Attention-23/24/25: softmax(Q K^T * scale + mask [+ causal mask]) V, per head, with K/V heads repeated for
// grouped-query attention and the KV cache (past ++ new = present) concatenated along the sequence. softcap,
// sliding windows, nonpad_kv_seqlen and the qk_matmul output are not decomposed (refused by name).
void attentionTo17(ir::Node& n, HandlerContext& ctx) {
  requireFloat32(n, ctx);
  if (n.input(6)) throw Unsupported("Attention-24: the nonpad_kv_seqlen input is not decomposed");
  const bool past = n.input(4) != nullptr;
  if (past != (n.input(5) != nullptr)) throw Unsupported("Attention: past_key and past_value must come together");
  if (isUsed(n.output(3))) throw Unsupported("Attention: the qk_matmul_output output is used; it is not decomposed");
  if (n.attrFloat("softcap", 0.0f) != 0.0f) throw Unsupported("Attention: softcap is not decomposed");
  if (n.attrInt("left_window_size", -1) != -1 || n.attrInt("right_window_size", -1) != -1)
    throw Unsupported("Attention-25: sliding windows are not decomposed");
  auto rank = ctx.rank(n.input(0));
  if (!rank || (*rank != 3 && *rank != 4)) throw Unsupported("Attention: Q's rank must be known (3 or 4)");
  auto qs = ctx.staticShape(n.input(0));
  auto ks = ctx.staticShape(n.input(1));
  auto vs = ctx.staticShape(n.input(2));
  int64_t qh = n.attrInt("q_num_heads", 0), kvh = n.attrInt("kv_num_heads", 0);
  if (*rank == 4) {
    if (!qh && qs) qh = (*qs)[1];
    if (!kvh && ks) kvh = (*ks)[1];
  }
  if (qh <= 0 || kvh <= 0)
    throw Unsupported("Attention: the numbers of heads are unknown (no attributes, no static shapes)");
  if (qh % kvh) throw Unsupported("Attention: q heads are not a multiple of kv heads");
  auto headDim = [&](const std::optional<std::vector<int64_t>>& s, int64_t heads) -> int64_t {
    if (!s) return 0;
    return *rank == 4 ? (*s)[3] : (*s)[2] / heads;
  };
  const int64_t dq = headDim(qs, qh), dv = headDim(vs, kvh);
  double scale = 0;
  if (n.hasAttr("scale"))
    scale = n.attrFloat("scale", 1.0f);
  else if (dq > 0)
    scale = 1.0 / std::sqrt(static_cast<double>(dq));
  else
    throw Unsupported("Attention: no scale attribute and the head size is not static");
  const int64_t groups = qh / kvh;
  if (groups > 1 && (dq <= 0 || dv <= 0))
    throw Unsupported("Attention: grouped-query attention needs static head sizes");
  const bool causal = n.attrInt("is_causal", 0) != 0;
  std::vector<float> causalMask;
  int64_t sq = 0, skv = 0;
  if (causal) {
    if (!qs || !ks) throw Unsupported("Attention: is_causal needs static sequence lengths for its mask");
    sq = *rank == 4 ? (*qs)[2] : (*qs)[1];
    skv = *rank == 4 ? (*ks)[2] : (*ks)[1];
    // With a cache, query i sits at position past_len + i: it sees keys up to there.
    int64_t pastLen = 0;
    if (past) {
      auto ps = ctx.staticShape(n.input(4));
      if (!ps || ps->size() != 4)
        throw Unsupported("Attention: is_causal with a cache needs the cache's static length");
      pastLen = (*ps)[2];
    }
    int64_t cells = 0;
    if (sq < 0 || skv < 0 || pastLen < 0 || __builtin_add_overflow(skv, pastLen, &skv) ||
        __builtin_mul_overflow(sq, skv, &cells) || cells > (int64_t(1) << 24))
      throw Unsupported("Attention: the causal mask (query length x key length) is too large to write as a constant");
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t j = 0; j < skv; ++j) causalMask.push_back(j <= i + pastLen ? 0.0f : -INFINITY);
  }
  const bool mask = n.input(3) != nullptr;
  const ir::DataType maskType = mask ? ctx.elemType(n.input(3)) : ir::DataType::Undefined;
  if (mask && maskType != ir::DataType::Bool && maskType != ir::DataType::Float)
    throw Unsupported("Attention: the mask's type is unknown or not bool/float");
  std::vector<std::string> ins{"Q", "K", "V"};
  if (mask || past) ins.push_back("attn_mask");
  if (past) ins.insert(ins.end(), {"past_key", "past_value"});
  const bool present = isUsed(n.output(1)) || isUsed(n.output(2));
  replaceByBody17(
      n, ctx, ins,
      present ? std::vector<std::string>{"Y", "present_key", "present_value"} : std::vector<std::string>{"Y"},
      [&](onnx::FunctionBuilder& b) {
        auto heads = [&](const char* in, const char* out, int64_t h) {
          if (*rank == 4) {
            b.Add((std::string(out) + " = Identity(" + in + ")").c_str());
            return;
          }
          std::string shape = std::string(out) + "_shape";
          b.Const(shape, std::vector<int64_t>{0, 0, h, -1});
          b.Add((std::string(out) + "_split = Reshape(" + in + ", " + shape + ")").c_str());
          b.Add((std::string(out) + " = Transpose <perm = [0, 2, 1, 3]> (" + out + "_split)").c_str());
        };
        heads("Q", "q4", qh);
        heads("K", "k4", kvh);
        heads("V", "v4", kvh);
        const char* k = "k4";
        const char* v = "v4";
        if (past) {
          b.Add("kc = Concat <axis = 2> (past_key, k4)");
          b.Add("vc = Concat <axis = 2> (past_value, v4)");
          k = "kc";
          v = "vc";
        }
        if (present) {
          b.Add((std::string("present_key = Identity(") + k + ")").c_str());
          b.Add((std::string("present_value = Identity(") + v + ")").c_str());
        }
        if (groups > 1) {
          b.Const("head_axis", std::vector<int64_t>{2});
          b.Const("repeat", std::vector<int64_t>{1, 1, groups, 1, 1});
          b.Const("k_heads", std::vector<int64_t>{0, qh, -1, dq});
          b.Const("v_heads", std::vector<int64_t>{0, qh, -1, dv});
          for (const char* x : {"k", "v"}) {
            std::string s(x);
            b.Add((s + "5 = Unsqueeze(" + (s == "k" ? k : v) + ", head_axis)").c_str());
            b.Add((s + "rep = Expand(" + s + "5, repeat)").c_str());
            b.Add((s + "g = Reshape(" + s + "rep, " + s + "_heads)").c_str());
          }
          k = "kg";
          v = "vg";
        }
        b.Add((std::string("kt = Transpose <perm = [0, 1, 3, 2]> (") + k + ")").c_str());
        b.Add("qk = MatMul(q4, kt)");
        b.Add(("scale = Constant <value_float = " + floatText(scale) + "> ()").c_str());
        b.Add("scores = Mul(qk, scale)");
        std::string cur = "scores";
        if (mask) {
          if (maskType == ir::DataType::Bool) {
            b.Add("zero = Constant <value_float = 0.0> ()");
            b.Const("neg_inf", floatTensor({}, {-INFINITY}));
            b.Add("bias = Where(attn_mask, zero, neg_inf)");
            b.Add("masked = Add(scores, bias)");
          } else {
            b.Add("masked = Add(scores, attn_mask)");
          }
          cur = "masked";
        }
        if (causal) {
          b.Const("causal", floatTensor({sq, skv}, causalMask));
          b.Add(("causal_scores = Add(" + cur + ", causal)").c_str());
          cur = "causal_scores";
        }
        b.Add(("probs = Softmax <axis = -1> (" + cur + ")").c_str());
        b.Add((std::string(*rank == 4 ? "Y" : "y4") + " = MatMul(probs, " + v + ")").c_str());
        if (*rank == 3) {
          b.Add("yt = Transpose <perm = [0, 2, 1, 3]> (y4)");
          b.Const("merge", std::vector<int64_t>{0, 0, -1});
          b.Add("Y = Reshape(yt, merge)");
        }
      },
      "Attention written as MatMul/Softmax/MatMul (" + std::to_string(qh) + " q heads, " + std::to_string(kvh) +
          " kv heads" + (causal ? ", causal" : "") + (mask ? ", mask" : "") + ")");
}

}  // namespace fb::convert::onnx_onnx
