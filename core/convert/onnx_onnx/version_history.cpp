#include "convert/onnx_onnx/version_history.h"

#include <algorithm>
#include <map>

namespace fb::convert::onnx_onnx {
namespace {

using H = AttributeHistory::Handling;

std::function<bool(const ir::Attribute&)> intIs(int64_t v) {
  return [v](const ir::Attribute& a) { return a.type == ir::AttrType::Int && a.i == v; };
}
std::function<bool(const ir::Attribute&)> stringIs(std::string v) {
  return [v](const ir::Attribute& a) { return a.type == ir::AttrType::String && a.s == v; };
}
std::function<bool(const ir::Attribute&)> anyValue() {
  return [](const ir::Attribute&) { return true; };
}
std::function<bool(const ir::Attribute&)> noValue() {
  return [](const ir::Attribute&) { return false; };
}
std::function<bool(const ir::Attribute&)> allOnes() {
  return [](const ir::Attribute& a) {
    return a.type == ir::AttrType::Ints && std::all_of(a.ints.begin(), a.ints.end(), [](int64_t v) { return v == 1; });
  };
}

AttributeHistory implicitInt(const char* op, const char* attr, int64_t v, const char* why) {
  return {op, attr, H::Implicit, intIs(v), ir::Attribute::makeInt(attr, v), why};
}
AttributeHistory implicitString(const char* op, const char* attr, const char* v, const char* why) {
  return {op, attr, H::Implicit, stringIs(v), ir::Attribute::makeString(attr, v), why};
}
AttributeHistory adapter(const char* op, const char* attr, const char* why) {
  return {op, attr, H::Adapter, {}, {}, why};
}
// Attributes of opsets before 7 (below every target): a value is accepted only when it provably means what
// the later versions do.
AttributeHistory legacy(const char* op, const char* attr, std::function<bool(const ir::Attribute&)> ok,
                        const char* why) {
  return {op, attr, H::Implicit, std::move(ok), std::nullopt, why};
}

std::vector<AttributeHistory> buildAttributeTable() {
  std::vector<AttributeHistory> t;
  // Opsets 1-6: `consumed_inputs` was an in-place hint without effect on the result.
  for (const char* op : {"Abs",       "Add",         "BatchNormalization",
                         "Ceil",      "Clip",        "Div",
                         "Dropout",   "Elu",         "Exp",
                         "Floor",     "HardSigmoid", "InstanceNormalization",
                         "LeakyRelu", "Log",         "Max",
                         "Mean",      "Min",         "Mul",
                         "Neg",       "PRelu",       "Reciprocal",
                         "Relu",      "Reshape",     "Selu",
                         "Sigmoid",   "Sqrt",        "Sub",
                         "Sum",       "Tanh"})
    t.push_back(legacy(op, "consumed_inputs", anyValue(), "in-place hint of opsets 1-6, no effect on the result"));
  // Opsets 1-6: explicit broadcasting. broadcast=0 (same shapes) is what numpy broadcasting does on equal shapes;
  // broadcast=1, with or without `axis`, is refused rather than guessed.
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "And", "Or", "Xor", "Equal", "Greater", "Less"}) {
    t.push_back(
        legacy(op, "broadcast", intIs(0), "opsets 1-6 broadcast only when asked; later versions always (numpy)"));
    t.push_back(legacy(op, "axis", noValue(), "opsets 1-6 legacy broadcast axis, no numpy equivalent in general"));
  }
  t.push_back(legacy("Gemm", "broadcast", anyValue(), "Gemm-7+ always broadcasts C, which covers both settings"));

  t.push_back(
      implicitInt("ArgMax", "select_last_index", 0,
                  "before 12 the first index of the extreme wins (arg_extreme adapter reverses the axis for 1)"));
  t.push_back(
      implicitInt("ArgMin", "select_last_index", 0,
                  "before 12 the first index of the extreme wins (arg_extreme adapter reverses the axis for 1)"));
  t.push_back(implicitInt("AveragePool", "ceil_mode", 0, "before 10 output sizes round down"));
  t.push_back(implicitInt("AveragePool", "count_include_pad", 0, "before 7 padding is not counted"));
  t.push_back(
      implicitInt("MaxPool", "ceil_mode", 0, "before 10 output sizes round down (pool adapter pads for ceil_mode=1)"));
  t.push_back(implicitInt("MaxPool", "storage_order", 0, "before 8 indices are row major"));
  t.push_back({"MaxPool", "dilations", H::Implicit, allOnes(), std::nullopt, "before 10 pooling is not dilated"});
  t.push_back(implicitInt("BatchNormalization", "training_mode", 0, "before 14 the op is inference-only in this form"));
  t.push_back(
      legacy("BatchNormalization", "is_test", intIs(1), "opsets 1-6: is_test=0 is training mode, which 7+ lack"));
  t.push_back(
      legacy("BatchNormalization", "spatial", intIs(1), "from 9 statistics are always per channel (spatial=1)"));
  t.push_back(legacy("Dropout", "is_test", intIs(1), "opsets 1-6: is_test=0 is training mode, which 7-11 lack"));
  t.push_back(adapter("Dropout", "ratio", "dropout adapter: attribute <-> input at 12"));
  t.push_back(
      adapter("Dropout", "seed", "dropout adapter: inference (what conversions produce) draws no random numbers"));
  t.push_back(adapter("Clip", "min", "clip adapter: attribute <-> input at 11"));
  t.push_back(adapter("Clip", "max", "clip adapter: attribute <-> input at 11"));
  for (const char* a : {"value", "sparse_value", "value_float", "value_floats", "value_int", "value_ints",
                        "value_string", "value_strings"})
    t.push_back(adapter("Constant", a, "constant adapter: value_* forms <-> value tensor"));
  t.push_back(legacy("Concat", "axis", anyValue(), "Concat-1's optional axis (default 1) became required at 4"));
  t.push_back(implicitString("DepthToSpace", "mode", "DCR", "before 11 the layout is DCR (the adapter rewrites CRD)"));
  t.push_back(implicitInt("DequantizeLinear", "axis", 1, "before 13 the scale is a scalar; 1 is the default"));
  t.push_back(implicitInt("QuantizeLinear", "axis", 1, "before 13 the scale is a scalar; 1 is the default"));
  t.push_back({"GRU", "direction", H::SameMeaning, {}, std::nullopt, "GRU-1 spelled its default 'foward'"});
  t.push_back(implicitInt("GRU", "linear_before_reset", 0, "GRU-1 applies the linear transform after the reset"));
  for (const char* op : {"GRU", "LSTM", "RNN"}) {
    t.push_back(implicitInt(op, "layout", 0, "before 14 the batch is the second axis"));
    t.push_back(
        legacy(op, "output_sequence", anyValue(), "opsets 1-6: whether Y is written; from 7 Y is an optional output"));
  }
  t.push_back(implicitInt("GatherND", "batch_dims", 0, "before 12 there are no batch dimensions"));
  t.push_back(legacy("GlobalLpPool", "p", anyValue(), "float in opset 1, int from 2: the same norm"));
  t.push_back(legacy("LpPool", "p", anyValue(), "float in opset 1, int from 2: the same norm"));
  t.push_back(legacy("LpPool", "kernel_shape", anyValue(), "optional in opset 1, required from 2"));
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"})
    t.push_back(
        adapter(op, "axis", "softmax adapter: coerced-2-D semantics before 13, per-axis from 13 (default 1 -> -1)"));
  for (const char* a : {"paddings", "pads", "value"})
    t.push_back(adapter("Pad", a, "pad adapter: attributes <-> inputs at 11"));
  t.push_back(adapter("ReduceSum", "axes", "axes adapter: attribute <-> input at 13"));
  t.push_back(implicitInt("ReduceSum", "noop_with_empty_axes", 0, "before 13 empty axes reduce everything"));
  t.push_back(adapter("Squeeze", "axes", "axes adapter: attribute <-> input at 13"));
  t.push_back(adapter("Unsqueeze", "axes", "axes adapter: attribute <-> input at 13"));
  t.push_back(adapter("Split", "split", "axes adapter: attribute <-> input at 13 (input in opset 1)"));
  t.push_back(legacy("Split", "axis", anyValue(), "Split-1's axis had no stated default; from 2 it is 0"));
  t.push_back(implicitInt("Reshape", "allowzero", 0,
                          "before 14 a 0 in the shape copies the input dim (allowzero=1 is "
                          "dropped when the shape is a constant without zeros)"));
  t.push_back(legacy("Reshape", "shape", noValue(), "Reshape-1's shape attribute became an input at 5"));
  for (const char* a :
       {"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value", "nearest_mode"})
    t.push_back(
        adapter("Resize", a, "resize adapter: Resize-10/Upsample express asymmetric nearest(floor)/linear only"));
  for (const char* a : {"height_scale", "width_scale", "scales"}) t.push_back(adapter("Upsample", a, "resize adapter"));
  t.push_back(
      implicitString("RoiAlign", "coordinate_transformation_mode", "output_half_pixel",
                     "RoiAlign-10 does not shift pixels by -0.5 (output_half_pixel), while 16 defaults to half_pixel"));
  for (const char* a :
       {"directions", "scan_input_axes", "scan_input_directions", "scan_output_axes", "scan_output_directions"})
    t.push_back(adapter("Scan", a,
                        "scan adapter: Scan-8 with a batch of 1 and no sequence_lens -> Scan-9 (directions -> "
                        "scan_input_directions, axes left at their default 0); otherwise refused"));
  t.push_back(implicitString("ScatterElements", "reduction", "none", "before 16 updates replace"));
  t.push_back(implicitString("ScatterND", "reduction", "none", "before 16 updates replace"));
  t.push_back({"Selu", "alpha", H::Implicit, anyValue(), std::nullopt,
               "default 1.6732 rounded differently in 1 and 6: spelled out"});
  t.push_back({"Selu", "gamma", H::Implicit, anyValue(), std::nullopt,
               "default 1.0507 rounded differently in 1 and 6: spelled out"});
  t.push_back(implicitInt("Shape", "start", 0, "before 15 Shape returns every dim"));
  t.push_back({"Shape", "end", H::Implicit, noValue(), std::nullopt,
               "before 15 Shape returns every dim (the shape adapter slices)"});
  for (const char* a : {"starts", "ends", "axes"})
    t.push_back(adapter("Slice", a, "slice adapter: attributes <-> inputs at 10"));
  t.push_back(adapter("TopK", "k", "topk adapter: attribute <-> input at 10"));
  t.push_back(implicitInt("TopK", "largest", 1, "before 11 TopK returns the largest"));
  t.push_back(implicitInt("TopK", "sorted", 1, "before 11 results are sorted"));
  return t;
}

}  // namespace

const std::vector<AttributeHistory>& attributeHistories() {
  static const std::vector<AttributeHistory> table = buildAttributeTable();
  return table;
}

const AttributeHistory* attributeHistory(const std::string& op, const std::string& attribute) {
  static const auto index = [] {
    std::map<std::pair<std::string, std::string>, const AttributeHistory*> m;
    for (const auto& h : attributeHistories()) m[{h.op, h.attribute}] = &h;
    return m;
  }();
  auto it = index.find({op, attribute});
  return it == index.end() ? nullptr : it->second;
}

const std::vector<SignatureChange>& signatureChanges() {
  using S = SignatureChange::Handling;
  static const std::vector<SignatureChange> table{
      {"BatchNormalization", 9, 14, S::Adapter,
       "14 renames the statistics inputs and has 3 outputs (training only); "
       "training_mode=1 is written out (ReduceMean statistics) below 14"},
      {"BatchNormalization", 14, 15, S::Checked, "15 lets scale/bias types differ from X; types are checked"},
      {"Clip", 6, 11, S::Adapter, "min/max attributes <-> inputs"},
      {"Dropout", 7, 10, S::Adapter, "the mask output is float before 10, bool from 10: refused when used"},
      {"Dropout", 10, 12, S::Adapter, "ratio and training_mode inputs; the mask is all true in inference"},
      {"GRU", 1, 3, S::Checked, "Y_h becomes optional"},
      {"Gemm", 9, 11, S::Adapter, "C becomes optional: a zero C below 11"},
      {"Identity", 13, 14, S::Checked, "14 accepts sequences; types are checked"},
      {"MaxPool", 1, 8, S::Checked, "8 adds the optional Indices output; the schema check refuses it below 8"},
      {"Pad", 2, 11, S::Adapter, "pads/value attributes <-> inputs"},
      {"ReduceSum", 11, 13, S::Adapter, "axes attribute <-> input"},
      {"Reshape", 1, 5, S::Checked, "the shape attribute becomes an input: refused"},
      {"Resize", 10, 11, S::Adapter, "roi and sizes inputs"},
      {"Resize", 11, 13, S::Adapter, "roi and scales become optional"},
      {"Scan", 8, 9, S::Adapter,
       "sequence_lens and the batch axis go: a batch of 1 is squeezed off, otherwise refused"},
      {"Slice", 1, 10, S::Adapter, "starts/ends/axes attributes <-> inputs"},
      {"Split", 1, 2, S::Checked, "Split-1's split input becomes an attribute: a second input is refused"},
      {"Split", 11, 13, S::Adapter, "split attribute <-> input"},
      {"Squeeze", 11, 13, S::Adapter, "axes attribute <-> input"},
      {"Tile", 1, 6, S::Checked, "tiles/axis inputs become repeats: refused by the schema check"},
      {"TopK", 1, 10, S::Adapter, "k attribute <-> input"},
      {"Unsqueeze", 11, 13, S::Adapter, "axes attribute <-> input"},
      {"Upsample", 7, 9, S::Checked, "scales attribute -> input: refused by the schema check (Resize adapter from 10)"},
  };
  return table;
}

}  // namespace fb::convert::onnx_onnx
