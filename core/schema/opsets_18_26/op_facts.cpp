#include "schema/opsets_18_26/op_facts.h"

#include <algorithm>
#include <utility>

namespace fb::schema::opsets_18_26 {
namespace {

// Collects the facts; one call adds the op at each of its since-versions.
struct FactList {
  std::vector<SchemaFact> facts;
  void operator()(const std::string& op, const std::vector<int64_t>& sinces, int inMin, int inMax, int outMin,
                  int outMax, const std::vector<AttrFact>& attrs, const std::string& change) {
    for (int64_t s : sinces) facts.push_back({op, s, inMin, inMax, outMin, outMax, attrs, change});
  }
};

// Opset 18: the reductions' axes become an input, Split, Pad, Resize, the scatter reductions, LpPool,
// Optional, and the ops new in 18 (with their later versions).
void opset18(FactList& add) {
  const std::vector<AttrFact> reduceAttrs{{"keepdims", "1"}, {"noop_with_empty_axes", "0"}};
  for (const char* op :
       {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMean", "ReduceProd", "ReduceSumSquare"})
    add(op, {18}, 1, 2, 1, 1, reduceAttrs, "axes attribute -> optional input; noop_with_empty_axes");
  for (const char* op : {"ReduceMax", "ReduceMin"}) {
    add(op, {18}, 1, 2, 1, 1, reduceAttrs, "axes attribute -> optional input; noop_with_empty_axes");
    add(op, {20}, 1, 2, 1, 1, reduceAttrs, "adds bool");
  }
  add("Split", {18}, 1, 2, 1, 1 << 30, {{"axis", "0"}, {"num_outputs", ""}}, "num_outputs attribute");
  add("Pad", {18}, 2, 4, 1, 1, {{"mode", "constant"}}, "axes input");
  add("Pad", {19}, 2, 4, 1, 1, {{"mode", "constant"}}, "mode 'wrap'");
  add("Pad", {21, 23, 24, 25}, 2, 4, 1, 1, {{"mode", "constant"}}, "types only");
  const std::vector<AttrFact> resize18{{"antialias", "0"},
                                       {"axes", ""},
                                       {"coordinate_transformation_mode", "half_pixel"},
                                       {"cubic_coeff_a", "-0.75"},
                                       {"exclude_outside", "0"},
                                       {"extrapolation_value", "0.0"},
                                       {"keep_aspect_ratio_policy", "stretch"},
                                       {"mode", "nearest"},
                                       {"nearest_mode", "round_prefer_floor"}};
  add("Resize", {18}, 1, 4, 1, 1, resize18, "antialias, axes, keep_aspect_ratio_policy");
  add("Resize", {19}, 1, 4, 1, 1, resize18, "coordinate_transformation_mode 'half_pixel_symmetric'");
  add("ScatterElements", {18}, 3, 3, 1, 1, {{"axis", "0"}, {"reduction", "none"}}, "reduction max/min");
  add("ScatterND", {18}, 3, 3, 1, 1, {{"reduction", "none"}}, "reduction max/min");
  add("LpPool", {18, 22}, 1, 1, 1, 1,
      {{"auto_pad", "NOTSET"},
       {"ceil_mode", "0"},
       {"dilations", ""},
       {"kernel_shape", ""},
       {"p", "2"},
       {"pads", ""},
       {"strides", ""}},
      "ceil_mode, dilations");
  add("OptionalGetElement", {18}, 1, 1, 1, 1, {}, "accepts plain tensors/sequences");
  add("OptionalHasElement", {18}, 0, 1, 1, 1, {}, "optional input");
  add("BitwiseAnd", {18}, 2, 2, 1, 1, {}, "new");
  add("BitwiseOr", {18}, 2, 2, 1, 1, {}, "new");
  add("BitwiseXor", {18}, 2, 2, 1, 1, {}, "new");
  add("BitwiseNot", {18}, 1, 1, 1, 1, {}, "new");
  add("CenterCropPad", {18}, 2, 2, 1, 1, {{"axes", ""}}, "new");
  add("Col2Im", {18}, 3, 3, 1, 1, {{"dilations", ""}, {"pads", ""}, {"strides", ""}}, "new");
  add("GroupNormalization", {18}, 3, 3, 1, 1, {{"epsilon", "1e-05"}, {"num_groups", ""}}, "new; scale/bias per group");
  add("GroupNormalization", {21}, 3, 3, 1, 1, {{"epsilon", "1e-05"}, {"num_groups", ""}, {"stash_type", "1"}},
      "scale/bias per channel; stash_type");
  add("Mish", {18, 22}, 1, 1, 1, 1, {}, "new");
}

// Opsets 19-25: Cast/CastLike (saturate, float8, round_mode), QuantizeLinear/DequantizeLinear (float8,
// blocked, int4, precision), AveragePool dilations, Equal on strings.
void castsAndQuantization(FactList& add) {
  const std::vector<AttrFact> cast19{{"saturate", "1"}, {"to", ""}};
  const std::vector<AttrFact> cast24{{"round_mode", "up"}, {"saturate", "1"}, {"to", ""}};
  add("Cast", {19, 21, 23}, 1, 1, 1, 1, cast19, "saturate; float8 types");
  add("Cast", {24, 25}, 1, 1, 1, 1, cast24, "round_mode");
  add("CastLike", {19, 21, 23}, 2, 2, 1, 1, {{"saturate", "1"}}, "saturate; float8 types");
  add("CastLike", {24, 25}, 2, 2, 1, 1, {{"round_mode", "up"}, {"saturate", "1"}}, "round_mode");
  add("QuantizeLinear", {19}, 2, 3, 1, 1, {{"axis", "1"}, {"saturate", "1"}}, "saturate; float8");
  add("QuantizeLinear", {21}, 2, 3, 1, 1,
      {{"axis", "1"}, {"block_size", "0"}, {"output_dtype", "0"}, {"saturate", "1"}}, "blocked quantization; int4");
  add("QuantizeLinear", {23, 24, 25}, 2, 3, 1, 1,
      {{"axis", "1"}, {"block_size", "0"}, {"output_dtype", "0"}, {"precision", "0"}, {"saturate", "1"}}, "precision");
  add("DequantizeLinear", {19}, 2, 3, 1, 1, {{"axis", "1"}}, "float8, float16/bfloat16 scales");
  add("DequantizeLinear", {21}, 2, 3, 1, 1, {{"axis", "1"}, {"block_size", "0"}}, "blocked; int4");
  add("DequantizeLinear", {23, 24, 25}, 2, 3, 1, 1, {{"axis", "1"}, {"block_size", "0"}, {"output_dtype", "0"}},
      "output_dtype");
  const std::vector<AttrFact> avgPool{{"auto_pad", "NOTSET"}, {"ceil_mode", "0"},   {"count_include_pad", "0"},
                                      {"dilations", ""},      {"kernel_shape", ""}, {"pads", ""},
                                      {"strides", ""}};
  add("AveragePool", {19, 22}, 1, 1, 1, 1, avgPool, "dilations");
  add("Equal", {19}, 2, 2, 1, 1, {}, "adds string");
}

// Versions 19-25 of the structural ops that only add element types.
void typeOnlyVersions(FactList& add) {
  for (const char* op : {"Constant"})
    add(op, {19, 21, 23, 24, 25}, 0, 0, 1, 1,
        {{"sparse_value", ""},
         {"value", ""},
         {"value_float", ""},
         {"value_floats", ""},
         {"value_int", ""},
         {"value_ints", ""},
         {"value_string", ""},
         {"value_strings", ""}},
        "types only");
  add("Identity", {19, 21, 23, 24, 25}, 1, 1, 1, 1, {}, "types only");
  add("Reshape", {19, 21, 23, 24, 25}, 2, 2, 1, 1, {{"allowzero", "0"}}, "types only");
  add("Shape", {19, 21, 23, 24, 25}, 1, 1, 1, 1, {{"end", ""}, {"start", "0"}}, "types only");
  add("Size", {19, 21, 23, 24, 25}, 1, 1, 1, 1, {}, "types only");
  add("If", {19, 21, 23, 24, 25}, 1, 1, 1, 1 << 30, {{"else_branch", ""}, {"then_branch", ""}}, "types only");
  add("Loop", {19, 21, 23, 24, 25}, 2, 1 << 30, 1, 1 << 30, {{"body", ""}}, "types only");
  add("Scan", {19, 21, 23, 24, 25}, 1, 1 << 30, 1, 1 << 30,
      {{"body", ""},
       {"num_scan_inputs", ""},
       {"scan_input_axes", ""},
       {"scan_input_directions", ""},
       {"scan_output_axes", ""},
       {"scan_output_directions", ""}},
      "types only");
  add("Flatten", {21, 23, 24, 25}, 1, 1, 1, 1, {{"axis", "1"}}, "types only");
  add("Squeeze", {21, 23, 24, 25}, 1, 2, 1, 1, {}, "types only");
  add("Unsqueeze", {21, 23, 24, 25}, 2, 2, 1, 1, {}, "types only");
  add("Transpose", {21, 23, 24, 25}, 1, 1, 1, 1, {{"perm", ""}}, "types only");
  add("ConstantOfShape", {20, 21, 23, 24, 25}, 1, 1, 1, 1, {{"value", ""}}, "types only");
}

// Opsets 19-21: DeformConv, DFT, GridSample, IsInf/IsNaN, the ops new in 20, QLinearMatMul.
void opsets19To21(FactList& add) {
  add("DeformConv", {19, 22}, 3, 5, 1, 1,
      {{"dilations", ""}, {"group", "1"}, {"kernel_shape", ""}, {"offset_group", "1"}, {"pads", ""}, {"strides", ""}},
      "new");
  add("DFT", {20}, 1, 3, 1, 1, {{"inverse", "0"}, {"onesided", "0"}}, "axis attribute -> input");
  add("GridSample", {20, 22}, 2, 2, 1, 1, {{"align_corners", "0"}, {"mode", "linear"}, {"padding_mode", "zeros"}},
      "mode names bilinear->linear, bicubic->cubic; N-D");
  add("IsInf", {20}, 1, 1, 1, 1, {{"detect_negative", "1"}, {"detect_positive", "1"}}, "types only");
  add("IsNaN", {20}, 1, 1, 1, 1, {}, "types only");
  add("AffineGrid", {20}, 2, 2, 1, 1, {{"align_corners", "0"}}, "new");
  add("Gelu", {20}, 1, 1, 1, 1, {{"approximate", "none"}}, "new");
  add("ImageDecoder", {20}, 1, 1, 1, 1, {{"pixel_format", "RGB"}}, "new");
  add("RegexFullMatch", {20}, 1, 1, 1, 1, {{"pattern", ""}}, "new");
  add("StringConcat", {20}, 2, 2, 1, 1, {}, "new");
  add("StringSplit", {20}, 1, 1, 2, 2, {{"delimiter", ""}, {"maxsplit", ""}}, "new");
  add("QLinearMatMul", {21}, 8, 8, 1, 1, {}, "float8; scale types");
}

// Opset 22: bfloat16 for most of the float ops (activations, pooling, convolution, recurrent, random).
void bfloat16Versions(FactList& add) {
  for (const char* op : {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Sin", "Sinh", "Tan", "Det",
                         "Round", "Softsign", "GlobalAveragePool", "GlobalMaxPool"})
    add(op, {22}, 1, 1, 1, 1, {}, "adds bfloat16");
  add("Elu", {22}, 1, 1, 1, 1, {{"alpha", "1.0"}}, "adds bfloat16");
  add("Selu", {22}, 1, 1, 1, 1, {{"alpha", "1.67326"}, {"gamma", "1.0507"}}, "adds bfloat16");
  add("HardSigmoid", {22}, 1, 1, 1, 1, {{"alpha", "0.2"}, {"beta", "0.5"}}, "adds bfloat16");
  add("HardSwish", {22}, 1, 1, 1, 1, {}, "adds bfloat16");
  add("Softplus", {22}, 1, 1, 1, 1, {}, "adds bfloat16");
  add("ThresholdedRelu", {22}, 1, 1, 1, 1, {{"alpha", "1.0"}}, "adds bfloat16");
  add("GlobalLpPool", {22}, 1, 1, 1, 1, {{"p", "2"}}, "adds bfloat16");
  add("LpNormalization", {22}, 1, 1, 1, 1, {{"axis", "-1"}, {"p", "2"}}, "adds bfloat16");
  add("InstanceNormalization", {22}, 3, 3, 1, 1, {{"epsilon", "1e-05"}}, "adds bfloat16");
  add("EyeLike", {22}, 1, 1, 1, 1, {{"dtype", ""}, {"k", "0"}}, "adds bfloat16");
  add("Dropout", {22}, 1, 3, 1, 2, {{"seed", ""}}, "adds bfloat16, float8");
  const std::vector<AttrFact> conv{{"auto_pad", "NOTSET"}, {"dilations", ""}, {"group", "1"},
                                   {"kernel_shape", ""},   {"pads", ""},      {"strides", ""}};
  add("Conv", {22}, 2, 3, 1, 1, conv, "adds bfloat16");
  auto convT = conv;
  convT.push_back({"output_padding", ""});
  convT.push_back({"output_shape", ""});
  add("ConvTranspose", {22}, 2, 3, 1, 1, convT, "adds bfloat16");
  add("MaxPool", {22}, 1, 1, 1, 2,
      {{"auto_pad", "NOTSET"},
       {"ceil_mode", "0"},
       {"dilations", ""},
       {"kernel_shape", ""},
       {"pads", ""},
       {"storage_order", "0"},
       {"strides", ""}},
      "adds bfloat16");
  add("MaxRoiPool", {22}, 2, 2, 1, 1, {{"pooled_shape", ""}, {"spatial_scale", "1.0"}}, "adds bfloat16");
  add("MaxUnpool", {22}, 2, 3, 1, 1, {{"kernel_shape", ""}, {"pads", ""}, {"strides", ""}}, "adds bfloat16");
  add("RoiAlign", {22}, 3, 3, 1, 1,
      {{"coordinate_transformation_mode", "half_pixel"},
       {"mode", "avg"},
       {"output_height", "1"},
       {"output_width", "1"},
       {"sampling_ratio", "0"},
       {"spatial_scale", "1.0"}},
      "adds bfloat16");
  const std::vector<AttrFact> rnn{{"activation_alpha", ""}, {"activation_beta", ""}, {"activations", ""}, {"clip", ""},
                                  {"direction", "forward"}, {"hidden_size", ""},     {"layout", "0"}};
  add("RNN", {22}, 3, 6, 0, 2, rnn, "adds bfloat16");
  auto gru = rnn;
  gru.push_back({"linear_before_reset", "0"});
  add("GRU", {22}, 3, 6, 0, 2, gru, "adds bfloat16");
  auto lstm = rnn;
  lstm.push_back({"input_forget", "0"});
  add("LSTM", {22}, 3, 8, 0, 3, lstm, "adds bfloat16");
  for (const char* op : {"RandomNormal", "RandomUniform"})
    add(op, {22}, 0, 0, 1, 1,
        {{"dtype", "1"},
         {"high", "1.0"},
         {"low", "0.0"},
         {"mean", "0.0"},
         {"scale", "1.0"},
         {"seed", ""},
         {"shape", ""}},
        "adds bfloat16");
  for (const char* op : {"RandomNormalLike", "RandomUniformLike"})
    add(op, {22}, 1, 1, 1, 1,
        {{"dtype", ""}, {"high", "1.0"}, {"low", "0.0"}, {"mean", "0.0"}, {"scale", "1.0"}, {"seed", ""}},
        "adds bfloat16");
  add("Bernoulli", {22}, 1, 1, 1, 1, {{"dtype", ""}, {"seed", ""}}, "adds bfloat16");
  add("Multinomial", {22}, 1, 1, 1, 1, {{"dtype", "6"}, {"sample_size", "1"}, {"seed", ""}}, "adds bfloat16");
  add("NegativeLogLikelihoodLoss", {22}, 2, 3, 1, 1, {{"ignore_index", ""}, {"reduction", "mean"}}, "adds bfloat16");
}

// Opsets 23-26: Attention and the other new ops, TopK and SplitToSequence types.
void opsets23To26(FactList& add) {
  add("Attention", {23}, 3, 6, 1, 4,
      {{"is_causal", "0"},
       {"kv_num_heads", ""},
       {"q_num_heads", ""},
       {"qk_matmul_output_mode", "0"},
       {"scale", ""},
       {"softcap", "0.0"},
       {"softmax_precision", ""}},
      "new");
  add("Attention", {24}, 3, 7, 1, 4,
      {{"is_causal", "0"},
       {"kv_num_heads", ""},
       {"q_num_heads", ""},
       {"qk_matmul_output_mode", "0"},
       {"scale", ""},
       {"softcap", "0.0"},
       {"softmax_precision", ""}},
      "nonpad_kv_seqlen input");
  add("Attention", {25}, 3, 7, 1, 4,
      {{"is_causal", "0"},
       {"kv_num_heads", ""},
       {"left_window_size", "-1"},
       {"q_num_heads", ""},
       {"qk_matmul_output_mode", "0"},
       {"right_window_size", "-1"},
       {"scale", ""},
       {"softcap", "0.0"},
       {"softmax_precision", ""}},
      "sliding window");
  add("RMSNormalization", {23}, 2, 2, 1, 1, {{"axis", "-1"}, {"epsilon", "1e-05"}, {"stash_type", "1"}}, "new");
  add("RotaryEmbedding", {23}, 3, 4, 1, 1, {{"interleaved", "0"}, {"num_heads", ""}, {"rotary_embedding_dim", "0"}},
      "new");
  add("Swish", {24}, 1, 1, 1, 1, {{"alpha", "1.0"}}, "new");
  add("TensorScatter", {24}, 2, 3, 1, 1, {{"axis", "-2"}, {"mode", "linear"}}, "new");
  add("TopK", {24}, 2, 2, 2, 2, {{"axis", "-1"}, {"largest", "1"}, {"sorted", "1"}}, "adds bfloat16");
  add("SplitToSequence", {24}, 1, 2, 1, 1, {{"axis", "0"}, {"keepdims", "1"}}, "adds bfloat16");
  add("BitCast", {26}, 1, 1, 1, 1, {{"to", ""}}, "new");
  add("CumProd", {26}, 2, 2, 1, 1, {{"exclusive", "0"}, {"reverse", "0"}}, "new");
}

// Versions whose attributes and counts matter to the converter. Type-only versions (the float8/int4/bf16
// sweeps) carry the previous attribute list; they are listed so that the since-version is right and a node
// at such a version is never called "unchanged" against the opset-17 schema without its types being checked.
std::vector<SchemaFact> makeTable() {
  FactList add;
  opset18(add);
  castsAndQuantization(add);
  typeOnlyVersions(add);
  opsets19To21(add);
  bfloat16Versions(add);
  opsets23To26(add);
  std::vector<SchemaFact> t = std::move(add.facts);
  std::stable_sort(t.begin(), t.end(), [](const SchemaFact& a, const SchemaFact& b) {
    return a.op != b.op ? a.op < b.op : a.since < b.since;
  });
  return t;
}

// Ops that opset 17 does not have at all.
const std::vector<std::string>& newOps() {
  static const std::vector<std::string> ops{"BitwiseAnd",
                                            "BitwiseOr",
                                            "BitwiseXor",
                                            "BitwiseNot",
                                            "CenterCropPad",
                                            "Col2Im",
                                            "GroupNormalization",
                                            "Mish",
                                            "DeformConv",
                                            "AffineGrid",
                                            "Gelu",
                                            "ImageDecoder",
                                            "RegexFullMatch",
                                            "StringConcat",
                                            "StringSplit",
                                            "Attention",
                                            "RMSNormalization",
                                            "RotaryEmbedding",
                                            "Swish",
                                            "TensorScatter",
                                            "BitCast",
                                            "CumProd"};
  return ops;
}

}  // namespace

const std::vector<SchemaFact>& allSchemaFacts() {
  static const std::vector<SchemaFact> table = makeTable();
  return table;
}

const SchemaFact* schemaFact(const std::string& op, int64_t opset) {
  if (opset <= kLibonnxMaxOpset) return nullptr;
  const SchemaFact* best = nullptr;
  for (const auto& f : allSchemaFacts())
    if (f.op == op && f.since <= opset) best = &f;
  return best;
}

int64_t firstOpset(const std::string& op) {
  const auto& ops = newOps();
  if (std::find(ops.begin(), ops.end(), op) == ops.end()) return 0;
  for (const auto& f : allSchemaFacts())
    if (f.op == op) return f.since;
  return 0;
}

std::optional<std::string> attributeDefault(const SchemaFact& fact, const std::string& name) {
  for (const auto& a : fact.attributes)
    if (a.name == name) return a.defaultValue;
  return std::nullopt;
}

}  // namespace fb::schema::opsets_18_26
