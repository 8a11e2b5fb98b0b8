#include "schema/opsets_18_26/down_forms.h"

#include "schema/opsets_18_26/op_facts.h"

namespace fb::schema::opsets_18_26 {

namespace {

using Kind = DownForm::Kind;

// Versions that only widened the type lists: the opset-17 schema, with types opset 17 lacks refused.
bool typesOnly(const SchemaFact& f) {
  return f.change.rfind("types only", 0) == 0 || f.change.rfind("adds ", 0) == 0 || f.change.rfind("float8", 0) == 0;
}

}  // namespace

const std::map<std::string, DownForm>& opsChangedAfter17() {
  static const std::map<std::string, DownForm> m{
      {"ReduceL1", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceL2", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceLogSum", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceLogSumExp", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceMax", {Kind::Adapter, "constant axes input -> attribute; bool inputs through uint8 and back"}},
      {"ReduceMean", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceMin", {Kind::Adapter, "constant axes input -> attribute; bool inputs through uint8 and back"}},
      {"ReduceProd", {Kind::Adapter, "constant axes input -> attribute"}},
      {"ReduceSumSquare", {Kind::Adapter, "constant axes input -> attribute"}},
      {"Split", {Kind::Adapter, "num_outputs -> split sizes (static dimension)"}},
      {"Pad", {Kind::Adapter, "axes input -> full pads; mode wrap -> Slice/Concat (constant pads, static shape)"}},
      {"Resize",
       {Kind::Adapter,
        "axes spelled out; antialias when upscaling/nearest; keep_aspect_ratio_policy -> scales when whole; "
        "half_pixel_symmetric -> half_pixel when whole"}},
      {"ScatterElements",
       {Kind::Adapter,
        "reduction none/add/mul as before; max/min -> Max/Min + plain scatter when constant indices are distinct, else "
        "refused"}},
      {"ScatterND",
       {Kind::Adapter,
        "reduction none/add/mul as before; max/min -> Max/Min + plain scatter when constant indices are distinct, else "
        "refused"}},
      {"LpPool",
       {Kind::Adapter,
        "ceil_mode 0 and dilations 1 dropped; other dilations -> Pow + depthwise Conv of ones; ceil_mode 1 -> explicit "
        "end pads (static spatial dims)"}},
      {"AveragePool",
       {Kind::Adapter,
        "dilations 1 dropped; other dilations -> depthwise Conv of 1/k (no ceil_mode, padding counted or none)"}},
      {"QuantizeLinear",
       {Kind::Adapter,
        "per-tensor/per-axis as before; default output_dtype/precision/saturate dropped; blocked refused"}},
      {"DequantizeLinear",
       {Kind::Adapter,
        "per-tensor/per-axis as before (int4 weights widened); constant blocked or float8/4-bit/2-bit weights "
        "dequantized to float; default output_dtype dropped; blocked run-time data refused"}},
      {"Cast", {Kind::Adapter, "saturate/round_mode dropped (float8 targets refused by type)"}},
      {"CastLike", {Kind::Adapter, "saturate/round_mode dropped (float8 targets refused by type)"}},
      {"DFT", {Kind::Adapter, "constant axis input -> attribute"}},
      {"GridSample", {Kind::Adapter, "mode linear/cubic -> bilinear/bicubic (4-D only)"}},
      {"OptionalGetElement", {Kind::Adapter, "plain tensor -> Identity; optional as opset 15"}},
      {"OptionalHasElement", {Kind::Adapter, "plain tensor -> true, no input -> false; optional as opset 15"}},
      {"Mish", {Kind::Adapter, "x * Tanh(Softplus(x))"}},
      {"Gelu", {Kind::Adapter, "Erf or Tanh form, as approximate says"}},
      {"Swish", {Kind::Adapter, "x * Sigmoid(alpha x)"}},
      {"GroupNormalization", {Kind::Adapter, "Reshape/ReduceMean/Sqrt/Div, scale per group (18) or per channel (21)"}},
      {"RMSNormalization", {Kind::Adapter, "x / Sqrt(ReduceMean(x^2) + eps) * scale"}},
      {"RotaryEmbedding", {Kind::Adapter, "Slice/Split/Mul/Concat, halves or interleaved"}},
      {"AffineGrid", {Kind::Adapter, "constant base grid MatMul theta (constant size)"}},
      {"CenterCropPad", {Kind::Adapter, "Slice/Pad with constant amounts (static shape)"}},
      {"BitwiseNot", {Kind::Adapter, "(all ones) - x"}},
      {"Attention", {Kind::Adapter, "MatMul/Softmax/MatMul with masks and GQA; KV cache, softcap, windows refused"}},
      {"BitwiseAnd",
       {Kind::Adapter,
        "bits as a trailing axis (int64 Div/Mod), combined arithmetically, summed back; integers up to 32 bits (64-bit "
        "refused)"}},
      {"BitwiseOr",
       {Kind::Adapter,
        "bits as a trailing axis (int64 Div/Mod), combined arithmetically, summed back; integers up to 32 bits (64-bit "
        "refused)"}},
      {"BitwiseXor",
       {Kind::Adapter,
        "bits as a trailing axis (int64 Div/Mod), combined arithmetically, summed back; integers up to 32 bits (64-bit "
        "refused)"}},
      {"Col2Im",
       {Kind::Adapter, "Reshape + ConvTranspose with a one-hot kernel (constant image/block shapes, static input)"}},
      {"DeformConv", {Kind::Refused, "opset 17 has no convolution that samples at learned offsets"}},
      {"ImageDecoder", {Kind::Refused, "opset 17 has no image decoding"}},
      {"RegexFullMatch", {Kind::Refused, "opset 17 has no regular expressions"}},
      {"StringConcat", {Kind::Refused, "opset 17 has no string concatenation"}},
      {"StringSplit", {Kind::Refused, "opset 17 has no string splitting"}},
      {"TensorScatter",
       {Kind::Adapter,
        "ScatterND at constant positions (constant write_indices, static shapes); run-time write_indices refused"}},
      {"BitCast", {Kind::Refused, "opset 17 cannot reinterpret bits"}},
      {"CumProd",
       {Kind::Adapter,
        "running products unrolled (Split, Mul per step, Concat; constant axis, static length up to 256)"}},
  };
  return m;
}

std::optional<DownForm> downForm(const std::string& op, int64_t since) {
  const SchemaFact* fact = nullptr;
  for (const auto& f : allSchemaFacts())
    if (f.op == op && f.since == since) fact = &f;
  if (!fact) return std::nullopt;
  if (auto it = opsChangedAfter17().find(op); it != opsChangedAfter17().end()) return it->second;
  if (typesOnly(*fact)) return DownForm{Kind::SameAs17, "opset-17 schema; types opset 17 lacks refused"};
  return std::nullopt;
}

}  // namespace fb::schema::opsets_18_26
