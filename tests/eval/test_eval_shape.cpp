// The evaluator's shape family (core/eval/kernels/shape*.cpp) beyond what ONNX's node tests cover: the meaning an op
// has at the opset a model imports, int64 values past float's exact range, element types moved as bytes (float16
// bit patterns, strings, packed types refused), empty tensors, bad inputs as RunError, sizes from data refused
// before anything is allocated, and results that do not depend on the thread count.
#include <QtTest>

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

#include "eval/runtime/run.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"

using namespace fb;
using eval::RunError;
using eval::Tensor;
using ir::Attribute;
using ir::DataType;

namespace {

struct Options {
  int64_t opset = 13;
  size_t outputs = 1;
  int threads = 1;
  uint64_t maxLiveBytes = 0;
};

// Runs one node of `op` on `inputs` (nullopt: an omitted optional input) in a model importing `o.opset`.
std::vector<eval::Value> run(const std::string& op, const std::vector<std::optional<Tensor>>& inputs,
                             std::vector<Attribute> attrs = {}, Options o = {}) {
  ir::Model m;
  m.setOpsetVersion("", o.opset);
  ir::Graph& g = m.graph();
  std::vector<ir::Value*> ins, outs;
  std::map<std::string, eval::Value> feeds;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k]) {
      ins.push_back(nullptr);
      continue;
    }
    ir::Value* v = g.getOrCreateValue("in" + std::to_string(k));
    g.addInput(v);
    ins.push_back(v);
    feeds["in" + std::to_string(k)] = *inputs[k];
  }
  for (size_t k = 0; k < o.outputs; ++k) {
    ir::Value* v = g.getOrCreateValue("out" + std::to_string(k));
    outs.push_back(v);
  }
  ir::Node* n = g.addNode(op, ins, outs);
  n->attributes = std::move(attrs);
  for (ir::Value* v : outs) g.addOutput(v);
  eval::RunOptions ro;
  ro.threads = o.threads;
  ro.maxLiveBytes = o.maxLiveBytes;
  auto r = eval::runModel(m, feeds, ro);
  std::vector<eval::Value> values;
  for (auto& [name, v] : r.outputs) values.push_back(v);
  return values;
}

Tensor runOne(const std::string& op, const std::vector<std::optional<Tensor>>& inputs,
              std::vector<Attribute> attrs = {}, Options o = {}) {
  return run(op, inputs, std::move(attrs), o)[0].tensor();
}

Tensor i64(std::vector<int64_t> dims, const std::vector<int64_t>& v) { return Tensor::int64s(std::move(dims), v); }
Tensor i64s(const std::vector<int64_t>& v) { return i64({static_cast<int64_t>(v.size())}, v); }
Tensor f32(std::vector<int64_t> dims, const std::vector<float>& v) { return Tensor::floats(std::move(dims), v); }
Tensor iota(std::vector<int64_t> dims) {
  Tensor t = Tensor::empty(DataType::Float, std::move(dims));
  for (int64_t k = 0; k < t.size(); ++k) t.mutableData<float>()[k] = static_cast<float>(k);
  return t;
}
std::vector<float> floatsOf(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.size()}; }
using Dims = std::vector<int64_t>;
using Ints = std::vector<int64_t>;

// How `f` fails: "BadInput", "Unsupported", "Cancelled", or "nothing thrown".
QString failureOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const RunError& e) {
    switch (e.kind()) {
      case RunError::Kind::BadInput:
        return "BadInput";
      case RunError::Kind::Unsupported:
        return "Unsupported";
      case RunError::Kind::Cancelled:
        return "Cancelled";
    }
  }
  return "nothing thrown";
}
const QString kBadInput = "BadInput";
const QString kUnsupported = "Unsupported";

}  // namespace

class EvalShape : public QObject {
  Q_OBJECT
 private slots:
  void reshapeShapeMovesFromAttributeToInputAndGainsAllowZero();
  void squeezeUnsqueezeAxesAttributeThenInput();
  void sliceAttributesBeforeOpset10AndClampedSteps();
  void splitSizesFormsAndUnevenPartsFromOpset18();
  void padFormsAcrossOpsets();
  void tileOneAndConcatOneDefaults();
  void oneHotNegativeIndicesFromOpset11();
  void dropoutMaskTypeAndTrainingMode();
  void shapeStartEndOnlyFromOpset15();
  void scatterReductionsByOpset();
  void int64ValuesStayExact();
  void halfTypesAndStringsMoveAsTheyAre();
  void packedTypesMoveAsCodesWhereOnnxAllowsThem();
  void emptyTensors();
  void badInputsAreRunErrors();
  void sizesFromDataAreRefusedBeforeAllocation();
  void resultsDoNotDependOnThreads();
  void stridedMovesMatchAnIndexByIndexReference();
  void col2ImSumsOverlapsAndCenterCropPadCentres();
  void constantForms();
};

void EvalShape::reshapeShapeMovesFromAttributeToInputAndGainsAllowZero() {
  const Tensor x = iota({2, 3, 4});
  QCOMPARE(runOne("Reshape", {x}, {Attribute::makeInts("shape", {4, -1})}, {.opset = 1}).dims(), (Dims{4, 6}));
  QCOMPARE(runOne("Reshape", {x, i64s({0, -1})}, {}, {.opset = 5}).dims(), (Dims{2, 12}));
  // Before 14 a 0 copies the input's dim even with allowzero present; from 14 allowzero makes it a real 0.
  const Tensor empty = Tensor::empty(DataType::Float, {0, 3});
  QCOMPARE(runOne("Reshape", {empty, i64s({3, 0})}, {Attribute::makeInt("allowzero", 1)}, {.opset = 14}).dims(),
           (Dims{3, 0}));
  QCOMPARE(runOne("Reshape", {empty, i64s({0, 3})}, {Attribute::makeInt("allowzero", 1)}, {.opset = 13}).dims(),
           (Dims{0, 3}));
  QCOMPARE(failureOf([&] { runOne("Reshape", {empty, i64s({3, 0})}, {}, {.opset = 13}); }), kBadInput);
}

void EvalShape::squeezeUnsqueezeAxesAttributeThenInput() {
  const Tensor x = iota({1, 3, 1});
  QCOMPARE(runOne("Squeeze", {x}, {Attribute::makeInts("axes", {0})}, {.opset = 11}).dims(), (Dims{3, 1}));
  QCOMPARE(runOne("Squeeze", {x, i64s({-1})}, {}, {.opset = 13}).dims(), (Dims{1, 3}));
  QCOMPARE(runOne("Squeeze", {x}, {}, {.opset = 13}).dims(), (Dims{3}));
  QCOMPARE(runOne("Squeeze", {x, Tensor::empty(DataType::Int64, {0})}, {}, {.opset = 13}).dims(), (Dims{3}));
  QCOMPARE(runOne("Unsqueeze", {x}, {Attribute::makeInts("axes", {1, 4})}, {.opset = 11}).dims(),
           (Dims{1, 1, 3, 1, 1}));
  QCOMPARE(runOne("Unsqueeze", {i64({}, {7}), i64s({0, -1})}, {}, {.opset = 13}).dims(), (Dims{1, 1}));
  // Squeeze shares the bytes: the values are the input's.
  QCOMPARE(floatsOf(runOne("Squeeze", {x}, {}, {.opset = 13})), (std::vector<float>{0, 1, 2}));
}

void EvalShape::sliceAttributesBeforeOpset10AndClampedSteps() {
  const Tensor x = i64s({0, 1, 2, 3, 4});
  const Tensor old =
      runOne("Slice", {x},
             {Attribute::makeInts("starts", {1}), Attribute::makeInts("ends", {-1}), Attribute::makeInts("axes", {0})},
             {.opset = 9});
  QCOMPARE(old.toInt64s(), (Ints{1, 2, 3}));
  // Reversed from the end with a step of -2, the end past the front (INT64_MIN).
  QCOMPARE(runOne("Slice", {x, i64s({-1}), i64s({INT64_MIN}), i64s({0}), i64s({-2})}).toInt64s(), (Ints{4, 2, 0}));
  // A step far longer than the axis takes one element.
  QCOMPARE(runOne("Slice", {x, i64s({1}), i64s({INT64_MAX}), i64s({0}), i64s({INT64_MAX})}).toInt64s(), (Ints{1}));
  QCOMPARE(runOne("Slice", {x, i64s({3}), i64s({-100}), i64s({0}), i64s({INT64_MIN})}).toInt64s(), (Ints{3}));
}

void EvalShape::splitSizesFormsAndUnevenPartsFromOpset18() {
  const Tensor x = i64s({0, 1, 2, 3, 4, 5, 6});
  auto two = run("Split", {x}, {Attribute::makeInts("split", {3, 4})}, {.opset = 11, .outputs = 2});
  QCOMPARE(two[1].tensor().toInt64s(), (Ints{3, 4, 5, 6}));
  auto viaInput = run("Split", {x, i64s({5, 2})}, {}, {.opset = 13, .outputs = 2});
  QCOMPARE(viaInput[1].tensor().toInt64s(), (Ints{5, 6}));
  // 7 into 3: refused before 18, parts of 3, 3, 1 from 18.
  QCOMPARE(failureOf([&] { run("Split", {x}, {}, {.opset = 13, .outputs = 3}); }), kBadInput);
  auto uneven = run("Split", {x}, {Attribute::makeInt("num_outputs", 3)}, {.opset = 18, .outputs = 3});
  QCOMPARE(uneven[0].tensor().toInt64s(), (Ints{0, 1, 2}));
  QCOMPARE(uneven[2].tensor().toInt64s(), (Ints{6}));
}

void EvalShape::padFormsAcrossOpsets() {
  const Tensor x = f32({1, 3}, {1, 2, 3});
  // Pad-2: pads and value as attributes.
  Tensor p2 =
      runOne("Pad", {x}, {Attribute::makeInts("pads", {0, 1, 0, 2}), Attribute::makeFloat("value", 9)}, {.opset = 2});
  QCOMPARE(floatsOf(p2), (std::vector<float>{9, 1, 2, 3, 9, 9}));
  // Pad-1 called them paddings.
  Tensor p1 = runOne("Pad", {x}, {Attribute::makeInts("paddings", {0, 1, 0, 0})}, {.opset = 1});
  QCOMPARE(floatsOf(p1), (std::vector<float>{0, 1, 2, 3}));
  // Pad-11: inputs; negative pads crop.
  Tensor p11 = runOne("Pad", {x, i64s({0, -1, 0, 1}), f32({}, {7})}, {}, {.opset = 11});
  QCOMPARE(floatsOf(p11), (std::vector<float>{2, 3, 7}));
  // Pad-18: axes name which axes the pads are for.
  Tensor p18 = runOne("Pad", {x, i64s({2, 0}), std::nullopt, i64s({-1})}, {Attribute::makeString("mode", "edge")},
                      {.opset = 18});
  QCOMPARE(floatsOf(p18), (std::vector<float>{1, 1, 1, 2, 3}));
  // Reflect repeats without the edge; wrap only exists from 19.
  Tensor refl = runOne("Pad", {x, i64s({0, 2, 0, 2})}, {Attribute::makeString("mode", "reflect")}, {.opset = 13});
  QCOMPARE(floatsOf(refl), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  Tensor wrap = runOne("Pad", {x, i64s({0, 2, 0, 1})}, {Attribute::makeString("mode", "wrap")}, {.opset = 19});
  QCOMPARE(floatsOf(wrap), (std::vector<float>{2, 3, 1, 2, 3, 1}));
  QCOMPARE(failureOf([&] {
             runOne("Pad", {x, i64s({0, 2, 0, 1})}, {Attribute::makeString("mode", "wrap")}, {.opset = 18});
           }),
           kBadInput);
}

void EvalShape::tileOneAndConcatOneDefaults() {
  const Tensor x = f32({2, 2}, {1, 2, 3, 4});
  // Tile-1: one count along one axis, both inputs.
  Tensor t1 = runOne("Tile", {x, i64({}, {2}), i64({}, {1})}, {}, {.opset = 1});
  QCOMPARE(t1.dims(), (Dims{2, 4}));
  QCOMPARE(floatsOf(t1), (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4}));
  Tensor t6 = runOne("Tile", {x, i64s({2, 1})}, {}, {.opset = 6});
  QCOMPARE(floatsOf(t6), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
  // Concat-1's axis defaults to 1; from 4 it must be given.
  QCOMPARE(runOne("Concat", {x, x}, {}, {.opset = 1}).dims(), (Dims{2, 4}));
  QCOMPARE(failureOf([&] { runOne("Concat", {x, x}, {}, {.opset = 4}); }), kBadInput);
}

void EvalShape::oneHotNegativeIndicesFromOpset11() {
  const Tensor idx = i64s({-1, 1});
  const Tensor depth = i64({}, {3});
  const Tensor values = f32({2}, {0, 5});
  QCOMPARE(floatsOf(runOne("OneHot", {idx, depth, values}, {}, {.opset = 11})), (std::vector<float>{0, 0, 5, 0, 5, 0}));
  QCOMPARE(floatsOf(runOne("OneHot", {idx, depth, values}, {}, {.opset = 9})), (std::vector<float>{0, 0, 0, 0, 5, 0}));
  // axis 0 puts the depth first.
  QCOMPARE(floatsOf(runOne("OneHot", {idx, depth, values}, {Attribute::makeInt("axis", 0)}, {.opset = 11})),
           (std::vector<float>{0, 0, 0, 5, 5, 0}));
}

void EvalShape::dropoutMaskTypeAndTrainingMode() {
  const Tensor x = f32({2}, {1, -2});
  auto old = run("Dropout", {x}, {}, {.opset = 7, .outputs = 2});
  QCOMPARE(old[1].tensor().dtype(), DataType::Float);
  QCOMPARE(floatsOf(old[1].tensor()), (std::vector<float>{1, 1}));
  auto v10 = run("Dropout", {x}, {}, {.opset = 10, .outputs = 2});
  QCOMPARE(v10[1].tensor().dtype(), DataType::Bool);
  QCOMPARE(floatsOf(v10[0].tensor()), (std::vector<float>{1, -2}));
  const Tensor yes = Tensor::scalar(DataType::Bool, 1);
  QCOMPARE(floatsOf(runOne("Dropout", {x, f32({}, {0}), yes}, {}, {.opset = 13})), (std::vector<float>{1, -2}));
  // Training mode draws as numpy's RandomState(seed).uniform: with seed 0 the draws begin 0.549, 0.715, 0.603,
  // 0.545, 0.424, so a ratio of 0.5 keeps the first four (scaled by 2) and drops the fifth.
  const Tensor five = f32({5}, {1, 1, 1, 1, 1});
  auto trained = run("Dropout", {five, f32({}, {0.5f}), yes}, {Attribute::makeInt("seed", 0)}, {.outputs = 2});
  QCOMPARE(floatsOf(trained[0].tensor()), (std::vector<float>{2, 2, 2, 2, 0}));
  QCOMPARE(trained[1].tensor().toInt64s(), (Ints{1, 1, 1, 1, 0}));
  // Another seed, another mask; the same seed, the same one.
  const Tensor many = iota({64});
  const auto seeded = [&](int64_t seed) {
    return floatsOf(runOne("Dropout", {many, f32({}, {0.5f}), yes}, {Attribute::makeInt("seed", seed)}));
  };
  QCOMPARE(seeded(7), seeded(7));
  QVERIFY(seeded(7) != seeded(8));
  QCOMPARE(failureOf([&] { runOne("Dropout", {x, f32({}, {1.f}), yes}); }), kBadInput);
}

void EvalShape::shapeStartEndOnlyFromOpset15() {
  const Tensor x = iota({2, 3, 4});
  const std::vector<Attribute> a{Attribute::makeInt("start", 1), Attribute::makeInt("end", -1)};
  QCOMPARE(runOne("Shape", {x}, a, {.opset = 15}).toInt64s(), (Ints{3}));
  QCOMPARE(runOne("Shape", {x}, a, {.opset = 14}).toInt64s(), (Ints{2, 3, 4}));
  QCOMPARE(runOne("Shape", {x}, {Attribute::makeInt("start", -10)}, {.opset = 15}).toInt64s(), (Ints{2, 3, 4}));
  QCOMPARE(runOne("Size", {x}).toInt64s(), (Ints{24}));
}

void EvalShape::scatterReductionsByOpset() {
  const Tensor data = i64s({1, 2, 3});
  const Tensor idx = i64s({0, 0, 2});
  const Tensor upd = i64s({10, 20, 1});
  const Attribute mul = Attribute::makeString("reduction", "mul");
  const Attribute max = Attribute::makeString("reduction", "max");
  QCOMPARE(runOne("ScatterElements", {data, idx, upd}, {mul}, {.opset = 16}).toInt64s(), (Ints{200, 2, 3}));
  QCOMPARE(runOne("ScatterElements", {data, idx, upd}, {max}, {.opset = 18}).toInt64s(), (Ints{20, 2, 3}));
  QCOMPARE(failureOf([&] { runOne("ScatterElements", {data, idx, upd}, {max}, {.opset = 16}); }), kBadInput);
  // Repeated indices without a reduction: the last update stays.
  QCOMPARE(runOne("ScatterElements", {data, idx, upd}, {}, {.opset = 13}).toInt64s(), (Ints{20, 2, 1}));
  // ScatterND adds whole rows; float16 combines through float.
  Tensor half = Tensor::empty(DataType::Float16, {2, 2});
  const uint16_t one = 0x3c00, two = 0x4000, three = 0x4200;
  for (int k = 0; k < 4; ++k) half.mutableData<uint16_t>()[k] = one;
  Tensor updHalf = Tensor::empty(DataType::Float16, {1, 2});
  updHalf.mutableData<uint16_t>()[0] = two;
  updHalf.mutableData<uint16_t>()[1] = two;
  Tensor sum = runOne("ScatterND", {half, i64({1, 1}, {1}), updHalf}, {Attribute::makeString("reduction", "add")},
                      {.opset = 16});
  QCOMPARE(sum.dtype(), DataType::Float16);
  QCOMPARE((std::vector<uint16_t>(sum.data<uint16_t>(), sum.data<uint16_t>() + 4)),
           (std::vector<uint16_t>{one, one, three, three}));
}

void EvalShape::int64ValuesStayExact() {
  const int64_t big = (int64_t{1} << 60) + 1;  // not a double
  const Tensor v = i64s({big, big + 2, -big});
  QCOMPARE(runOne("Gather", {v, i64s({2, 0})}).toInt64s(), (Ints{-big, big}));
  QCOMPARE(runOne("Concat", {v, i64s({big + 4})}, {Attribute::makeInt("axis", 0)}).toInt64s(),
           (Ints{big, big + 2, -big, big + 4}));
  QCOMPARE(runOne("Range", {i64({}, {big}), i64({}, {big + 7}), i64({}, {3})}, {}, {.opset = 11}).toInt64s(),
           (Ints{big, big + 3, big + 6}));
  // The whole int64 range in two steps, where limit - start overflows int64.
  QCOMPARE(
      runOne("Range", {i64({}, {INT64_MIN}), i64({}, {INT64_MAX}), i64({}, {INT64_MAX})}, {}, {.opset = 11}).toInt64s(),
      (Ints{INT64_MIN, -1, INT64_MAX - 1}));
  ir::Tensor value;
  value.dtype = DataType::Int64;
  value.dims = {1};
  value.setBytes(std::string(reinterpret_cast<const char*>(&big), 8));
  QCOMPARE(runOne("ConstantOfShape", {i64s({2})}, {Attribute::makeTensor("value", value)}, {.opset = 9}).toInt64s(),
           (Ints{big, big}));
  QCOMPARE(runOne("Expand", {i64s({big}), i64s({2, 1})}, {}, {.opset = 8}).toInt64s(), (Ints{big, big}));
}

void EvalShape::halfTypesAndStringsMoveAsTheyAre() {
  // A float16 NaN with a payload and a negative zero come through Transpose bit for bit.
  Tensor h = Tensor::empty(DataType::Float16, {2, 2});
  const uint16_t bits[4] = {0x7e01, 0x8000, 0x3c00, 0xfbff};
  std::memcpy(h.mutableData<uint16_t>(), bits, 8);
  Tensor t = runOne("Transpose", {h});
  QCOMPARE(t.dtype(), DataType::Float16);
  QCOMPARE((std::vector<uint16_t>(t.data<uint16_t>(), t.data<uint16_t>() + 4)),
           (std::vector<uint16_t>{0x7e01, 0x3c00, 0x8000, 0xfbff}));
  const Tensor s = Tensor::strings({2, 2}, {"a", "b", "c", "d"});
  QCOMPARE(runOne("Transpose", {s}).stringValues(), (std::vector<std::string>{"a", "c", "b", "d"}));
  QCOMPARE(runOne("Gather", {s, i64s({1})}, {Attribute::makeInt("axis", 1)}).stringValues(),
           (std::vector<std::string>{"b", "d"}));
  QCOMPARE(runOne("Pad", {s, i64s({0, 1, 0, 0})}, {}, {.opset = 13}).stringValues(),
           (std::vector<std::string>{"", "a", "b", "", "c", "d"}));
  QCOMPARE(runOne("Concat", {s, s}, {Attribute::makeInt("axis", 0)}).stringValues().size(), size_t{8});
  QCOMPARE(runOne("GatherElements", {s, i64({2, 2}, {1, 0, 0, -2})}, {Attribute::makeInt("axis", 1)}).stringValues(),
           (std::vector<std::string>{"b", "a", "c", "c"}));
  const Tensor g = runOne("GatherElements", {h, i64({1, 2}, {1, 0})});
  QCOMPARE((std::vector<uint16_t>(g.data<uint16_t>(), g.data<uint16_t>() + 2)),
           (std::vector<uint16_t>{0x3c00, 0x8000}));
}

void EvalShape::packedTypesMoveAsCodesWhereOnnxAllowsThem() {
  ir::Tensor packed;
  packed.name = "w";
  packed.dtype = DataType::Int4;
  packed.dims = {2, 2};
  packed.setBytes(std::string("\x21\x43", 2));  // [[1, 2], [3, 4]], element 0 in the low nibble
  const Tensor w = Tensor::fromModel(packed);
  auto bytesOf = [](const Tensor& t) {
    std::vector<int> v;
    for (std::byte b : t.bytes()) v.push_back(static_cast<int>(b));
    return v;
  };
  // Views share the packed bytes.
  QCOMPARE(runOne("Reshape", {w, i64s({4})}, {}, {.opset = 21}).dims(), (Dims{4}));
  QCOMPARE(runOne("Identity", {w}, {}, {.opset = 21}).int64At(3), int64_t{4});
  // Transpose, Pad and ConstantOfShape (the moving ops ONNX allows int4 in) repack: [[1, 3], [2, 4]].
  const Tensor t = runOne("Transpose", {w}, {}, {.opset = 21});
  QCOMPARE(t.dtype(), DataType::Int4);
  QCOMPARE(bytesOf(t), (std::vector<int>{0x31, 0x42}));
  const Tensor p = runOne("Pad", {w, i64s({0, 1, 0, 0})}, {}, {.opset = 21});  // [[0, 1, 2], [0, 3, 4]]
  QCOMPARE(bytesOf(p), (std::vector<int>{0x10, 0x02, 0x43}));
  ir::Tensor seven;
  seven.dtype = DataType::Int4;
  seven.dims = {1};
  seven.setBytes(std::string("\x07", 1));
  const Tensor c = runOne("ConstantOfShape", {i64s({3})}, {Attribute::makeTensor("value", seven)}, {.opset = 21});
  QCOMPARE(bytesOf(c), (std::vector<int>{0x77, 0x07}));  // the padding nibble stays 0
  // Ops ONNX does not define on them refuse them in one line.
  QCOMPARE(failureOf([&] { runOne("Gather", {w, i64s({0})}, {}, {.opset = 21}); }), kUnsupported);
}

void EvalShape::emptyTensors() {
  const Tensor none = Tensor::empty(DataType::Float, {0, 3});
  const Tensor some = iota({2, 3});
  QCOMPARE(floatsOf(runOne("Concat", {none, some}, {Attribute::makeInt("axis", 0)})),
           (std::vector<float>{0, 1, 2, 3, 4, 5}));
  QCOMPARE(runOne("Slice", {some, i64s({2}), i64s({1}), i64s({1})}).dims(), (Dims{2, 0}));
  QCOMPARE(runOne("Gather", {some, Tensor::empty(DataType::Int64, {0})}).dims(), (Dims{0, 3}));
  QCOMPARE(runOne("NonZero", {f32({3}, {0, -0.f, 0})}).dims(), (Dims{1, 0}));
  QCOMPARE(runOne("Pad", {none, i64s({1, 0, 0, 0})}, {}, {.opset = 13}).dims(), (Dims{1, 3}));
  QCOMPARE(runOne("Transpose", {none}).dims(), (Dims{3, 0}));
  // An empty result of huge dims is made at once, not walked row by row.
  QCOMPARE(runOne("Expand", {none, i64s({int64_t{1} << 40, 1, 3})}, {}, {.opset = 8}).dims(),
           (Dims{int64_t{1} << 40, 0, 3}));
  QCOMPARE(runOne("Range", {f32({}, {5}), f32({}, {1}), f32({}, {1})}, {}, {.opset = 11}).dims(), (Dims{0}));
}

void EvalShape::badInputsAreRunErrors() {
  const Tensor x = iota({2, 3});
  const QString bad = kBadInput;
  QCOMPARE(failureOf([&] { runOne("Gather", {x, i64s({2})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Gather", {x, i64s({-3})}); }), bad);
  QCOMPARE(failureOf([&] {
             runOne("GatherElements", {x, i64({2, 1}, {0, 3})}, {Attribute::makeInt("axis", 1)});
           }),
           bad);
  QCOMPARE(failureOf([&] { runOne("GatherND", {x, i64({1, 2}, {0, 3})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("ScatterND", {x, i64({1, 1}, {5}), f32({1, 3}, {1, 2, 3})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Reshape", {x, i64s({4, -1})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Reshape", {x, i64s({-1, -1})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Slice", {x, i64s({0}), i64s({1}), i64s({0}), i64s({0})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Expand", {x, i64s({4, 3})}, {}, {.opset = 8}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Transpose", {x}, {Attribute::makeInts("perm", {0, 0})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Concat", {x, iota({2, 2})}, {Attribute::makeInt("axis", 0)}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Squeeze", {x, i64s({0})}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Range", {i64({}, {0}), i64({}, {5}), i64({}, {0})}, {}, {.opset = 11}); }), bad);
  // A condition longer than the axis is fine while it selects nothing beyond it.
  QCOMPARE(runOne("Compress", {x, Tensor::zeros(DataType::Bool, {4})}, {}, {.opset = 11}).dims(), (Dims{0}));
  Tensor beyond = Tensor::zeros(DataType::Bool, {4});
  beyond.mutableData<bool>()[3] = true;
  QCOMPARE(failureOf([&] { runOne("Compress", {x, beyond}, {Attribute::makeInt("axis", 1)}); }), bad);
  QCOMPARE(failureOf([&] { runOne("DepthToSpace", {iota({1, 3, 1, 1})}, {Attribute::makeInt("blocksize", 2)}); }), bad);
  QCOMPARE(failureOf([&] { runOne("ReverseSequence", {x, i64s({3, 1, 1})}, {}, {.opset = 10}); }), bad);
  QCOMPARE(failureOf([&] { runOne("Tile", {x, i64s({2})}); }), bad);
}

void EvalShape::sizesFromDataAreRefusedBeforeAllocation() {
  const Options small{.opset = 13, .maxLiveBytes = 64u << 20};
  const QString bad = kBadInput;
  const auto started = std::chrono::steady_clock::now();
  QCOMPARE(failureOf([&] { runOne("ConstantOfShape", {i64s({1 << 20, 1 << 20, 1 << 20})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] { runOne("ConstantOfShape", {i64s({INT64_MAX, 2})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] {
             runOne("Range", {i64({}, {0}), i64({}, {int64_t{1} << 50}), i64({}, {1})}, {},
                    {.opset = 11, .maxLiveBytes = 64u << 20});
           }),
           bad);
  QCOMPARE(failureOf([&] { runOne("Tile", {iota({2, 2}), i64s({int64_t{1} << 40, 1})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] { runOne("Tile", {iota({2, 2}), i64s({INT64_MAX, 3})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] { runOne("Expand", {iota({1}), i64s({int64_t{1} << 30, 1 << 30})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] { runOne("Pad", {iota({2}), i64s({0, int64_t{1} << 40})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] { runOne("Pad", {iota({2}), i64s({INT64_MAX, INT64_MAX})}, {}, small); }), bad);
  QCOMPARE(failureOf([&] {
             runOne("OneHot", {i64s({1}), i64({}, {int64_t{1} << 40}), f32({2}, {0, 1})}, {}, small);
           }),
           bad);
  // Strings too: their slots are charged before the vector of them is made.
  ir::Tensor word;
  word.dtype = DataType::String;
  word.dims = {1};
  word.strings.push_back("w");
  QCOMPARE(failureOf([&] {
             runOne("ConstantOfShape", {i64s({1 << 22})}, {Attribute::makeTensor("value", word)},
                    {.opset = 9, .maxLiveBytes = 64u << 20});
           }),
           bad);
  QCOMPARE(failureOf([&] { runOne("Tile", {Tensor::strings({1}, {"w"}), i64s({1 << 22})}, {}, small); }), bad);
  // Refused by arithmetic, not by trying: well under a second.
  QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

void EvalShape::resultsDoNotDependOnThreads() {
  const Tensor x = iota({8, 64, 33, 17});
  const std::vector<Attribute> perm{Attribute::makeInts("perm", {2, 0, 3, 1})};
  const Tensor one = runOne("Transpose", {x}, perm, {.threads = 1});
  const Tensor four = runOne("Transpose", {x}, perm, {.threads = 4});
  QCOMPARE(floatsOf(one), floatsOf(four));
  // Spot-check an element against the definition: out[a,b,c,d] = x[b,d,a,c].
  const int64_t a = 5, b = 3, c = 11, d = 40;
  QCOMPARE(one.data<float>()[((a * 8 + b) * 17 + c) * 64 + d], static_cast<float>(((b * 64 + d) * 33 + a) * 17 + c));
  const Tensor s1 = runOne("Slice", {x, i64s({-1, 1}), i64s({0, 60}), i64s({1, 3}), i64s({-3, 2})}, {}, {.threads = 1});
  const Tensor s4 = runOne("Slice", {x, i64s({-1, 1}), i64s({0, 60}), i64s({1, 3}), i64s({-3, 2})}, {}, {.threads = 4});
  QCOMPARE(s1.dims(), (Dims{8, 21, 33, 8}));
  QCOMPARE(floatsOf(s1), floatsOf(s4));
}

// Transpose, Slice and Gather go through tiles, folded short runs, typed rows or string copies depending on the
// dims, the element size and the strides: random cases of each against the definition, one element at a time.
void EvalShape::stridedMovesMatchAnIndexByIndexReference() {
  uint64_t seed = 12345;
  auto next = [&seed](int64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(n));
  };
  const std::vector<DataType> types{DataType::Float, DataType::Float16, DataType::Int64,
                                    DataType::Bool,  DataType::Int8,    DataType::String};
  for (int round = 0; round < 120; ++round) {
    const DataType t = types[round % types.size()];
    const int64_t rank = 1 + next(5);
    Dims dims(rank);
    // Some long axes (for the tiled paths) but at most ~60k elements.
    int64_t size = 1;
    for (int64_t& d : dims) {
      d = 1 + next(round % 3 == 0 && size < 1000 ? 60 : 6);
      size *= d;
    }
    // Element k holds k (modulo what the type holds), so a misplaced element shows.
    Tensor x = Tensor::empty(t, dims);
    std::vector<std::string> strs;
    for (int64_t k = 0; k < x.size(); ++k) {
      if (t == DataType::String)
        strs.push_back(std::to_string(k));
      else if (t == DataType::Float)
        x.mutableData<float>()[k] = static_cast<float>(k);
      else if (t == DataType::Float16)
        x.mutableData<uint16_t>()[k] = static_cast<uint16_t>(k);
      else if (t == DataType::Int64)
        x.mutableData<int64_t>()[k] = k;
      else
        x.mutableData<uint8_t>()[k] = static_cast<uint8_t>(t == DataType::Bool ? k % 2 : k);
    }
    if (t == DataType::String) x = Tensor::strings(dims, strs);
    auto same = [&](const Tensor& got, int64_t k, int64_t from) {
      if (t == DataType::String) return got.stringValues()[k] == x.stringValues()[from];
      const size_t es = ir::elementSize(t);
      return std::memcmp(got.bytes().data() + k * es, x.bytes().data() + from * es, es) == 0;
    };
    const int threads = 1 + round % 3;
    // Transpose by a random permutation.
    Ints perm(rank);
    for (int64_t k = 0; k < rank; ++k) perm[k] = k;
    for (int64_t k = rank - 1; k > 0; --k) std::swap(perm[k], perm[next(k + 1)]);
    const Tensor tr = runOne("Transpose", {x}, {Attribute::makeInts("perm", perm)}, {.threads = threads});
    Ints inStrides(rank, 1);
    for (int64_t k = rank - 1; k > 0; --k) inStrides[k - 1] = inStrides[k] * dims[k];
    for (int64_t k = 0; k < tr.size(); ++k) {
      int64_t rest = k, from = 0;
      for (int64_t d = rank; d-- > 0;) {
        from += (rest % tr.dim(d)) * inStrides[perm[d]];
        rest /= tr.dim(d);
      }
      if (!same(tr, k, from)) QFAIL(qPrintable(QString("Transpose round %1 element %2").arg(round).arg(k)));
    }
    // Slice every axis with a random start and a step of -3..3.
    Ints starts(rank), ends(rank), axes(rank), steps(rank);
    for (int64_t d = 0; d < rank; ++d) {
      axes[d] = d;
      steps[d] = next(2) ? 1 + next(3) : -1 - next(3);
      starts[d] = next(dims[d]);
      ends[d] = steps[d] > 0 ? dims[d] : -dims[d] - 1;
    }
    const Tensor sl = runOne("Slice", {x, i64s(starts), i64s(ends), i64s(axes), i64s(steps)}, {}, {.threads = threads});
    for (int64_t k = 0; k < sl.size(); ++k) {
      int64_t rest = k, from = 0;
      for (int64_t d = rank; d-- > 0;) {
        from += (starts[d] + (rest % sl.dim(d)) * steps[d]) * inStrides[d];
        rest /= sl.dim(d);
      }
      if (!same(sl, k, from)) QFAIL(qPrintable(QString("Slice round %1 element %2").arg(round).arg(k)));
    }
    // Gather along a random axis by random indices, negative ones included.
    const int64_t axis = next(rank), count = 1 + next(5);
    Ints picks(count);
    for (int64_t& p : picks) p = next(2 * dims[axis]) - dims[axis];
    const Tensor ga =
        runOne("Gather", {x, i64s(picks)}, {Attribute::makeInt("axis", axis - rank)}, {.threads = threads});
    for (int64_t k = 0; k < ga.size(); ++k) {
      int64_t rest = k, from = 0;
      for (int64_t d = rank; d-- > 0;) {
        const int64_t i = rest % ga.dim(d);
        rest /= ga.dim(d);
        from += (d == axis ? (picks[i] + dims[axis]) % dims[axis] : i) * inStrides[d];
      }
      if (!same(ga, k, from)) QFAIL(qPrintable(QString("Gather round %1 element %2").arg(round).arg(k)));
    }
  }
}

void EvalShape::col2ImSumsOverlapsAndCenterCropPadCentres() {
  // Image 1x3, blocks 1x2 at two places: the middle pixel is the sum of two columns.
  const Tensor cols = f32({1, 2, 2}, {1, 2, 10, 20});
  Tensor img = runOne("Col2Im", {cols, i64s({1, 3}), i64s({1, 2})}, {}, {.opset = 18});
  QCOMPARE(img.dims(), (Dims{1, 1, 1, 3}));
  QCOMPARE(floatsOf(img), (std::vector<float>{1, 12, 20}));
  // 5 -> 2 crops from (5 - 2) / 2 = 1; 1 -> 4 pads (4 - 1) / 2 = 1 in front, 2 behind.
  const Tensor x = iota({5, 1});
  Tensor c = runOne("CenterCropPad", {x, i64s({2, 4})}, {}, {.opset = 18});
  QCOMPARE(c.dims(), (Dims{2, 4}));
  QCOMPARE(floatsOf(c), (std::vector<float>{0, 1, 0, 0, 0, 2, 0, 0}));
}

void EvalShape::constantForms() {
  // EyeLike's diagonal k, off the matrix at either extreme, and its dtype.
  const Tensor m = iota({2, 3});
  QCOMPARE(runOne("EyeLike", {m}, {Attribute::makeInt("k", 1)}, {.opset = 9}).toInt64s(), (Ints{0, 1, 0, 0, 0, 1}));
  QCOMPARE(runOne("EyeLike", {m}, {Attribute::makeInt("k", INT64_MIN)}, {.opset = 9}).toInt64s(), (Ints(6, 0)));
  QCOMPARE(runOne("EyeLike", {m}, {Attribute::makeInt("k", INT64_MAX)}, {.opset = 9}).toInt64s(), (Ints(6, 0)));
  const Tensor eyeInt = runOne("EyeLike", {m}, {Attribute::makeInt("dtype", 7)}, {.opset = 9});
  QCOMPARE(eyeInt.dtype(), DataType::Int64);
  QCOMPARE(eyeInt.toInt64s(), (Ints{1, 0, 0, 0, 1, 0}));
  QCOMPARE(runOne("Constant", {}, {Attribute::makeInt("value_int", 7)}, {.opset = 12}).toInt64s(), (Ints{7}));
  QCOMPARE(runOne("Constant", {}, {Attribute::makeInts("value_ints", {1, 2})}, {.opset = 12}).dims(), (Dims{2}));
  QCOMPARE(floatsOf(runOne("Constant", {}, {Attribute::makeFloats("value_floats", {0.5f})}, {.opset = 12})),
           (std::vector<float>{0.5f}));
  Attribute strs;
  strs.name = "value_strings";
  strs.type = ir::AttrType::Strings;
  strs.strings.push_back("x");
  strs.strings.push_back("y");
  QCOMPARE(runOne("Constant", {}, {strs}, {.opset = 12}).stringValues(), (std::vector<std::string>{"x", "y"}));
  Attribute sparse;
  sparse.name = "sparse_value";
  sparse.type = ir::AttrType::SparseTensor;
  ir::SparseTensor st;
  st.dims = {2, 3};
  st.values.dtype = DataType::Int64;
  st.values.dims = {2};
  const int64_t vals[2] = {5, 6}, idx[2] = {1, 5};
  st.values.setBytes(std::string(reinterpret_cast<const char*>(vals), 16));
  st.indices.dtype = DataType::Int64;
  st.indices.dims = {2};
  st.indices.setBytes(std::string(reinterpret_cast<const char*>(idx), 16));
  sparse.sparseTensors.push_back(st);
  QCOMPARE(runOne("Constant", {}, {sparse}, {.opset = 11}).toInt64s(), (Ints{0, 5, 0, 0, 0, 6}));
}

QTEST_GUILESS_MAIN(EvalShape)
#include "test_eval_shape.moc"
