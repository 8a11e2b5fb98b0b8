// The static shape rules as a unit: the generic arithmetic (schema/static_shapes: staticOutputShape,
// broadcastDims) and the rules for op versions of opsets 18-26 (schema/opsets_18_26/static_shapes:
// staticOutputShapes, outputElemType), called directly on single nodes with known input dims and values. The
// expected shapes are worked out from the ONNX operator specification (the formula is in each case's comment);
// cases marked for ONNX Runtime are also built as single-node models and run there, and the rule's shapes and
// element types must be those of ONNX Runtime's outputs. Unknown (symbolic) dims, unknown values and invalid
// nodes must give "not known" (nullopt), never a shape.
#include <QtTest>

#include <map>
#include <optional>

#include "check/onnx_check.h"
#include "formats/model_io.h"
#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"
#include "oracle/oracle_server.h"
#include "schema/opsets_18_26/static_shapes.h"
#include "schema/static_shapes.h"
#include "support/helpers.h"

using namespace fb;
using ir::DataType;
using schema::Dims;
using Shapes = std::vector<std::optional<Dims>>;

namespace {

// One input of the node: data of `dims` (zeros), int64 `values` (an initializer, so that the rules and ONNX
// Runtime both see them), float `floats` (Resize scales), symbolic (a graph input with a named dim, dims
// unknown), or omitted (an optional input left out: empty name).
struct In {
  std::string name;
  Dims dims;
  std::optional<std::vector<int64_t>> values{};
  std::optional<std::vector<float>> floats{};
  DataType type = DataType::Float;
  bool symbolic = false;
};
In data(std::string name, Dims dims, DataType t = DataType::Float) {
  return {std::move(name), std::move(dims), {}, {}, t};
}
In ints(std::string name, std::vector<int64_t> v) {
  Dims d{static_cast<int64_t>(v.size())};
  return {std::move(name), d, std::move(v), {}, DataType::Int64};
}
In floats(std::string name, std::vector<float> v) {
  Dims d{static_cast<int64_t>(v.size())};
  return {std::move(name), d, {}, std::move(v), DataType::Float};
}
In scalar(std::string name, int64_t v) { return {std::move(name), {}, std::vector<int64_t>{v}, {}, DataType::Int64}; }
In symbolic(std::string name, Dims dims) {
  In i{std::move(name), std::move(dims)};
  i.symbolic = true;
  return i;
}
In omitted() { return {}; }

ir::Attribute I(const char* n, int64_t v) { return ir::Attribute::makeInt(n, v); }
ir::Attribute Is(const char* n, std::vector<int64_t> v) { return ir::Attribute::makeInts(n, std::move(v)); }
ir::Attribute S(const char* n, std::string v) { return ir::Attribute::makeString(n, std::move(v)); }

struct Built {
  std::unique_ptr<ir::Model> model = std::make_unique<ir::Model>();
  ir::Node* node = nullptr;
};

Built build(int64_t opset, const std::string& op, const std::vector<In>& inputs, size_t outputs,
            std::vector<ir::Attribute> attrs) {
  Built b;
  b.model->irVersion = opset >= 21 ? 10 : 8;
  b.model->setOpsetVersion("", opset);
  b.model->producerName = "test";
  ir::Graph& g = b.model->graph();
  g.name = "g";
  std::vector<ir::Value*> ins;
  for (const In& in : inputs) {
    if (in.name.empty()) {
      ins.push_back(nullptr);
      continue;
    }
    if (in.symbolic) {
      ir::Value* v = g.getOrCreateValue(in.name);
      ir::Shape s;
      for (size_t i = 0; i < in.dims.size(); ++i) s.push_back(i == 0 ? ir::Dim::named("N") : ir::Dim::of(in.dims[i]));
      v->type = ir::TypeInfo::tensor(in.type, s);
      g.addInput(v);
      ins.push_back(v);
      continue;
    }
    int64_t n = 1;
    for (auto d : in.dims) n *= d;
    ir::Tensor t;
    if (in.values)
      t = ir::Tensor::fromValues<int64_t>(in.name, DataType::Int64, in.dims, *in.values);
    else if (in.floats)
      t = ir::Tensor::fromValues<float>(in.name, DataType::Float, in.dims, *in.floats);
    else if (in.type == DataType::Int32)
      t = ir::Tensor::fromValues<int32_t>(in.name, in.type, in.dims, std::vector<int32_t>(static_cast<size_t>(n), 1));
    else if (in.type == DataType::Int64)
      t = ir::Tensor::fromValues<int64_t>(in.name, in.type, in.dims, std::vector<int64_t>(static_cast<size_t>(n), 1));
    else
      t = ir::Tensor::fromValues<float>(in.name, DataType::Float, in.dims,
                                        std::vector<float>(static_cast<size_t>(n), 0.5f));
    ins.push_back(g.addInitializer(std::move(t)));
  }
  std::vector<ir::Value*> outs;
  for (size_t i = 0; i < outputs; ++i) outs.push_back(g.getOrCreateValue("y" + std::to_string(i)));
  b.node = g.addNode(op, ins, outs);
  b.node->name = op;
  for (auto& a : attrs) b.node->setAttr(std::move(a));
  return b;
}

// What the shape-fact sweep gives the rules: static dims of a value (nullopt when any dim is symbolic) and the
// contents of small integer initializers.
std::optional<Dims> dimsOf(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (const ir::Tensor* t = v->initializer()) return t->dims;
  return v->type.staticDims();
}
std::map<const ir::Value*, std::vector<int64_t>>& valueCache() {
  static std::map<const ir::Value*, std::vector<int64_t>> cache;
  return cache;
}
const std::vector<int64_t>* valuesOf(const ir::Value* v) {
  if (!v) return nullptr;
  const ir::Tensor* t = v->initializer();
  if (!t || t->dtype != DataType::Int64) return nullptr;
  auto& c = valueCache()[v];
  c = t->asInt64();
  return &c;
}
DataType typeOf(const ir::Value* v) {
  if (!v) return DataType::Undefined;
  if (const ir::Tensor* t = v->initializer()) return t->dtype;
  return v->type.isTensor() ? v->type.elemType : DataType::Undefined;
}

QString str(const std::optional<Dims>& d) {
  if (!d) return "unknown";
  QStringList s;
  for (auto x : *d) s << QString::number(x);
  return "[" + s.join(",") + "]";
}
QString str(const Shapes& s) {
  QStringList out;
  for (const auto& d : s) out << str(d);
  return "{" + out.join(" ") + "}";
}

std::optional<Dims> generic(const Built& b) { return schema::staticOutputShape(*b.node, dimsOf, valuesOf); }
Shapes newer(const Built& b) {
  return schema::opsets_18_26::staticOutputShapes(*b.node, b.model->opsetVersion(""), dimsOf, valuesOf);
}

const std::optional<Dims> unknown = std::nullopt;

// A case of the opsets 18-26 rules.
struct Case {
  const char* name;
  int64_t opset;
  std::string op;
  std::vector<In> inputs;
  std::vector<ir::Attribute> attrs;
  Shapes expected;
  bool ort = false;  // also run in ONNX Runtime
};

std::vector<Case> newerCases() {
  std::vector<Case> c;
  // --- Reduce*-18 (axes input), ReduceMax-20: reduced axes become 1 (keepdims) or go; no axes = all axes, except
  // with noop_with_empty_axes, where the op is an identity.
  c.push_back({"ReduceMean axes [-1] keepdims",
               18,
               "ReduceMean",
               {data("x", {2, 3, 4}), ints("axes", {-1})},
               {},
               {Dims{2, 3, 1}},
               true});
  c.push_back({"ReduceSumSquare axes [0,2] no keepdims",
               21,
               "ReduceSumSquare",
               {data("x", {2, 3, 4}), ints("axes", {0, 2})},
               {I("keepdims", 0)},
               {Dims{3}},
               true});
  c.push_back({"ReduceMax-20 all axes", 21, "ReduceMax", {data("x", {2, 3, 4})}, {}, {Dims{1, 1, 1}}, true});
  c.push_back(
      {"ReduceL2 all axes no keepdims", 21, "ReduceL2", {data("x", {2, 3, 4})}, {I("keepdims", 0)}, {Dims{}}, true});
  c.push_back({"ReduceLogSumExp noop, no axes",
               21,
               "ReduceLogSumExp",
               {data("x", {2, 3, 4})},
               {I("noop_with_empty_axes", 1)},
               {Dims{2, 3, 4}},
               true});
  c.push_back({"ReduceL1 noop, empty axes",
               21,
               "ReduceL1",
               {data("x", {2, 3, 4}), ints("axes", {})},
               {I("noop_with_empty_axes", 1)},
               {Dims{2, 3, 4}},
               true});
  c.push_back({"ReduceProd empty axes = all",
               21,
               "ReduceProd",
               {data("x", {2, 3, 4}), ints("axes", {})},
               {},
               {Dims{1, 1, 1}},
               true});
  c.push_back(
      {"ReduceMean axis out of range", 21, "ReduceMean", {data("x", {2, 3, 4}), ints("axes", {3})}, {}, {unknown}});
  c.push_back(
      {"ReduceMean axes unknown", 21, "ReduceMean", {data("x", {2, 3, 4}), symbolic("axes", {1})}, {}, {unknown}});
  c.push_back(
      {"ReduceMean symbolic input", 21, "ReduceMean", {symbolic("x", {2, 3}), ints("axes", {1})}, {}, {unknown}});
  c.push_back(
      {"ReduceMin empty tensor", 21, "ReduceMin", {data("x", {0, 3}), ints("axes", {1})}, {}, {Dims{0, 1}}, true});
  // --- Split-18: num_outputs = n gives chunks of ceil(dim / n), the last smaller; a split input gives the sizes.
  c.push_back({"Split num_outputs 3 of 10",
               18,
               "Split",
               {data("x", {10, 2})},
               {I("num_outputs", 3)},
               {Dims{4, 2}, Dims{4, 2}, Dims{2, 2}},
               true});
  c.push_back({"Split num_outputs 2 of 6 axis -1",
               21,
               "Split",
               {data("x", {2, 6})},
               {I("num_outputs", 2), I("axis", -1)},
               {Dims{2, 3}, Dims{2, 3}},
               true});
  c.push_back({"Split sizes [2,5,1] axis 1",
               21,
               "Split",
               {data("x", {3, 8}), ints("split", {2, 5, 1})},
               {I("axis", 1)},
               {Dims{3, 2}, Dims{3, 5}, Dims{3, 1}},
               true});
  c.push_back({"Split sizes unknown",
               21,
               "Split",
               {data("x", {3, 8}), symbolic("split", {2})},
               {I("axis", 1)},
               {unknown, unknown}});
  c.push_back(
      {"Split num_outputs != outputs", 21, "Split", {data("x", {10})}, {I("num_outputs", 3)}, {unknown, unknown}});
  c.push_back({"Split axis out of range",
               21,
               "Split",
               {data("x", {10})},
               {I("num_outputs", 2), I("axis", 1)},
               {unknown, unknown}});
  // --- Pad-18/19/21: pads [begins..., ends...] over the axes input (all axes without it); negative pads crop.
  c.push_back({"Pad all axes", 21, "Pad", {data("x", {2, 3}), ints("pads", {1, 0, 2, 4})}, {}, {Dims{5, 7}}, true});
  c.push_back({"Pad axes [0,-1]",
               21,
               "Pad",
               {data("x", {5, 6, 7}), ints("pads", {1, 2, 3, 4}), omitted(), ints("axes", {0, -1})},
               {},
               {Dims{9, 6, 13}},
               true});
  c.push_back(
      {"Pad negative pads crop", 21, "Pad", {data("x", {5, 6}), ints("pads", {-1, 0, -2, 1})}, {}, {Dims{2, 7}}, true});
  c.push_back({"Pad cropping below zero", 21, "Pad", {data("x", {2, 6}), ints("pads", {-2, 0, -1, 0})}, {}, {unknown}});
  c.push_back({"Pad pads of the wrong length", 21, "Pad", {data("x", {2, 6}), ints("pads", {1, 1})}, {}, {unknown}});
  c.push_back({"Pad axis out of range",
               21,
               "Pad",
               {data("x", {2, 6}), ints("pads", {1, 1}), omitted(), ints("axes", {2})},
               {},
               {unknown}});
  // --- CenterCropPad-18: the given axes take the given sizes.
  c.push_back({"CenterCropPad axes [-2,-1]",
               18,
               "CenterCropPad",
               {data("x", {3, 10, 2}), ints("shape", {4, 4})},
               {Is("axes", {-2, -1})},
               {Dims{3, 4, 4}},
               true});
  c.push_back({"CenterCropPad all axes",
               21,
               "CenterCropPad",
               {data("x", {3, 10}), ints("shape", {5, 12})},
               {},
               {Dims{5, 12}},
               true});
  // --- Resize-18/19: sizes (with keep_aspect_ratio_policy: one scale, min or max of sizes/in, round(scale * in))
  // or scales (floor(in * scale)), over `axes`.
  c.push_back({"Resize sizes stretch",
               19,
               "Resize",
               {data("x", {1, 3, 10, 20}), omitted(), omitted(), ints("sizes", {1, 3, 5, 7})},
               {},
               {Dims{1, 3, 5, 7}},
               true});
  c.push_back({"Resize sizes not_larger axes [2,3]",
               19,
               "Resize",
               {data("x", {1, 3, 100, 200}), omitted(), omitted(), ints("sizes", {50, 50})},
               {Is("axes", {2, 3}), S("keep_aspect_ratio_policy", "not_larger")},
               {Dims{1, 3, 25, 50}},
               true});
  c.push_back({"Resize sizes not_smaller axes [2,3]",
               19,
               "Resize",
               {data("x", {1, 3, 100, 200}), omitted(), omitted(), ints("sizes", {50, 50})},
               {Is("axes", {2, 3}), S("keep_aspect_ratio_policy", "not_smaller")},
               {Dims{1, 3, 50, 100}},
               true});
  c.push_back({"Resize sizes not_smaller axes [-2,-1]",
               19,
               "Resize",
               {data("x", {1, 3, 100, 200}), omitted(), omitted(), ints("sizes", {50, 50})},
               {Is("axes", {-2, -1}), S("keep_aspect_ratio_policy", "not_smaller")},
               {Dims{1, 3, 50, 100}}});
  // (Not run in ONNX Runtime: 1.30 leaves the input's size with negative axes and a keep_aspect_ratio_policy,
  // though it resizes with the same axes written positive, above, and with negative axes under "stretch", below.)
  c.push_back({"Resize sizes stretch axes [-1]",
               19,
               "Resize",
               {data("x", {1, 3, 10, 20}), omitted(), omitted(), ints("sizes", {7})},
               {Is("axes", {-1})},
               {Dims{1, 3, 10, 7}},
               true});
  c.push_back({"Resize scales floor",
               19,
               "Resize",
               {data("x", {1, 3, 5, 8}), omitted(), floats("scales", {1.f, 1.f, 1.5f, 0.5f})},
               {},
               {Dims{1, 3, 7, 4}},
               true});
  c.push_back({"Resize scales over axes",
               19,
               "Resize",
               {data("x", {1, 3, 5, 8}), omitted(), floats("scales", {2.f})},
               {Is("axes", {-1})},
               {Dims{1, 3, 5, 16}},
               true});
  c.push_back({"Resize sizes of wrong length",
               19,
               "Resize",
               {data("x", {1, 3, 5, 8}), omitted(), omitted(), ints("sizes", {4, 4})},
               {},
               {unknown}});
  c.push_back({"Resize sizes unknown",
               19,
               "Resize",
               {data("x", {1, 3, 5, 8}), omitted(), omitted(), symbolic("sizes", {4})},
               {},
               {unknown}});
  // --- AveragePool-19/22, LpPool-18/22, MaxPool-22: out = floor or ceil((in + pads - ((k-1)*d + 1)) / s) + 1,
  // ceil_mode dropping a last window that would start in the right padding; SAME_*: ceil(in / s); VALID:
  // floor((in - window) / s) + 1.
  c.push_back({"AveragePool k3 s2",
               22,
               "AveragePool",
               {data("x", {1, 2, 8, 8})},
               {Is("kernel_shape", {3, 3}), Is("strides", {2, 2})},
               {Dims{1, 2, 3, 3}},
               true});
  c.push_back({"AveragePool k3 s2 ceil_mode",
               22,
               "AveragePool",
               {data("x", {1, 2, 8, 8})},
               {Is("kernel_shape", {3, 3}), Is("strides", {2, 2}), I("ceil_mode", 1)},
               {Dims{1, 2, 4, 4}},
               true});
  c.push_back({"AveragePool ceil_mode drops a window in the padding",
               22,
               "AveragePool",
               {data("x", {1, 1, 5})},
               {Is("kernel_shape", {2}), Is("strides", {2}), Is("pads", {1, 1}), I("ceil_mode", 1)},
               {Dims{1, 1, 3}},
               true});
  c.push_back({"AveragePool dilations",
               22,
               "AveragePool",
               {data("x", {1, 1, 10, 10})},
               {Is("kernel_shape", {3, 2}), Is("dilations", {2, 3})},
               {Dims{1, 1, 6, 7}},
               true});
  c.push_back({"MaxPool SAME_UPPER",
               22,
               "MaxPool",
               {data("x", {1, 1, 7, 7})},
               {Is("kernel_shape", {3, 3}), Is("strides", {2, 2}), S("auto_pad", "SAME_UPPER")},
               {Dims{1, 1, 4, 4}},
               true});
  c.push_back({"LpPool VALID",
               22,
               "LpPool",
               {data("x", {1, 1, 7})},
               {Is("kernel_shape", {3}), Is("strides", {2}), S("auto_pad", "VALID")},
               {Dims{1, 1, 3}},
               true});
  c.push_back({"AveragePool pads",
               19,
               "AveragePool",
               {data("x", {2, 3, 6, 6})},
               {Is("kernel_shape", {3, 3}), Is("pads", {1, 1, 1, 1})},
               {Dims{2, 3, 6, 6}},
               true});
  c.push_back({"AveragePool kernel rank mismatch",
               22,
               "AveragePool",
               {data("x", {1, 1, 7, 7})},
               {Is("kernel_shape", {3})},
               {unknown}});
  c.push_back({"AveragePool kernel larger than input",
               22,
               "AveragePool",
               {data("x", {1, 1, 2})},
               {Is("kernel_shape", {3})},
               {unknown}});
  c.push_back({"AveragePool zero stride",
               22,
               "AveragePool",
               {data("x", {1, 1, 7})},
               {Is("kernel_shape", {3}), Is("strides", {0})},
               {unknown}});
  // --- DFT-20: the transformed axis (input, default -2) gets dft_length, or length/2 + 1 onesided; the last axis is 2.
  c.push_back({"DFT default axis", 20, "DFT", {data("x", {2, 16, 1})}, {}, {Dims{2, 16, 2}}, true});
  c.push_back({"DFT onesided", 20, "DFT", {data("x", {2, 16, 1})}, {I("onesided", 1)}, {Dims{2, 9, 2}}, true});
  c.push_back({"DFT dft_length and axis",
               20,
               "DFT",
               {data("x", {3, 4, 8, 2}), scalar("dft_length", 10), scalar("axis", 2)},
               {},
               {Dims{3, 4, 10, 2}},
               true});
  c.push_back(
      {"DFT axis = last is invalid", 20, "DFT", {data("x", {2, 16, 1}), omitted(), scalar("axis", -1)}, {}, {unknown}});
  c.push_back({"DFT inverse onesided is invalid",
               20,
               "DFT",
               {data("x", {2, 16, 2})},
               {I("inverse", 1), I("onesided", 1)},
               {unknown}});
  // --- GridSample-20 (N, C, then the grid's spatial dims), AffineGrid-20 (N, spatial of size, rank).
  c.push_back({"GridSample 2-D",
               20,
               "GridSample",
               {data("x", {2, 3, 5, 6}), data("grid", {2, 7, 9, 2})},
               {},
               {Dims{2, 3, 7, 9}},
               true});
  c.push_back({"GridSample 3-D",
               22,
               "GridSample",
               {data("x", {1, 2, 4, 5, 6}), data("grid", {1, 3, 3, 3, 3})},
               {},
               {Dims{1, 2, 3, 3, 3}},
               true});
  c.push_back({"GridSample rank mismatch",
               20,
               "GridSample",
               {data("x", {2, 3, 5, 6}), data("grid", {2, 7, 2})},
               {},
               {unknown}});
  c.push_back({"AffineGrid 2-D",
               20,
               "AffineGrid",
               {data("theta", {2, 2, 3}), ints("size", {2, 3, 5, 7})},
               {},
               {Dims{2, 5, 7, 2}},
               true});
  c.push_back({"AffineGrid 3-D",
               20,
               "AffineGrid",
               {data("theta", {1, 3, 4}), ints("size", {1, 1, 2, 3, 4})},
               {},
               {Dims{1, 2, 3, 4, 3}},
               true});
  // --- Col2Im-18: [N, C * prod(block), L] -> [N, C, image...].
  c.push_back({"Col2Im",
               18,
               "Col2Im",
               {data("x", {1, 12, 16}), ints("image", {5, 5}), ints("block", {2, 2})},
               {},
               {Dims{1, 3, 5, 5}},
               true});
  c.push_back({"Col2Im block not dividing C",
               18,
               "Col2Im",
               {data("x", {1, 10, 16}), ints("image", {5, 5}), ints("block", {2, 2})},
               {},
               {unknown}});
  c.push_back({"Col2Im zero block",
               18,
               "Col2Im",
               {data("x", {1, 10, 16}), ints("image", {5, 5}), ints("block", {0, 2})},
               {},
               {unknown}});
  // --- Attention-23: 4-D [B, heads, seq, head]: Y [B, q_heads, q_seq, v_head]; the KV cache appends past to seq.
  // 3-D [B, seq, hidden]: Y [B, q_seq, q_heads * v_hidden / kv_heads], present [B, kv_heads, past + seq, hidden /
  // kv_heads].
  c.push_back({"Attention 4-D",
               23,
               "Attention",
               {data("q", {2, 4, 5, 8}), data("k", {2, 4, 6, 8}), data("v", {2, 4, 6, 16})},
               {},
               {Dims{2, 4, 5, 16}},
               true});
  c.push_back({"Attention 4-D with past",
               23,
               "Attention",
               {data("q", {2, 4, 5, 8}), data("k", {2, 4, 6, 8}), data("v", {2, 4, 6, 16}), omitted(),
                data("pk", {2, 4, 3, 8}), data("pv", {2, 4, 3, 16})},
               {},
               {Dims{2, 4, 5, 16}, Dims{2, 4, 9, 8}, Dims{2, 4, 9, 16}},
               true});
  c.push_back({"Attention 3-D GQA",
               23,
               "Attention",
               {data("q", {2, 5, 32}), data("k", {2, 6, 16}), data("v", {2, 6, 24})},
               {I("q_num_heads", 4), I("kv_num_heads", 2)},
               {Dims{2, 5, 48}},
               true});
  c.push_back({"Attention 3-D without heads",
               23,
               "Attention",
               {data("q", {2, 5, 32}), data("k", {2, 6, 16}), data("v", {2, 6, 24})},
               {},
               {unknown}});
  c.push_back({"Attention rank mismatch",
               23,
               "Attention",
               {data("q", {2, 5, 32}), data("k", {2, 4, 6, 16}), data("v", {2, 6, 24})},
               {I("q_num_heads", 4), I("kv_num_heads", 2)},
               {unknown}});
  // --- Bitwise* / Equal (broadcast), element-wise ops of the newer versions (same shape), OptionalHasElement.
  c.push_back({"BitwiseAnd broadcast",
               18,
               "BitwiseAnd",
               {data("a", {2, 1}, DataType::Int32), data("b", {3}, DataType::Int32)},
               {},
               {Dims{2, 3}},
               true});
  c.push_back({"BitwiseOr broadcast failure",
               18,
               "BitwiseOr",
               {data("a", {2, 3}, DataType::Int32), data("b", {4}, DataType::Int32)},
               {},
               {unknown}});
  c.push_back(
      {"Equal-19 broadcast", 19, "Equal", {data("a", {4, 1, 3}), data("b", {2, 1})}, {}, {Dims{4, 2, 3}}, true});
  c.push_back({"Gelu", 20, "Gelu", {data("x", {2, 0, 3})}, {}, {Dims{2, 0, 3}}, true});
  c.push_back({"Mish", 18, "Mish", {data("x", {3, 4})}, {}, {Dims{3, 4}}, true});
  c.push_back({"GroupNormalization",
               21,
               "GroupNormalization",
               {data("x", {2, 4, 3}), data("s", {4}), data("b", {4})},
               {I("num_groups", 2)},
               {Dims{2, 4, 3}},
               true});
  c.push_back({"Dropout both outputs", 22, "Dropout", {data("x", {2, 5})}, {}, {Dims{2, 5}, Dims{2, 5}}, true});
  c.push_back({"Gelu symbolic", 20, "Gelu", {symbolic("x", {2, 3})}, {}, {unknown}});
  // --- Ops whose shape rule is the opset-17 one: handed back (no entry).
  c.push_back({"Reshape-21 is the generic rule's", 21, "Reshape", {data("x", {2, 3}), ints("s", {-1})}, {}, {}});
  c.push_back(
      {"ReduceSum-13 at 21 is the generic rule's", 21, "ReduceSum", {data("x", {2, 3, 4}), ints("axes", {1})}, {}, {}});
  c.push_back({"Transpose-21 is the generic rule's", 21, "Transpose", {data("x", {2, 3})}, {}, {}});
  return c;
}

}  // namespace

class TestSchemaStaticShapes : public QObject {
  Q_OBJECT
 private slots:
  void broadcastDims() {
    using schema::broadcastDims;
    QCOMPARE(broadcastDims({{2, 3, 4}, {3, 1}}), std::optional<Dims>(Dims{2, 3, 4}));
    QCOMPARE(broadcastDims({{5, 1, 4}, {1, 3, 1}}), std::optional<Dims>(Dims{5, 3, 4}));
    QCOMPARE(broadcastDims({{2, 1, 1}, {1, 3, 1}, {4}}), std::optional<Dims>(Dims{2, 3, 4}));
    QCOMPARE(broadcastDims({{}, {2, 3}}), std::optional<Dims>(Dims{2, 3}));  // a scalar
    QCOMPARE(broadcastDims({{}}), std::optional<Dims>(Dims{}));
    QCOMPARE(broadcastDims({}), std::optional<Dims>(Dims{}));
    QCOMPARE(broadcastDims({{0, 3}, {1, 3}}), std::optional<Dims>(Dims{0, 3}));  // an empty tensor stays empty
    QCOMPARE(broadcastDims({{1}, {0}}), std::optional<Dims>(Dims{0}));
    QVERIFY(!broadcastDims({{2, 3}, {4, 3}}));
    QVERIFY(!broadcastDims({{0}, {2}}));  // 0 is not 1: no broadcast
    QCOMPARE(broadcastDims({{3}, {1, 1, 1}, {2, 1}}), std::optional<Dims>(Dims{1, 2, 3}));
    QCOMPARE(broadcastDims({{2, 3}, {3}, {5, 1, 1}}), std::optional<Dims>(Dims{5, 2, 3}));
    QVERIFY(!broadcastDims({{2, 3}, {3}, {5, 1, 2}}));
  }

  void genericRules_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < static_cast<int>(genericCases().size()); ++i)
      QTest::newRow(genericCases()[static_cast<size_t>(i)].name) << i;
  }
  void genericRules() {
    QFETCH(int, index);
    const Case& c = genericCases()[static_cast<size_t>(index)];
    Built b = build(c.opset, c.op, c.inputs, 1, c.attrs);
    const auto got = generic(b);
    QVERIFY2(got == c.expected.at(0), qPrintable(QString("%1 instead of %2").arg(str(got), str(c.expected.at(0)))));
  }

  void newerRules_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < static_cast<int>(newerCases().size()); ++i)
      QTest::newRow(newerCases()[static_cast<size_t>(i)].name) << i;
  }
  void newerRules() {
    QFETCH(int, index);
    const Case c = newerCases()[static_cast<size_t>(index)];
    Built b = build(c.opset, c.op, c.inputs, std::max<size_t>(1, c.expected.size()), c.attrs);
    const Shapes got = newer(b);
    QVERIFY2(got == c.expected, qPrintable(QString("%1 instead of %2").arg(str(got), str(c.expected))));
  }

  // Not for other domains, op versions FlowBridge has no facts for, or nodes without inputs.
  void newerRulesScope() {
    Built custom = build(21, "Gelu", {data("x", {2})}, 1, {});
    custom.node->domain = "com.example";
    QVERIFY(newer(custom).empty());
    Built before = build(17, "Gelu", {data("x", {2})}, 1, {});  // Gelu is new in opset 20
    QVERIFY(newer(before).empty());
    Built noInputs = build(21, "Gelu", {}, 1, {});
    QVERIFY(newer(noInputs).empty());
    Built hasElement = build(18, "OptionalHasElement", {data("x", {2, 3})}, 1, {});
    QCOMPARE(newer(hasElement), (Shapes{Dims{}}));  // a scalar bool
  }

  // The element types the rules give outputs, by the operator specification's type constraints.
  void outputElemTypes() {
    using schema::opsets_18_26::outputElemType;
    auto type = [](const std::string& op, std::vector<In> inputs, std::vector<ir::Attribute> attrs, size_t i,
                   size_t outputs = 1) {
      Built b = build(21, op, inputs, outputs, std::move(attrs));
      return outputElemType(*b.node, i, typeOf);
    };
    QCOMPARE(type("Cast", {data("x", {2})}, {I("to", 10)}, 0), DataType::Float16);
    QCOMPARE(type("CastLike", {data("x", {2}), data("t", {1}, DataType::Int32)}, {}, 0), DataType::Int32);
    QCOMPARE(type("QuantizeLinear", {data("x", {2}), data("s", {1}), data("zp", {1}, DataType::Int32)}, {}, 0),
             DataType::Int32);
    QCOMPARE(type("QuantizeLinear", {data("x", {2}), data("s", {1})}, {}, 0), DataType::UInt8);  // no zero point: uint8
    QCOMPARE(type("QuantizeLinear", {data("x", {2}), data("s", {1})}, {I("output_dtype", 3)}, 0), DataType::Int8);
    QCOMPARE(type("DequantizeLinear", {data("x", {2}, DataType::Int32), data("s", {1})}, {}, 0),
             DataType::Float);  // scale's type
    QCOMPARE(type("DequantizeLinear", {data("x", {2}, DataType::Int32), data("s", {1})}, {I("output_dtype", 10)}, 0),
             DataType::Float16);
    QCOMPARE(type("IsNaN", {data("x", {2})}, {}, 0), DataType::Bool);
    QCOMPARE(type("Equal", {data("x", {2}), data("y", {2})}, {}, 0), DataType::Bool);
    QCOMPARE(type("OptionalHasElement", {data("x", {2})}, {}, 0), DataType::Bool);
    QCOMPARE(type("Dropout", {data("x", {2})}, {}, 0, 2), DataType::Float);
    QCOMPARE(type("Dropout", {data("x", {2})}, {}, 1, 2), DataType::Bool);
    QCOMPARE(type("TopK", {data("x", {2}), ints("k", {1})}, {}, 0, 2), DataType::Float);
    QCOMPARE(type("TopK", {data("x", {2}), ints("k", {1})}, {}, 1, 2), DataType::Int64);
    QCOMPARE(type("StringSplit", {data("x", {2})}, {}, 0, 2), DataType::String);
    QCOMPARE(type("StringSplit", {data("x", {2})}, {}, 1, 2), DataType::Int64);
    // Attention: Y and present_key take Q's type, present_value V's.
    QCOMPARE(type("Attention", {data("q", {1}), data("k", {1}), data("v", {1}, DataType::Int32)}, {}, 0, 3),
             DataType::Float);
    QCOMPARE(type("Attention", {data("q", {1}), data("k", {1}), data("v", {1}, DataType::Int32)}, {}, 2, 3),
             DataType::Int32);
    QCOMPARE(type("Gelu", {data("x", {2}, DataType::Int64)}, {}, 0), DataType::Int64);
  }

  // The cases marked for it, run in ONNX Runtime: every output the rule knows has ONNX Runtime's shape, and
  // every output's element type is ONNX Runtime's.
  void agreesWithOnnxRuntime() {
    QVERIFY2(test::oracleInstalled(), "run tests/oracle/install.sh");
    test::OracleServer ort;
    QVERIFY(ort.started());
    const QString dir = test::scratchDir("schema_static_shapes");
    int compared = 0;
    QStringList failures;
    std::vector<Case> cases = newerCases();
    for (const Case& c : genericCases()) cases.push_back(c);
    for (size_t k = 0; k < cases.size(); ++k) {
      const Case& c = cases[k];
      if (!c.ort) continue;
      const size_t outputs = std::max<size_t>(1, c.expected.size());
      Built b = build(c.opset, c.op, c.inputs, outputs, c.attrs);
      for (size_t i = 0; i < outputs; ++i) {
        ir::Value* o = b.node->output(i);
        o->type = ir::TypeInfo::tensor(schema::opsets_18_26::outputElemType(*b.node, i, typeOf));
        b.model->graph().addOutput(o);
      }
      const QString path = dir + QString("/case%1.onnx").arg(k);
      onnxfmt::writeOnnxFile(*b.model, path.toStdString());
      const auto answer = ort.run(path, {});
      if (!answer.ok) {
        failures << QString("%1: ONNX Runtime: %2").arg(c.name, answer.error);
        continue;
      }
      for (size_t i = 0; i < outputs; ++i) {
        auto it = answer.outputs.find("y" + std::to_string(i));
        if (it == answer.outputs.end()) {
          failures << QString("%1: no output y%2").arg(c.name).arg(i);
          continue;
        }
        if (c.expected.at(i) && it->second.dims != *c.expected[i])
          failures << QString("%1: output %2 is %3 in ONNX Runtime, %4 by the specification")
                          .arg(c.name)
                          .arg(i)
                          .arg(str(it->second.dims), str(c.expected[i]));
        if (it->second.dtype != b.node->output(i)->type.elemType)
          failures << QString("%1: output %2 has type %3 in ONNX Runtime")
                          .arg(c.name)
                          .arg(i)
                          .arg(static_cast<int>(it->second.dtype));
        ++compared;
      }
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    QVERIFY(compared >= 50);
  }

  // On the corpus models: wherever libonnx's shape inference (an implementation of the same specification,
  // independent of these rules) gives a node's output static dims, and the generic rule gives a shape from the
  // inferred dims of the node's inputs and the integer constants of the model, the two are the same.
  void genericRulesAgreeWithLibonnxOnTheCorpus() {
    size_t compared = 0;
    QStringList disagreements;
    for (const QString& file : test::corpusModels()) {
      const QString path = test::corpusModel(file);
      auto model = loadModel(path.toStdString());
      const auto inferred = inferShapes(*model);
      ir::Graph& g = model->graph();
      std::map<const ir::Value*, std::vector<int64_t>> constants;
      for (const auto& n : g.nodes())
        if (n->opType == "Constant" && n->output(0))
          if (const auto* a = n->attr("value");
              a && !a->tensors.empty() && a->tensors[0].dtype == DataType::Int64 && a->tensors[0].numElements() <= 64)
            constants[n->output(0)] = a->tensors[0].asInt64();
      auto inferredDims = [&](const ir::Value* v) -> std::optional<Dims> {
        if (!v) return std::nullopt;
        if (const ir::Tensor* t = v->initializer()) return t->dims;
        if (auto d = v->type.staticDims()) return d;
        auto it = inferred.find(v->name());
        return it == inferred.end() ? std::nullopt : it->second.staticDims();
      };
      auto values = [&](const ir::Value* v) -> const std::vector<int64_t>* {
        if (auto it = constants.find(v); it != constants.end()) return &it->second;
        return valuesOf(v);
      };
      for (const auto& n : g.nodes()) {
        if (!n->isDefaultDomain() || n->outputs().empty() || !n->output(0)) continue;
        const auto expected = inferredDims(n->output(0));
        if (!expected) continue;
        const auto got = schema::staticOutputShape(*n, inferredDims, values);
        if (!got) continue;
        ++compared;
        if (*got != *expected)
          disagreements << QString("%1: %2 %3: %4, libonnx %5")
                               .arg(QFileInfo(path).fileName(), QString::fromStdString(n->opType),
                                    QString::fromStdString(n->name), str(got), str(expected));
      }
    }
    QVERIFY2(disagreements.isEmpty(), qPrintable(disagreements.join("\n")));
    qInfo("%zu node outputs compared", compared);
    QVERIFY(compared >= 1000);
  }

 private:
  static const std::vector<Case>& genericCases() {
    static const std::vector<Case> c = [] {
      std::vector<Case> v;
      auto add = [&](const char* name, std::string op, std::vector<In> in, std::vector<ir::Attribute> attrs,
                     std::optional<Dims> expected, bool ort = false, int64_t opset = 17) {
        v.push_back({name, opset, std::move(op), std::move(in), std::move(attrs), {std::move(expected)}, ort});
      };
      // Element-wise: same shape; broadcasting ops: numpy broadcast of all inputs.
      add("Relu", "Relu", {data("x", {2, 3})}, {}, Dims{2, 3}, true);
      add("Relu symbolic", "Relu", {symbolic("x", {2, 3})}, {}, std::nullopt);
      add("Add broadcast", "Add", {data("a", {2, 1, 4}), data("b", {3, 1})}, {}, Dims{2, 3, 4}, true);
      add("Where three inputs", "Where", {data("c", {1, 4}, DataType::Int64), data("a", {3, 1}), data("b", {4})}, {},
          Dims{3, 4});
      add("Sum four inputs", "Sum", {data("a", {2, 1}), data("b", {3}), data("c", {1, 1, 3}), data("d", {1})}, {},
          Dims{1, 2, 3}, true);
      add("Mul broadcast failure", "Mul", {data("a", {2, 3}), data("b", {4})}, {}, std::nullopt);
      add("Add one input symbolic", "Add", {data("a", {2, 3}), symbolic("b", {2, 3})}, {}, std::nullopt);
      // Transpose: perm (reverse without it).
      add("Transpose default", "Transpose", {data("x", {2, 3, 4})}, {}, Dims{4, 3, 2}, true);
      add("Transpose perm", "Transpose", {data("x", {2, 3, 4})}, {Is("perm", {0, 2, 1})}, Dims{2, 4, 3}, true);
      add("Transpose perm repeats an axis", "Transpose", {data("x", {2, 3, 4})}, {Is("perm", {0, 0, 1})}, std::nullopt);
      add("Transpose perm of the wrong rank", "Transpose", {data("x", {2, 3, 4})}, {Is("perm", {1, 0})}, std::nullopt);
      // Reshape: 0 copies the input dim (unless allowzero), one -1 takes what is left.
      add("Reshape 0 and -1", "Reshape", {data("x", {2, 3, 4}), ints("s", {0, -1})}, {}, Dims{2, 12}, true);
      add("Reshape -1 first", "Reshape", {data("x", {2, 3, 4}), ints("s", {-1, 6})}, {}, Dims{4, 6}, true);
      add("Reshape empty tensor", "Reshape", {data("x", {0, 3}), ints("s", {3, -1})}, {}, Dims{3, 0}, true);
      add("Reshape allowzero keeps 0", "Reshape", {data("x", {0, 3}), ints("s", {0, 3})}, {I("allowzero", 1)},
          Dims{0, 3}, true, 17);
      add("Reshape allowzero 0 with -1", "Reshape", {data("x", {0, 3}), ints("s", {0, -1})}, {I("allowzero", 1)},
          std::nullopt);
      add("Reshape two -1", "Reshape", {data("x", {2, 3}), ints("s", {-1, -1})}, {}, std::nullopt);
      add("Reshape not dividing", "Reshape", {data("x", {2, 3, 4}), ints("s", {5, -1})}, {}, std::nullopt);
      add("Reshape 0 past the input rank", "Reshape", {data("x", {6}), ints("s", {2, 0})}, {}, std::nullopt);
      add("Reshape target unknown", "Reshape", {data("x", {6}), symbolic("s", {2})}, {}, std::nullopt);
      // MatMul: batch dims broadcast, then [M, K] x [K, N]; Gemm with transA/transB.
      add("MatMul batch broadcast", "MatMul", {data("a", {2, 1, 3, 4}), data("b", {5, 4, 6})}, {}, Dims{2, 5, 3, 6},
          true);
      add("MatMul batch mismatch", "MatMul", {data("a", {2, 3, 4}), data("b", {3, 4, 5})}, {}, std::nullopt);
      add("Gemm transA transB", "Gemm", {data("a", {4, 3}), data("b", {5, 4})}, {I("transA", 1), I("transB", 1)},
          Dims{3, 5}, true);
      add("Gemm 3-D is invalid", "Gemm", {data("a", {1, 4, 3}), data("b", {3, 4})}, {}, std::nullopt);
      // Unsqueeze / Squeeze: axes (input from 13 on, attribute before), negative axes count from the end of the
      // output (Unsqueeze) or the input (Squeeze).
      add("Unsqueeze axes [0,-1]", "Unsqueeze", {data("x", {3, 4}), ints("axes", {0, -1})}, {}, Dims{1, 3, 4, 1}, true);
      add("Unsqueeze axes [2,0]", "Unsqueeze", {data("x", {3, 4}), ints("axes", {2, 0})}, {}, Dims{1, 3, 1, 4}, true);
      add("Unsqueeze-11 attribute", "Unsqueeze", {data("x", {3, 4})}, {Is("axes", {1})}, Dims{3, 1, 4}, true, 11);
      add("Unsqueeze repeated axis", "Unsqueeze", {data("x", {3, 4}), ints("axes", {1, 1})}, {}, std::nullopt);
      add("Unsqueeze axis out of range", "Unsqueeze", {data("x", {3, 4}), ints("axes", {3})}, {}, std::nullopt);
      add("Squeeze axes [-1]", "Squeeze", {data("x", {3, 1}), ints("axes", {-1})}, {}, Dims{3}, true);
      add("Squeeze all ones", "Squeeze", {data("x", {1, 3, 1, 2})}, {}, Dims{3, 2}, true);
      add("Squeeze axis out of range", "Squeeze", {data("x", {3, 1}), ints("axes", {2})}, {}, std::nullopt);
      add("Squeeze axes unknown", "Squeeze", {data("x", {3, 1}), symbolic("axes", {1})}, {}, std::nullopt);
      // Concat along axis (negative from the end); Gather: data[:axis] + indices + data[axis+1:].
      add("Concat axis -1", "Concat", {data("a", {2, 3}), data("b", {2, 5}), data("c", {2, 0})}, {I("axis", -1)},
          Dims{2, 8}, true);
      add("Concat rank mismatch", "Concat", {data("a", {2, 3}), data("b", {2, 3, 1})}, {I("axis", 0)}, std::nullopt);
      add("Concat axis out of range", "Concat", {data("a", {2, 3}), data("b", {2, 3})}, {I("axis", 2)}, std::nullopt);
      add("Gather axis 1", "Gather", {data("x", {5, 6, 7}), data("i", {2, 3}, DataType::Int64)}, {I("axis", 1)},
          Dims{5, 2, 3, 7}, true);
      add("Gather scalar index axis -1", "Gather", {data("x", {5, 6, 7}), data("i", {}, DataType::Int64)},
          {I("axis", -1)}, Dims{5, 6}, true);
      // Flatten: [prod(dims[:axis]), prod(dims[axis:])], axis in [-rank, rank].
      add("Flatten default", "Flatten", {data("x", {2, 3, 4})}, {}, Dims{2, 12}, true);
      add("Flatten axis 0", "Flatten", {data("x", {2, 3, 4})}, {I("axis", 0)}, Dims{1, 24}, true);
      add("Flatten axis -1", "Flatten", {data("x", {2, 3, 4})}, {I("axis", -1)}, Dims{6, 4}, true);
      add("Flatten axis = rank", "Flatten", {data("x", {2, 3, 4})}, {I("axis", 3)}, Dims{24, 1}, true);
      add("Flatten axis past rank", "Flatten", {data("x", {2, 3, 4})}, {I("axis", 4)}, std::nullopt);
      // Reduce* up to 17: axes attribute (ReduceSum-13: input), keepdims; ReduceSum-13's noop_with_empty_axes.
      add("ReduceMean-13 axes attr", "ReduceMean", {data("x", {2, 3, 4})}, {Is("axes", {-1}), I("keepdims", 0)},
          Dims{2, 3}, true);
      add("ReduceMax-13 all", "ReduceMax", {data("x", {2, 3, 4})}, {}, Dims{1, 1, 1}, true);
      add("ReduceSum-13 axes input", "ReduceSum", {data("x", {2, 3, 4}), ints("axes", {1})}, {}, Dims{2, 1, 4}, true);
      add("ReduceSum-13 noop, no axes", "ReduceSum", {data("x", {2, 3, 4})}, {I("noop_with_empty_axes", 1)},
          Dims{2, 3, 4}, true);
      add("ReduceSum-13 noop, empty axes", "ReduceSum", {data("x", {2, 3, 4}), ints("axes", {})},
          {I("noop_with_empty_axes", 1)}, Dims{2, 3, 4}, true);
      add("ReduceMean axis out of range", "ReduceMean", {data("x", {2, 3, 4})}, {Is("axes", {-4})}, std::nullopt);
      // Slice-10+: clamp starts/ends to [0, dim] after adding dim to negatives; ceil((end - start) / step).
      add("Slice negative start, huge end", "Slice", {data("x", {10, 20}), ints("st", {1, -5}), ints("en", {8, 1000})},
          {}, Dims{7, 5}, true);
      add("Slice steps", "Slice",
          {data("x", {10, 20}), ints("st", {1}), ints("en", {8}), ints("ax", {-1}), ints("sp", {2})}, {}, Dims{10, 4},
          true);
      add("Slice start past end", "Slice", {data("x", {10, 20}), ints("st", {7}), ints("en", {3}), ints("ax", {0})}, {},
          Dims{0, 20}, true);
      add("Slice INT64 bounds", "Slice", {data("x", {10}), ints("st", {INT64_MIN}), ints("en", {INT64_MAX})}, {},
          Dims{10}, true);
      add("Slice axis out of range", "Slice", {data("x", {10}), ints("st", {0}), ints("en", {1}), ints("ax", {1})}, {},
          std::nullopt);
      add("Slice ends unknown", "Slice", {data("x", {10}), ints("st", {0}), symbolic("en", {1})}, {}, std::nullopt);
      // Not handled: Shape (its value matters, not its shape), other domains.
      add("Shape", "Shape", {data("x", {2, 3})}, {}, std::nullopt);
      return v;
    }();
    return c;
  }
};

QTEST_GUILESS_MAIN(TestSchemaStaticShapes)
#include "test_schema_static_shapes.moc"
