// The evaluator's kernels as constant folding uses them (eval::evaluateNode), against results worked out by hand from
// the ONNX operator docs, including the opset-dependent forms (axes as attribute or input, Slice before opset 10),
// and the refusals of hostile operands and of results over the folding budget.
#include <QtTest>

#include <chrono>
#include <limits>
#include <string>

#include "eval/eval_budget.h"
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"
#include "ir/graph.h"
#include "ir/node.h"

using namespace fb;
using ir::Attribute;
using ir::DataType;

namespace {

// The test's view of a tensor: dims, and values as doubles (floating types) or int64s (the others).
struct Array {
  DataType dtype = DataType::Float;
  std::vector<int64_t> dims;
  std::vector<double> f;
  std::vector<int64_t> i;

  bool isFloat() const { return ir::isFloatingPoint(dtype); }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
  double getD(size_t k) const { return isFloat() ? f[k] : static_cast<double>(i[k]); }

  static Array ints(std::vector<int64_t> dims, std::vector<int64_t> v, DataType t = DataType::Int64) {
    return {t, std::move(dims), {}, std::move(v)};
  }
  static Array floats(std::vector<int64_t> dims, std::vector<double> v, DataType t = DataType::Float) {
    return {t, std::move(dims), std::move(v), {}};
  }
  static Array of(const eval::Tensor& t) {
    Array a;
    a.dtype = t.dtype();
    a.dims = t.dims();
    if (a.isFloat())
      a.f = t.toDoubles();
    else
      a.i = t.toInt64s();
    return a;
  }
  static Array fromTensor(const ir::Tensor& t) { return of(eval::Tensor::fromModel(t)); }
  eval::Tensor tensor() const {
    if (!isFloat()) return eval::castTensor(eval::Tensor::int64s(dims, i), dtype);
    eval::Tensor d = eval::Tensor::empty(DataType::Double, dims);
    std::copy(f.begin(), f.end(), d.mutableData<double>());
    return eval::castTensor(d, dtype);
  }
  ir::Tensor toTensor(const std::string& name) const { return tensor().toModel(name); }
};

std::vector<Array> evalNode(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  std::vector<eval::Tensor> tensors;
  tensors.reserve(ins.size());
  std::vector<const eval::Tensor*> ptrs;
  for (const Array* a : ins) {
    if (!a) {
      ptrs.push_back(nullptr);
      continue;
    }
    tensors.push_back(a->tensor());
    ptrs.push_back(&tensors.back());
  }
  std::vector<Array> out;
  for (const eval::Tensor& t : eval::evaluateNode(n, ptrs, opset)) out.push_back(Array::of(t));
  return out;
}

std::vector<Array> run(const std::string& op, const std::vector<const Array*>& ins, std::vector<Attribute> attrs = {},
                       int64_t opset = 13) {
  ir::Node n;
  n.opType = op;
  n.attributes = std::move(attrs);
  return evalNode(n, ins, opset);
}

Array i64(std::vector<int64_t> dims, std::vector<int64_t> v, DataType t = DataType::Int64) {
  return Array::ints(std::move(dims), std::move(v), t);
}
Array f32(std::vector<int64_t> dims, std::vector<double> v, DataType t = DataType::Float) {
  return Array::floats(std::move(dims), std::move(v), t);
}

}  // namespace

class EvalKernels : public QObject {
  Q_OBJECT
 private slots:
  void gatherAxisAndNegativeIndex();
  void sliceOpsetForms();
  void squeezeUnsqueezeOpsetForms();
  void reshapeZeroAndMinusOne();
  void concatAndShape();
  void castTruncatesAndRounds();
  void rangeWhereEqualExpand();
  void constantOfShapeAndReduceProd();
  void broadcastingArithmetic();
  void transposeAndTensorRoundTrip();
  void unsupportedIsReported();
  void scatterAndGatherByIndexTensors();
  void tileSplitTriluCumSum();
  void averagePoolCountsPadsOnlyWhenAsked();
  void poolWindowsFromTheFileAreChecked();
  void broadcastsMatchAnIndexByIndexReference();
  void outputSizedBuffersAreChargedFirst();
  void hostileOperandsAreRefused();
};

void EvalKernels::gatherAxisAndNegativeIndex() {
  Array data = i64({2, 3}, {1, 2, 3, 4, 5, 6});
  Array idx = i64({2}, {-1, 0});
  auto r = run("Gather", {&data, &idx}, {Attribute::makeInt("axis", 1)})[0];
  QCOMPARE(r.dims, (std::vector<int64_t>{2, 2}));
  QCOMPARE(r.i, (std::vector<int64_t>{3, 1, 6, 4}));
  Array scalar = i64({}, {1});
  auto s = run("Gather", {&data, &scalar})[0];
  QCOMPARE(s.dims, (std::vector<int64_t>{3}));
  QCOMPARE(s.i, (std::vector<int64_t>{4, 5, 6}));
  Array bad = i64({}, {3});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Gather", {&data, &bad}));
}

void EvalKernels::sliceOpsetForms() {
  Array data = i64({5}, {0, 1, 2, 3, 4});
  Array st = i64({1}, {-1}), en = i64({1}, {INT64_MIN}), ax = i64({1}, {0}), step = i64({1}, {-2});
  auto r = run("Slice", {&data, &st, &en, &ax, &step})[0];  // reversed, every other element
  QCOMPARE(r.i, (std::vector<int64_t>{4, 2, 0}));
  Array st2 = i64({1}, {1}), en2 = i64({1}, {1000});  // clamped end
  QCOMPARE(run("Slice", {&data, &st2, &en2})[0].i, (std::vector<int64_t>{1, 2, 3, 4}));
  auto old = run(
      "Slice", {&data},
      {Attribute::makeInts("starts", {1}), Attribute::makeInts("ends", {-1}), Attribute::makeInts("axes", {0})}, 9)[0];
  QCOMPARE(old.i, (std::vector<int64_t>{1, 2, 3}));
}

void EvalKernels::squeezeUnsqueezeOpsetForms() {
  Array x = f32({1, 3, 1}, {1, 2, 3});
  Array axes = i64({1}, {-1});
  QCOMPARE(run("Squeeze", {&x, &axes})[0].dims, (std::vector<int64_t>{1, 3}));
  QCOMPARE(run("Squeeze", {&x}, {Attribute::makeInts("axes", {0})}, 11)[0].dims, (std::vector<int64_t>{3, 1}));
  QCOMPARE(run("Squeeze", {&x})[0].dims, (std::vector<int64_t>{3}));  // no axes: every 1
  Array notOne = i64({1}, {1});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Squeeze", {&x, &notOne}));
  Array s = i64({}, {7});
  Array uax = i64({2}, {0, -1});
  QCOMPARE(run("Unsqueeze", {&s, &uax})[0].dims, (std::vector<int64_t>{1, 1}));
  QCOMPARE(run("Unsqueeze", {&x}, {Attribute::makeInts("axes", {1, 4})}, 11)[0].dims,
           (std::vector<int64_t>{1, 1, 3, 1, 1}));
}

void EvalKernels::reshapeZeroAndMinusOne() {
  Array x = f32({2, 3, 4}, std::vector<double>(24, 1.0));
  Array shape = i64({3}, {0, -1, 2});
  QCOMPARE(run("Reshape", {&x, &shape})[0].dims, (std::vector<int64_t>{2, 6, 2}));
  Array bad = i64({2}, {5, -1});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Reshape", {&x, &bad}));
  Array empty = f32({0, 3}, {});
  Array z = i64({2}, {3, 0});
  QCOMPARE(run("Reshape", {&empty, &z}, {Attribute::makeInt("allowzero", 1)}, 14)[0].dims,
           (std::vector<int64_t>{3, 0}));
}

void EvalKernels::concatAndShape() {
  Array a = i64({1, 2}, {1, 2}), b = i64({2, 2}, {3, 4, 5, 6});
  auto c = run("Concat", {&a, &b}, {Attribute::makeInt("axis", -2)})[0];
  QCOMPARE(c.dims, (std::vector<int64_t>{3, 2}));
  QCOMPARE(c.i, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  auto s = run("Shape", {&c}, {Attribute::makeInt("start", -1)}, 15)[0];
  QCOMPARE(s.i, (std::vector<int64_t>{2}));
}

void EvalKernels::castTruncatesAndRounds() {
  Array x = f32({4}, {-1.7, 2.9, 0.0, 16777217.0}, DataType::Double);
  auto i = run("Cast", {&x}, {Attribute::makeInt("to", int64_t(DataType::Int32))})[0];
  QCOMPARE(i.i, (std::vector<int64_t>{-1, 2, 0, 16777217}));
  auto f = run("Cast", {&x}, {Attribute::makeInt("to", int64_t(DataType::Float))})[0];
  QCOMPARE(f.f[3], 16777216.0);  // nearest float
  auto b = run("Cast", {&x}, {Attribute::makeInt("to", int64_t(DataType::Bool))})[0];
  QCOMPARE(b.i, (std::vector<int64_t>{1, 1, 0, 1}));
  Array big = i64({1}, {300});
  QCOMPARE(run("Cast", {&big}, {Attribute::makeInt("to", int64_t(DataType::UInt8))})[0].i, (std::vector<int64_t>{44}));
}

void EvalKernels::rangeWhereEqualExpand() {
  Array s = i64({}, {10}), l = i64({}, {1}), d = i64({}, {-3});
  QCOMPARE(run("Range", {&s, &l, &d})[0].i, (std::vector<int64_t>{10, 7, 4}));
  Array a = i64({3}, {1, 2, 3}), b = i64({1}, {2});
  auto eq = run("Equal", {&a, &b})[0];
  QCOMPARE(eq.dtype, DataType::Bool);
  QCOMPARE(eq.i, (std::vector<int64_t>{0, 1, 0}));
  Array minus = i64({1}, {-1});
  QCOMPARE(run("Where", {&eq, &minus, &a})[0].i, (std::vector<int64_t>{1, -1, 3}));
  Array shape = i64({2}, {2, 1});
  auto e = run("Expand", {&a, &shape})[0];
  QCOMPARE(e.dims, (std::vector<int64_t>{2, 3}));
  QCOMPARE(e.i, (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
}

void EvalKernels::constantOfShapeAndReduceProd() {
  Array shape = i64({2}, {2, 3});
  ir::Tensor seven = Array::ints({1}, {7}).toTensor("");
  auto c = run("ConstantOfShape", {&shape}, {Attribute::makeTensor("value", seven)})[0];
  QCOMPARE(c.dtype, DataType::Int64);
  QCOMPARE(c.i, (std::vector<int64_t>(6, 7)));
  auto zero = run("ConstantOfShape", {&shape})[0];
  QCOMPARE(zero.dtype, DataType::Float);
  Array x = i64({2, 3}, {1, 2, 3, 4, 5, 6});
  QCOMPARE(run("ReduceProd", {&x}, {Attribute::makeInts("axes", {1}), Attribute::makeInt("keepdims", 0)})[0].i,
           (std::vector<int64_t>{6, 120}));
  auto all = run("ReduceProd", {&x})[0];
  QCOMPARE(all.dims, (std::vector<int64_t>{1, 1}));
  QCOMPARE(all.i, (std::vector<int64_t>{720}));
  Array ax = i64({1}, {0});
  QCOMPARE(run("ReduceSum", {&x, &ax}, {Attribute::makeInt("keepdims", 0)})[0].i, (std::vector<int64_t>{5, 7, 9}));
}

void EvalKernels::broadcastingArithmetic() {
  Array a = f32({2, 1}, {1, 2}), b = f32({3}, {10, 20, 30});
  auto r = run("Add", {&a, &b})[0];
  QCOMPARE(r.dims, (std::vector<int64_t>{2, 3}));
  QCOMPARE(r.f, (std::vector<double>{11, 21, 31, 12, 22, 32}));
  Array n = i64({2}, {-7, 7}), d = i64({1}, {2});
  QCOMPARE(run("Div", {&n, &d})[0].i, (std::vector<int64_t>{-3, 3}));  // truncation, as runtimes do
  QCOMPARE(run("Mod", {&n, &d})[0].i, (std::vector<int64_t>{1, 1}));   // sign of the divisor
  Array third = f32({1}, {1.0 / 3.0});
  // float math is done in float, as a float32 runtime's is
  const float thirdF = static_cast<float>(1.0 / 3.0);
  QCOMPARE(run("Mul", {&third, &third})[0].f[0], double(thirdF * thirdF));
  Array c = f32({3}, {1}), e = f32({2}, {1});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Add", {&c, &e}));
}

void EvalKernels::transposeAndTensorRoundTrip() {
  Array x = i64({2, 3}, {1, 2, 3, 4, 5, 6}, DataType::Int32);
  auto t = run("Transpose", {&x}, {Attribute::makeInts("perm", {1, 0})})[0];
  QCOMPARE(t.dims, (std::vector<int64_t>{3, 2}));
  QCOMPARE(t.i, (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  ir::Tensor tensor = t.toTensor("t");
  QCOMPARE(tensor.dtype, DataType::Int32);
  QCOMPARE(tensor.bytes().size(), size_t(24));
  auto back = Array::fromTensor(tensor);
  QCOMPARE(back.i, t.i);
  QCOMPARE(back.dims, t.dims);
}

void EvalKernels::unsupportedIsReported() {
  Array x = f32({2}, {1, 2});
  ir::Node unknown;
  unknown.opType = "NoSuchOp";
  QVERIFY(!eval::canEvaluate(unknown, 13));
  QVERIFY_THROWS_EXCEPTION(eval::RunError, run("NoSuchOp", {&x}));
  ir::Node nms;
  nms.opType = "NonMaxSuppression";
  QVERIFY(eval::canEvaluate(nms, 11));
  QVERIFY(!eval::canEvaluate(nms, 9));  // since opset 10
  // float16 is read as it is stored: 0x3c00 is 1.0.
  ir::Tensor half;
  half.dtype = DataType::Float16;
  half.dims = {1};
  half.setBytes(std::string("\x00\x3c", 2));
  QCOMPARE(Array::fromTensor(half).f, (std::vector<double>{1.0}));
}

void EvalKernels::scatterAndGatherByIndexTensors() {
  // ScatterND, the operator docs' first example: indices [[4],[3],[1],[7]] into an 8-vector.
  Array data = i64({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  Array idx = i64({4, 1}, {4, 3, 1, 7});
  Array upd = i64({4}, {9, 10, 11, 12});
  QCOMPARE(run("ScatterND", {&data, &idx, &upd})[0].i, (std::vector<int64_t>{1, 11, 3, 10, 9, 6, 7, 12}));
  // Slices: a [2,2] float data with a whole row replaced, the index counting from the end.
  Array rows = f32({2, 2}, {1, 2, 3, 4});
  Array rowIdx = i64({1, 1}, {-1});
  Array rowUpd = f32({1, 2}, {7, 8});
  QCOMPARE(run("ScatterND", {&rows, &rowIdx, &rowUpd})[0].f, (std::vector<double>{1, 2, 7, 8}));
  QCOMPARE(run("ScatterND", {&rows, &rowIdx, &rowUpd}, {Attribute::makeString("reduction", "add")}, 16)[0].f,
           (std::vector<double>{1, 2, 10, 12}));
  // ScatterElements, the docs' axis=1 example: data [[1,2,3,4,5]], indices [[1,3]], updates [[1.1,2.1]].
  Array se = f32({1, 5}, {1, 2, 3, 4, 5});
  Array seIdx = i64({1, 2}, {1, 3});
  Array seUpd = f32({1, 2}, {1.1, 2.1});
  QCOMPARE(run("ScatterElements", {&se, &seIdx, &seUpd}, {Attribute::makeInt("axis", 1)})[0].f,
           (std::vector<double>{1, double(1.1f), 3, double(2.1f), 5}));  // float data stays float
  // GatherElements, the docs' example: [[1,2],[3,4]], indices [[0,0],[1,0]], axis 1 -> [[1,1],[4,3]].
  Array ge = i64({2, 2}, {1, 2, 3, 4});
  Array geIdx = i64({2, 2}, {0, 0, 1, 0});
  QCOMPARE(run("GatherElements", {&ge, &geIdx}, {Attribute::makeInt("axis", 1)})[0].i,
           (std::vector<int64_t>{1, 1, 4, 3}));
  // GatherND, the docs' examples: [[0,1],[2,3]] with [[0,0],[1,1]] -> [0,3]; with [[1],[0]] -> the rows swapped.
  Array gn = i64({2, 2}, {0, 1, 2, 3});
  Array gnIdx = i64({2, 2}, {0, 0, 1, 1});
  QCOMPARE(run("GatherND", {&gn, &gnIdx})[0].i, (std::vector<int64_t>{0, 3}));
  Array gnRows = i64({2, 1}, {1, 0});
  auto gr = run("GatherND", {&gn, &gnRows})[0];
  QCOMPARE(gr.dims, (std::vector<int64_t>{2, 2}));
  QCOMPARE(gr.i, (std::vector<int64_t>{2, 3, 0, 1}));
}

void EvalKernels::tileSplitTriluCumSum() {
  Array x = i64({2, 2}, {1, 2, 3, 4});
  Array reps = i64({2}, {1, 2});
  auto t = run("Tile", {&x, &reps})[0];
  QCOMPARE(t.dims, (std::vector<int64_t>{2, 4}));
  QCOMPARE(t.i, (std::vector<int64_t>{1, 2, 1, 2, 3, 4, 3, 4}));
  // Split: sizes as an input (13), as an attribute (11), equal parts, num_outputs with a smaller last part (18).
  // Its output count is its node's, so the nodes live in a graph.
  ir::Graph g;
  auto splitInto = [&](size_t outputs) -> ir::Node& {
    std::vector<ir::Value*> outs;
    for (size_t k = 0; k < outputs; ++k) outs.push_back(g.createUniqueValue("part"));
    return *g.addNode("Split", {}, outs);
  };
  Array six = i64({6}, {1, 2, 3, 4, 5, 6});
  Array sizes = i64({2}, {2, 4});
  ir::Node& split = splitInto(2);
  auto parts = evalNode(split, {&six, &sizes}, 13);
  QCOMPARE(parts.size(), size_t(2));
  QCOMPARE(parts[1].i, (std::vector<int64_t>{3, 4, 5, 6}));
  split.attributes = {Attribute::makeInts("split", {2, 4})};
  QCOMPARE(evalNode(split, {&six}, 11)[0].i, (std::vector<int64_t>{1, 2}));
  ir::Node& split3 = splitInto(3);
  QCOMPARE(evalNode(split3, {&six}, 13)[2].i, (std::vector<int64_t>{5, 6}));
  Array five = i64({5}, {1, 2, 3, 4, 5});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, evalNode(split3, {&five}, 13));  // 5 does not split in 3
  split3.attributes = {Attribute::makeInt("num_outputs", 3)};
  auto uneven = evalNode(split3, {&five}, 18);
  QCOMPARE(uneven[0].i, (std::vector<int64_t>{1, 2}));
  QCOMPARE(uneven[2].i, (std::vector<int64_t>{5}));
  // Trilu: upper with k=1, lower with k=0.
  Array m = i64({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Array one = i64({}, {1});
  QCOMPARE(run("Trilu", {&m, &one}, {}, 14)[0].i, (std::vector<int64_t>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  QCOMPARE(run("Trilu", {&m}, {Attribute::makeInt("upper", 0)}, 14)[0].i,
           (std::vector<int64_t>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
  // CumSum: plain, and exclusive + reverse, along axis 0 of an int64 vector.
  Array v = i64({4}, {1, 2, 3, 4});
  Array axis0 = i64({}, {0});
  QCOMPARE(run("CumSum", {&v, &axis0})[0].i, (std::vector<int64_t>{1, 3, 6, 10}));
  QCOMPARE(run("CumSum", {&v, &axis0}, {Attribute::makeInt("exclusive", 1), Attribute::makeInt("reverse", 1)})[0].i,
           (std::vector<int64_t>{9, 7, 4, 0}));
}

void EvalKernels::averagePoolCountsPadsOnlyWhenAsked() {
  // A 1x1x2x2 input, 2x2 windows, pads 1 all round, stride 2: each window holds one input element.
  Array x = f32({1, 1, 2, 2}, {4, 8, 12, 16});
  std::vector<Attribute> attrs = {Attribute::makeInts("kernel_shape", {2, 2}),
                                  Attribute::makeInts("pads", {1, 1, 1, 1}), Attribute::makeInts("strides", {2, 2})};
  auto excluded = run("AveragePool", {&x}, attrs)[0];
  QCOMPARE(excluded.dims, (std::vector<int64_t>{1, 1, 2, 2}));
  QCOMPARE(excluded.f, (std::vector<double>{4, 8, 12, 16}));
  attrs.push_back(Attribute::makeInt("count_include_pad", 1));
  QCOMPARE(run("AveragePool", {&x}, attrs)[0].f, (std::vector<double>{1, 2, 3, 4}));
}

void EvalKernels::poolWindowsFromTheFileAreChecked() {
  Array x = f32({1, 1, 2, 2}, {4, 8, 12, 16});
  const auto k = Attribute::makeInts("kernel_shape", {2, 2});
  QCOMPARE(run("MaxPool", {&x}, {k})[0].f, (std::vector<double>{16}));
  // Attributes a hostile file may hold: a short strides list (read past its end once), a zero stride (a division by
  // zero), a window larger than the padded input (negative output dims).
  for (const char* op : {"MaxPool", "AveragePool"}) {
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run(op, {&x}, {k, Attribute::makeInts("strides", {1})}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run(op, {&x}, {k, Attribute::makeInts("strides", {0, 1})}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run(op, {&x}, {Attribute::makeInts("kernel_shape", {3, 3})}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run(op, {&x}, {k, Attribute::makeInts("pads", {-1, 0, 0, 0})}));
  }
}

namespace {

// The element of `a` (dims `in`) that broadcasts to the position `idx` of a result of rank idx.size(), by the ONNX
// rule worked out coordinate by coordinate: the reference the kernels' stride walk must agree with.
double broadcastElement(const Array& a, const std::vector<int64_t>& idx) {
  const size_t off = idx.size() - a.dims.size();
  int64_t flat = 0;
  for (size_t k = 0; k < a.dims.size(); ++k) flat = flat * a.dims[k] + (a.dims[k] == 1 ? 0 : idx[off + k]);
  return a.getD(static_cast<size_t>(flat));
}

// Every position of `dims` in row-major order.
std::vector<std::vector<int64_t>> positions(const std::vector<int64_t>& dims) {
  std::vector<std::vector<int64_t>> out{{}};
  for (int64_t d : dims) {
    std::vector<std::vector<int64_t>> next;
    for (const auto& p : out)
      for (int64_t k = 0; k < d; ++k) {
        next.push_back(p);
        next.back().push_back(k);
      }
    out = std::move(next);
  }
  return out;
}

Array counting(std::vector<int64_t> dims, double start) {
  int64_t n = 1;
  for (auto d : dims) n *= d;
  std::vector<double> v(static_cast<size_t>(n));
  for (size_t k = 0; k < v.size(); ++k) v[k] = start + double(k);
  return f32(std::move(dims), std::move(v), DataType::Double);
}

}  // namespace

void EvalKernels::broadcastsMatchAnIndexByIndexReference() {
  // Operands that broadcast along different axes, of different ranks, one of them a scalar.
  Array a = counting({2, 1, 3}, 1), b = counting({4, 1}, 100), s = counting({}, 1000);
  const std::vector<int64_t> out{2, 4, 3};
  auto sum = run("Add", {&a, &b})[0];
  QCOMPARE(sum.dims, out);
  auto cond = i64({4, 1}, {1, 0, 0, 1}, DataType::Bool);
  auto picked = run("Where", {&cond, &a, &s})[0];
  QCOMPARE(picked.dims, out);
  const auto all = positions(out);
  for (size_t e = 0; e < all.size(); ++e) {
    QCOMPARE(sum.f[e], broadcastElement(a, all[e]) + broadcastElement(b, all[e]));
    QCOMPARE(picked.f[e], broadcastElement(cond, all[e]) != 0 ? broadcastElement(a, all[e]) : 1000.0);
  }
  Array target = i64({3}, {3, 1, 1});
  auto expanded = run("Expand", {&b, &target})[0];
  QCOMPARE(expanded.dims, (std::vector<int64_t>{3, 4, 1}));
  const auto expandedAt = positions(expanded.dims);
  for (size_t e = 0; e < expandedAt.size(); ++e) QCOMPARE(expanded.f[e], broadcastElement(b, expandedAt[e]));
  // Batched MatMul whose batch dims broadcast both ways: [2, 1, 2, 3] x [3, 3, 1] -> [2, 3, 2, 1].
  Array x = counting({2, 1, 2, 3}, 0), w = counting({3, 3, 1}, 1);
  auto prod = run("MatMul", {&x, &w})[0];
  QCOMPARE(prod.dims, (std::vector<int64_t>{2, 3, 2, 1}));
  const auto prodAt = positions(prod.dims);
  for (size_t e = 0; e < prodAt.size(); ++e) {
    const auto& p = prodAt[e];
    double acc = 0;
    for (int64_t k = 0; k < 3; ++k) acc += x.f[size_t((p[0] * 2 + p[2]) * 3 + k)] * w.f[size_t(p[1] * 3 + k)];
    QCOMPARE(prod.f[e], acc);
  }
  // Reductions walk the input with the slot of the result each element lands in.
  Array axes = i64({2}, {0, 2});
  auto reduced = run("ReduceSum", {&a, &axes})[0];
  QCOMPARE(reduced.dims, (std::vector<int64_t>{1, 1, 1}));
  QCOMPARE(reduced.f, (std::vector<double>{21}));
  Array axis1 = i64({1}, {2});
  QCOMPARE(run("ReduceMax", {&sum, &axis1}, {Attribute::makeInt("keepdims", 0)}, 18)[0].f,
           (std::vector<double>{103, 104, 105, 106, 106, 107, 108, 109}));
  // Gemm's C broadcasts to A*B; one that does not is refused, not read past its end.
  Array ga = counting({2, 2}, 1), gb = counting({2, 2}, 1), row = counting({2}, 10), wrong = counting({3}, 10);
  QCOMPARE(run("Gemm", {&ga, &gb, &row})[0].f, (std::vector<double>{17, 21, 25, 33}));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Gemm", {&ga, &gb, &wrong}));
}

void EvalKernels::outputSizedBuffersAreChargedFirst() {
  // [16000, 1] against [1, 16000]: 256e6 elements. The result is charged before anything of its size exists, so
  // each refusal takes no time and no memory (index vectors of the result's size took 4 GB and 15 s before).
  eval::BudgetScope scope(eval::EvalBudget{});
  Array col = counting({16000, 1}, 0), row = counting({1, 16000}, 0);
  Array col4 = counting({16000, 1, 1, 1}, 0), row4 = counting({1, 16000, 1, 1}, 0);
  auto boolCol = i64({16000, 1}, std::vector<int64_t>(16000, 1), DataType::Bool);
  Array shape = i64({2}, {16000, 16000});
  const auto start = std::chrono::steady_clock::now();
  for (const auto& [op, ins] :
       std::vector<std::pair<std::string, std::vector<const Array*>>>{{"Add", {&col, &row}},
                                                                      {"Where", {&boolCol, &col, &row}},
                                                                      {"Expand", {&col, &shape}},
                                                                      {"MatMul", {&col4, &row4}},
                                                                      {"Tile", {&col, &shape}}}) {
    try {
      run(op, ins);
      QFAIL(qPrintable(QString::fromStdString(op) + " was evaluated"));
    } catch (const std::runtime_error& e) {
      QVERIFY2(std::string(e.what()).find("budget") != std::string::npos, e.what());
    }
  }
  QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  // A limit from outside the evaluation (what is left of the model's budget) stops smaller arrays too.
  eval::EvalBudget tight;
  tight.maxArrayElements = 100;
  eval::BudgetScope inner(tight);
  Array small = counting({10, 1}, 0), wide = counting({1, 11}, 0);
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Add", {&small, &wide}));
  QCOMPARE(run("Add", {&small, &small})[0].size(), size_t(10));
}

void EvalKernels::hostileOperandsAreRefused() {
  eval::BudgetScope scope(eval::EvalBudget{});
  Array x = counting({1, 1, 2, 2}, 1), w = counting({1, 1, 1, 1}, 1);
  // Conv: a zero stride divided by zero, a short list read past its end, pads overflowed int64.
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Conv", {&x, &w}, {Attribute::makeInts("strides", {0, 0})}));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Conv", {&x, &w}, {Attribute::makeInts("dilations", {1})}));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                           run("Conv", {&x, &w}, {Attribute::makeInts("pads", {INT64_MAX, 0, INT64_MAX, 0})}));
  QCOMPARE(run("Conv", {&x, &w})[0].f, x.f);
  // A pooling window of 2^20 x 2^20 over four outputs: 2^42 steps, over the operations budget.
  Array one = counting({1, 1, 1, 1}, 1);
  QVERIFY_THROWS_EXCEPTION(
      std::runtime_error,
      run("MaxPool", {&one},
          {Attribute::makeInts("kernel_shape", {1 << 20, 1 << 20}), Attribute::makeInts("strides", {1 << 20, 1 << 20}),
           Attribute::makeInts("pads", {1 << 20, 1 << 20, 1 << 20, 1 << 20})}));
  // Pads whose sum overflows; a Range whose length is NaN or beyond int64; a Slice step of INT64_MIN.
  Array two = counting({2}, 1), bigPads = i64({2}, {int64_t{1} << 62, int64_t{1} << 62});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Pad", {&two, &bigPads}));
  Array zero = f32({}, {0}), nan = f32({}, {std::numeric_limits<double>::quiet_NaN()}), huge = f32({}, {1e30}),
        step = f32({}, {1});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Range", {&zero, &nan, &step}));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Range", {&zero, &huge, &step}));
  Array minusInfinity = f32({}, {-std::numeric_limits<double>::infinity()});
  QCOMPARE(run("Range", {&zero, &minusInfinity, &step})[0].size(), size_t(0));
  Array st = i64({1}, {0}), en = i64({1}, {2}), ax = i64({1}, {0}), minStep = i64({1}, {INT64_MIN});
  QCOMPARE(run("Slice", {&two, &st, &en, &ax, &minStep})[0].size(), size_t(0));  // backwards from 0: nothing
  Array maxStep = i64({1}, {INT64_MAX});
  QCOMPARE(run("Slice", {&two, &st, &en, &ax, &maxStep})[0].f, (std::vector<double>{1}));
  // Operands with fewer elements than the op reads: an empty fill value, an empty Clip bound, BatchNormalization
  // parameters shorter than the channels.
  ir::Tensor empty = ir::Tensor::fromValues<float>("v", DataType::Float, {0}, std::vector<float>{});
  Array shape = i64({1}, {4});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                           run("ConstantOfShape", {&shape}, {Attribute::makeTensor("value", empty)}));
  Array none = f32({0}, {});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Clip", {&two, &none}));
  Array x3 = counting({1, 3, 1, 1}, 1), p1 = f32({1}, {1});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("BatchNormalization", {&x3, &p1, &p1, &p1, &p1}));
  // A perm that repeats an axis read past the data.
  Array matrix = counting({2, 3}, 0);
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("Transpose", {&matrix}, {Attribute::makeInts("perm", {0, 0})}));
  // Integer arithmetic wraps as a runtime's does; INT64_MIN / -1 and INT64_MIN % -1 trapped; a float beyond int64
  // converted was undefined.
  Array lowest = i64({1}, {INT64_MIN}), minusOne = i64({1}, {-1}), highest = i64({1}, {INT64_MAX}),
        plusOne = i64({1}, {1});
  QCOMPARE(run("Div", {&lowest, &minusOne})[0].i, (std::vector<int64_t>{INT64_MIN}));
  QCOMPARE(run("Mod", {&lowest, &minusOne})[0].i, (std::vector<int64_t>{0}));
  QCOMPARE(run("Add", {&highest, &plusOne})[0].i, (std::vector<int64_t>{INT64_MIN}));
  QCOMPARE(run("Neg", {&lowest})[0].i, (std::vector<int64_t>{INT64_MIN}));
  // Out of int64's range: ONNX leaves it undefined; the evaluator saturates instead of converting undefinedly.
  QCOMPARE(run("Cast", {&huge}, {Attribute::makeInt("to", int64_t(DataType::Int64))})[0].i,
           (std::vector<int64_t>{INT64_MAX}));
  Array floatShape = f32({1}, {1e30});
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, run("ConstantOfShape", {&floatShape}));
  // Softmax of an empty tensor is an empty tensor, not a division by zero.
  Array nothing = f32({2, 0}, {});
  QCOMPARE(run("Softmax", {&nothing}, {Attribute::makeInt("axis", 1)})[0].dims, (std::vector<int64_t>{2, 0}));
}

QTEST_GUILESS_MAIN(EvalKernels)
#include "test_eval_kernels.moc"
