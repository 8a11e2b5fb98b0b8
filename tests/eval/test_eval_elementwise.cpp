// The evaluator's elementwise kernels on what ONNX's node tests do not cover: the opset-versioned meanings (legacy
// broadcast, Clip's attributes, Cast-1's type names, variadic ops before opset 8), int64 exactness, bad inputs
// as RunError, empty tensors, broadcast edge cases, float16 rounding, and the narrow-type encodings (float8,
// float4, int4, float8e8m0) and quantization granularities that opsets 19-25 added. Expected values are worked
// out by hand from ONNX's operator docs and technical notes.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

#include "eval/runtime/half.h"
#include "eval/runtime/node_eval.h"
#include "eval/runtime/run.h"
#include "eval/runtime/run_error.h"
#include "eval/runtime/value_conversion.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "ir/packed_types.h"

using namespace fb;
using eval::RunError;
using eval::Tensor;
using ir::Attribute;
using ir::DataType;

namespace {

Tensor run1(const std::string& op, const std::vector<const Tensor*>& ins, std::vector<Attribute> attrs = {},
            int64_t opset = 17) {
  ir::Node n;
  n.opType = op;
  n.attributes = std::move(attrs);
  return eval::evaluateNode(n, ins, opset).at(0);
}

std::vector<Tensor> runAll(const std::string& op, const std::vector<const Tensor*>& ins,
                           std::vector<Attribute> attrs = {}, int64_t opset = 17) {
  ir::Node n;
  n.opType = op;
  n.attributes = std::move(attrs);
  return eval::evaluateNode(n, ins, opset);
}

// The kind of RunError the node throws; fails the test when it throws nothing.
RunError::Kind errorKind(const std::string& op, const std::vector<const Tensor*>& ins,
                         std::vector<Attribute> attrs = {}, int64_t opset = 17) {
  try {
    run1(op, ins, std::move(attrs), opset);
  } catch (const RunError& e) {
    return e.kind();
  }
  QTest::qFail("no RunError", __FILE__, __LINE__);
  return RunError::Kind::Cancelled;
}

Tensor f32(std::vector<int64_t> dims, const std::vector<float>& v) { return Tensor::floats(std::move(dims), v); }
Tensor i64(std::vector<int64_t> dims, const std::vector<int64_t>& v) { return Tensor::int64s(std::move(dims), v); }

template <typename T>
Tensor typed(DataType t, std::vector<int64_t> dims, const std::vector<T>& v) {
  Tensor r = Tensor::empty(t, std::move(dims));
  if (!v.empty()) std::memcpy(r.mutableData<T>(), v.data(), v.size() * sizeof(T));
  return r;
}

Tensor bools(std::vector<int64_t> dims, const std::vector<bool>& v) {
  Tensor r = Tensor::empty(DataType::Bool, std::move(dims));
  for (size_t k = 0; k < v.size(); ++k) r.mutableData<bool>()[k] = v[k];
  return r;
}

std::vector<double> values(const Tensor& t) { return t.toDoubles(); }

// Code k of a packed narrow tensor (8-bit types: byte k; 4-bit: nibble k).
uint32_t codeAt(const Tensor& t, int64_t k) {
  const size_t bits = ir::elementBits(t.dtype());
  const size_t bit = static_cast<size_t>(k) * bits;
  return (static_cast<uint32_t>(t.bytes()[bit / 8]) >> (bit % 8)) & ((1u << bits) - 1);
}

Tensor castTo(const Tensor& x, DataType to, int64_t opset = 21, std::vector<Attribute> extra = {}) {
  extra.push_back(Attribute::makeInt("to", static_cast<int64_t>(to)));
  return run1("Cast", {&x}, std::move(extra), opset);
}

// A model computing `op` of inputs "a" and "b" (declared without a type, so any tensor fits) into output "y".
std::unique_ptr<ir::Model> binaryModel(const std::string& op) {
  auto m = std::make_unique<ir::Model>();
  m->setOpsetVersion("", 17);
  ir::Graph& g = m->graph();
  ir::Value* a = g.getOrCreateValue("a");
  ir::Value* b = g.getOrCreateValue("b");
  g.addInput(a);
  g.addInput(b);
  ir::Value* y = g.getOrCreateValue("y");
  g.addNode(op, {a, b}, {y});
  g.addOutput(y);
  return m;
}

Tensor runWithThreads(const ir::Model& m, const Tensor& a, const Tensor& b, int threads) {
  eval::RunOptions o;
  o.threads = threads;
  auto r = eval::runModel(m, {{"a", eval::Value(a)}, {"b", eval::Value(b)}}, o);
  return r.outputs.at(0).second.tensor();
}

}  // namespace

class TestEvalElementwise : public QObject {
  Q_OBJECT
 private slots:
  void legacyBroadcastNeedsTheAttribute() {
    Tensor a = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    Tensor b = f32({3}, {100, 200, 300});
    // Opset 6, broadcast=1, axis=1: B lines up with A's dim 1.
    Tensor r = run1("Add", {&a, &b}, {Attribute::makeInt("broadcast", 1), Attribute::makeInt("axis", 1)}, 6);
    QCOMPARE(r.dims(), (std::vector<int64_t>{2, 3, 2}));
    QCOMPARE(values(r), (std::vector<double>{100, 101, 202, 203, 304, 305, 106, 107, 208, 209, 310, 311}));
    // Without broadcast=1 the shapes must agree before opset 7.
    QCOMPARE(errorKind("Add", {&a, &b}, {}, 6), RunError::Kind::BadInput);
    // From opset 7 numpy-style broadcasting lines B up with A's last dim, which is 2, not 3.
    QCOMPARE(errorKind("Add", {&a, &b}, {}, 7), RunError::Kind::BadInput);
    Tensor c = f32({2}, {10, 20});
    QCOMPARE(values(run1("Mul", {&a, &c}, {}, 7))[1], 20.0);
    // Legacy broadcast default axis: B's dims are A's trailing ones.
    Tensor r2 = run1("Sub", {&a, &c}, {Attribute::makeInt("broadcast", 1)}, 1);
    QCOMPARE(values(r2)[0], -10.0);
    QCOMPARE(values(r2)[1], -19.0);
  }

  void variadicOpsAgreeOnShapesBeforeOpset8() {
    Tensor a = f32({2}, {1, 5});
    Tensor b = f32({1}, {3});
    QCOMPARE(errorKind("Max", {&a, &b}, {}, 6), RunError::Kind::BadInput);
    QCOMPARE(values(run1("Max", {&a, &b}, {}, 8)), (std::vector<double>{3, 5}));
    const std::vector<double> mean = values(run1("Mean", {&a, &b, &b}, {}, 8));
    QCOMPARE(static_cast<float>(mean[0]), 7.0f / 3);
    QCOMPARE(static_cast<float>(mean[1]), 11.0f / 3);
    Tensor nan = f32({1}, {std::numeric_limits<float>::quiet_NaN()});
    QVERIFY(std::isnan(values(run1("Min", {&a, &nan}, {}, 13))[1]));  // NaN propagates, as numpy's minimum
  }

  void clipBoundsByOpset() {
    Tensor x = f32({4}, {-5, -1, 1, 5});
    // Clip-6: attributes.
    QCOMPARE(values(run1("Clip", {&x}, {Attribute::makeFloat("min", -2), Attribute::makeFloat("max", 2)}, 6)),
             (std::vector<double>{-2, -1, 1, 2}));
    // Clip-11: inputs, either may be omitted; attributes are no longer read.
    Tensor lo = Tensor::scalar(DataType::Float, 0);
    QCOMPARE(values(run1("Clip", {&x, &lo, nullptr}, {Attribute::makeFloat("max", 0)}, 11)),
             (std::vector<double>{0, 0, 1, 5}));
    // min > max: every value becomes max.
    Tensor hi = Tensor::scalar(DataType::Float, -3);
    QCOMPARE(values(run1("Clip", {&x, &lo, &hi}, {}, 13)), (std::vector<double>{-3, -3, -3, -3}));
    // Clip-12 takes integers, exactly.
    Tensor big = i64({2}, {INT64_MAX, INT64_MIN});
    Tensor cap = Tensor::scalar(DataType::Int64, 0);
    Tensor r = run1("Clip", {&big, nullptr, &cap}, {}, 12);
    QCOMPARE(r.toInt64s(), (std::vector<int64_t>{0, INT64_MIN}));
  }

  void castOneNamesTheTypeAsAString() {
    Tensor x = f32({2}, {1.9f, -1.9f});
    Tensor r = run1("Cast", {&x}, {Attribute::makeString("to", "INT32")}, 1);
    QCOMPARE(r.dtype(), DataType::Int32);
    QCOMPARE(r.toInt64s(), (std::vector<int64_t>{1, -1}));  // toward zero
    QCOMPARE(errorKind("Cast", {&x}, {Attribute::makeString("to", "NOT_A_TYPE")}, 1), RunError::Kind::BadInput);
  }

  void int64StaysExact() {
    const int64_t big = (int64_t{1} << 53) + 1;  // not representable in double
    Tensor a = i64({2}, {big, INT64_MAX});
    Tensor one = i64({}, {1});
    QCOMPARE(run1("Add", {&a, &one}).toInt64s(), (std::vector<int64_t>{big + 1, INT64_MIN}));  // wraps
    Tensor three = i64({}, {3}), e39 = i64({}, {39});
    QCOMPARE(run1("Pow", {&three, &e39}).toInt64s()[0], int64_t{4052555153018976267});
    Tensor minus1 = i64({}, {-1}), minVal = i64({}, {INT64_MIN});
    QCOMPARE(run1("Div", {&minVal, &minus1}).toInt64s()[0], INT64_MIN);  // no trap: wraps like numpy
    QCOMPARE(run1("Mul", {&a, &minus1}).toInt64s()[0], -big);
    Tensor s = castTo(a, DataType::String);
    QCOMPARE(s.stringValues()[0], std::string("9007199254740993"));
    Tensor back = castTo(s, DataType::Int64);
    QCOMPARE(back.toInt64s(), (std::vector<int64_t>{big, INT64_MAX}));
  }

  void integerModAndDivision() {
    Tensor x = typed<int32_t>(DataType::Int32, {4}, {7, -7, 7, -7});
    Tensor y = typed<int32_t>(DataType::Int32, {4}, {3, 3, -3, -3});
    QCOMPARE(run1("Mod", {&x, &y}).toInt64s(), (std::vector<int64_t>{1, 2, -2, -1}));  // sign of the divisor
    QCOMPARE(run1("Mod", {&x, &y}, {Attribute::makeInt("fmod", 1)}).toInt64s(),
             (std::vector<int64_t>{1, -1, 1, -1}));  // sign of the dividend
    QCOMPARE(run1("Div", {&x, &y}).toInt64s(), (std::vector<int64_t>{2, -2, -2, 2}));
    Tensor fx = f32({1}, {5.5f}), fy = f32({1}, {2});
    QCOMPARE(errorKind("Mod", {&fx, &fy}), RunError::Kind::BadInput);  // floats need fmod=1
  }

  void badInputsAreRunErrors() {
    Tensor x = typed<int32_t>(DataType::Int32, {2}, {1, 2});
    Tensor zero = typed<int32_t>(DataType::Int32, {1}, {0});
    QCOMPARE(errorKind("Div", {&x, &zero}), RunError::Kind::BadInput);
    QCOMPARE(errorKind("Mod", {&x, &zero}), RunError::Kind::BadInput);
    Tensor f = f32({2}, {1, 2});
    QCOMPARE(errorKind("Add", {&f, &x}), RunError::Kind::BadInput);        // mixed element types
    QCOMPARE(errorKind("Where", {&f, &f, &f}), RunError::Kind::BadInput);  // condition not bool
    Tensor wide = f32({2, 2}, {1, 2, 3, 4});
    QCOMPARE(errorKind("PRelu", {&f, &wide}), RunError::Kind::BadInput);  // slope must broadcast to X
    Tensor three = f32({3}, {1, 2, 3});
    QCOMPARE(errorKind("Add", {&f, &three}), RunError::Kind::BadInput);
    Tensor u = typed<uint8_t>(DataType::UInt8, {1}, {1});
    QCOMPARE(errorKind("BitShift", {&u, &u}, {Attribute::makeString("direction", "UP")}), RunError::Kind::BadInput);
    QCOMPARE(errorKind("Celu", {&f}, {Attribute::makeFloat("alpha", 0)}), RunError::Kind::BadInput);
    QCOMPARE(errorKind("Gelu", {&f}, {Attribute::makeString("approximate", "fast")}, 20), RunError::Kind::BadInput);
    Tensor b = bools({2}, {true, false});
    QCOMPARE(errorKind("Neg", {&b}), RunError::Kind::Unsupported);
    QCOMPARE(errorKind("Sqrt", {&x}), RunError::Kind::Unsupported);  // float types only
    Tensor text = Tensor::strings({1}, {"twelve"});
    QCOMPARE(errorKind("Cast", {&text}, {Attribute::makeInt("to", static_cast<int64_t>(DataType::Float))}),
             RunError::Kind::BadInput);
  }

  void emptyTensorsAndBroadcastEdges() {
    Tensor empty = f32({0, 3}, {});
    Tensor row = f32({1, 3}, {1, 2, 3});
    Tensor r = run1("Add", {&empty, &row});
    QCOMPARE(r.dims(), (std::vector<int64_t>{0, 3}));
    QCOMPARE(castTo(empty, DataType::String).dims(), (std::vector<int64_t>{0, 3}));
    QCOMPARE(castTo(empty, DataType::Float8E4M3FN, 19).dims(), (std::vector<int64_t>{0, 3}));
    Tensor col = f32({3, 1}, {10, 20, 30});
    Tensor outer = run1("Sub", {&col, &row});
    QCOMPARE(outer.dims(), (std::vector<int64_t>{3, 3}));
    QCOMPARE(values(outer), (std::vector<double>{9, 8, 7, 19, 18, 17, 29, 28, 27}));
    Tensor scalar = Tensor::scalar(DataType::Float, 2);
    QCOMPARE(run1("Pow", {&row, &scalar}).dims(), (std::vector<int64_t>{1, 3}));
    // Where over three different shapes, with strings.
    Tensor cond = bools({2, 1}, {true, false});
    Tensor xs = Tensor::strings({1, 2}, {"a", "b"});
    Tensor ys = Tensor::strings({}, {"z"});
    Tensor w = run1("Where", {&cond, &xs, &ys});
    QCOMPARE(w.dims(), (std::vector<int64_t>{2, 2}));
    QCOMPARE(w.stringValues(), (std::vector<std::string>{"a", "b", "z", "z"}));
    Tensor e = run1("Equal", {&xs, &ys}, {}, 19);
    QCOMPARE(e.dtype(), DataType::Bool);
  }

  void float16IsRoundedOncePerOp() {
    // 2048 + 3 = 2051 lies halfway between the float16 values 2050 and 2052: ties to even give 2052.
    Tensor a = eval::castTensor(f32({2}, {2048, 1}), DataType::Float16);
    Tensor b = eval::castTensor(f32({2}, {3, 0.000244140625f}), DataType::Float16);  // 2^-12
    Tensor r = run1("Add", {&a, &b});
    QCOMPARE(r.dtype(), DataType::Float16);
    QCOMPARE(values(r)[0], 2052.0);
    QCOMPARE(values(r)[1], 1.0);  // 2^-12 is less than half an ulp of 1 (half an ulp is 2^-11)
    // Cast float -> float16 and bfloat16 rounds to nearest even.
    Tensor tie = f32({2}, {1.0f + 0.00048828125f, 1.0f + 3 * 0.00048828125f});  // 1 + 2^-11, 1 + 3 * 2^-11
    QCOMPARE(values(castTo(tie, DataType::Float16)), (std::vector<double>{1.0, 1.0 + 4 * 0.00048828125}));
    QCOMPARE(eval::floatToBfloat16Bits(1.0f + 1.0f / 256), uint16_t{0x3f80});  // tie to even
    Tensor bf = castTo(f32({1}, {1.0f + 3.0f / 256}), DataType::BFloat16);
    QCOMPARE(values(bf)[0], 1.0 + 4.0 / 256);
    // Where keeps float16 bytes as they are.
    Tensor cond = bools({2}, {false, true});
    Tensor w = run1("Where", {&cond, &a, &b});
    QCOMPARE(w.dtype(), DataType::Float16);
    QCOMPARE(values(w)[0], 3.0);
  }

  void float8EncodingRoundsToEvenAndSaturates() {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Tensor x = f32({8}, {464, 470, inf, -inf, nan, 0.001953125f, 0.0009765625f, -0.0f});
    Tensor sat = castTo(x, DataType::Float8E4M3FN, 19);
    // 464 is halfway between 448 (mantissa 110) and 480 (111): even wins. 470 rounds to 480 > 448: saturates.
    QCOMPARE(codeAt(sat, 0), 0x7eu);
    QCOMPARE(codeAt(sat, 1), 0x7eu);
    QCOMPARE(codeAt(sat, 2), 0x7eu);
    QCOMPARE(codeAt(sat, 3), 0xfeu);
    QCOMPARE(codeAt(sat, 4) & 0x7fu, 0x7fu);
    QCOMPARE(codeAt(sat, 5), 0x01u);  // 2^-9, the smallest subnormal
    QCOMPARE(codeAt(sat, 6), 0x00u);  // 2^-10: halfway to 0, even wins
    QCOMPARE(codeAt(sat, 7), 0x80u);  // -0 keeps its sign
    Tensor noSat = castTo(x, DataType::Float8E4M3FN, 19, {Attribute::makeInt("saturate", 0)});
    QCOMPARE(codeAt(noSat, 0), 0x7eu);
    QCOMPARE(codeAt(noSat, 1), 0x7fu);  // NaN
    QCOMPARE(codeAt(noSat, 2), 0x7fu);
    // FNUZ: one zero, infinity is NaN (0x80) even when saturating.
    Tensor uz = castTo(x, DataType::Float8E4M3FNUZ, 19);
    QCOMPARE(codeAt(uz, 2), 0x80u);
    QCOMPARE(codeAt(uz, 7), 0x00u);
    QCOMPARE(values(uz)[0], 240.0);
    // E5M2 has infinities: 61440 is halfway between 57344 and 65536 and rounds to the even 65536 = inf.
    Tensor e5 = f32({2}, {61440, 61439});
    QCOMPARE(codeAt(castTo(e5, DataType::Float8E5M2, 19, {Attribute::makeInt("saturate", 0)}), 0), 0x7cu);
    QCOMPARE(codeAt(castTo(e5, DataType::Float8E5M2, 19), 0), 0x7bu);
    QCOMPARE(values(castTo(e5, DataType::Float8E5M2, 19))[1], 57344.0);
    // Every finite float8 value encodes back to itself.
    for (DataType t :
         {DataType::Float8E4M3FN, DataType::Float8E4M3FNUZ, DataType::Float8E5M2, DataType::Float8E5M2FNUZ}) {
      std::vector<float> all;
      for (uint32_t code = 0; code < 256; ++code) all.push_back(static_cast<float>(ir::decodeNarrowCode(t, code)));
      Tensor decoded = f32({256}, all);
      Tensor again = castTo(decoded, t, 19);
      for (int64_t k = 0; k < 256; ++k) {
        if (std::isnan(all[k]) || std::isinf(all[k])) continue;
        if (all[k] == 0) continue;  // -0 of the FNUZ types has no code
        QCOMPARE(codeAt(again, k), static_cast<uint32_t>(k));
      }
    }
  }

  void float4Int4AndE8M0Encodings() {
    Tensor x = f32({6}, {5, 7, -7, 0.25f, 0.75f, std::numeric_limits<float>::quiet_NaN()});
    Tensor f4 = castTo(x, DataType::Float4E2M1, 23);
    // 5 is halfway between 4 (mantissa 0) and 6 (mantissa 1); beyond 6 clamps; 0.25 halfway to 0; NaN is +6.
    QCOMPARE(values(f4), (std::vector<double>{4, 6, -6, 0, 1, 6}));
    Tensor y = f32({5}, {2.5f, 3.5f, -8.6f, 100, -0.5f});
    QCOMPARE(values(castTo(y, DataType::Int4, 21)), (std::vector<double>{2, 4, -8, 7, 0}));
    QCOMPARE(values(castTo(y, DataType::UInt4, 21)), (std::vector<double>{2, 4, 0, 15, 0}));
    QCOMPARE(castTo(y, DataType::Int4, 21).byteSize(), size_t{3});  // packed two per byte
    QCOMPARE(values(castTo(y, DataType::Int2, 25)), (std::vector<double>{1, 1, -2, 1, 0}));
    QCOMPARE(values(castTo(y, DataType::UInt2, 25)), (std::vector<double>{2, 3, 0, 3, 0}));
    QCOMPARE(castTo(y, DataType::UInt2, 25).byteSize(), size_t{2});  // packed four per byte
    Tensor z = f32({3}, {3.0f, 2.9f, 0.75f});
    auto e8m0 = [&](const std::string& mode) {
      return values(castTo(z, DataType::Float8E8M0, 24, {Attribute::makeString("round_mode", mode)}));
    };
    QCOMPARE(e8m0("up"), (std::vector<double>{4, 4, 1}));
    QCOMPARE(e8m0("down"), (std::vector<double>{2, 2, 0.5}));
    QCOMPARE(e8m0("nearest"), (std::vector<double>{4, 2, 1}));
    // Narrow to narrow and to string go through the exact decoding.
    QCOMPARE(castTo(f4, DataType::String).stringValues()[0], std::string("4"));
    QCOMPARE(values(castTo(f4, DataType::Float8E4M3FN, 23))[1], 6.0);
  }

  void quantizeGranularities() {
    // Per tensor: x / scale rounds half to even before the zero point is added, then saturates.
    Tensor x = f32({6}, {2.5f, 3.5f, -1000, 1000, 0, -2.5f});
    Tensor scale = Tensor::scalar(DataType::Float, 1);
    Tensor zp = typed<uint8_t>(DataType::UInt8, {}, {10});
    QCOMPARE(values(run1("QuantizeLinear", {&x, &scale, &zp}, {}, 10)), (std::vector<double>{12, 14, 0, 255, 10, 8}));
    // Per axis (13): one scale per channel of axis 1.
    Tensor x2 = f32({2, 2}, {1, 1, 1, 1});
    Tensor scales = f32({2}, {0.5f, 0.25f});
    Tensor zp2 = typed<int8_t>(DataType::Int8, {2}, {0, -1});
    QCOMPARE(values(run1("QuantizeLinear", {&x2, &scales, &zp2}, {}, 13)), (std::vector<double>{2, 3, 2, 3}));
    QCOMPARE(errorKind("QuantizeLinear", {&x2, &scales, &zp2}, {}, 10), RunError::Kind::BadInput);
    // Blocked (21): blocks of 2 along axis 1 of a [1, 5]: scales [1, 3].
    Tensor x3 = f32({1, 5}, {2, 4, 6, 8, 10});
    Tensor bs = f32({1, 3}, {2, 4, 10});
    Tensor q = run1(
        "QuantizeLinear", {&x3, &bs, nullptr},
        {Attribute::makeInt("block_size", 2), Attribute::makeInt("output_dtype", static_cast<int64_t>(DataType::Int4))},
        21);
    QCOMPARE(q.dtype(), DataType::Int4);
    QCOMPARE(values(q), (std::vector<double>{1, 2, 2, 2, 1}));
    Tensor dq = run1("DequantizeLinear", {&q, &bs}, {Attribute::makeInt("block_size", 2)}, 21);
    QCOMPARE(values(dq), (std::vector<double>{2, 4, 8, 8, 10}));
    Tensor badBlocks = f32({1, 2}, {1, 1});
    QCOMPARE(errorKind("QuantizeLinear", {&x3, &badBlocks}, {Attribute::makeInt("block_size", 2)}, 21),
             RunError::Kind::BadInput);
    // float8 output saturates by default; the zero point's type picks it.
    Tensor big = f32({1}, {1000});
    Tensor f8zp = Tensor::zeros(DataType::Float8E4M3FN, {});
    QCOMPARE(values(run1("QuantizeLinear", {&big, &scale, &f8zp}, {}, 19))[0], 448.0);
    // DequantizeLinear: (x - zero point) * scale, in the scale's type (float16 here).
    Tensor qx = typed<uint8_t>(DataType::UInt8, {3}, {0, 10, 255});
    Tensor hs = eval::castTensor(f32({}, {0.5f}), DataType::Float16);
    Tensor d = run1("DequantizeLinear", {&qx, &hs, &zp}, {}, 19);
    QCOMPARE(d.dtype(), DataType::Float16);
    QCOMPARE(values(d), (std::vector<double>{-5, 0, 122.5}));
    Tensor dfl = run1("DequantizeLinear", {&qx, &hs, &zp},
                      {Attribute::makeInt("output_dtype", static_cast<int64_t>(DataType::Float))}, 23);
    QCOMPARE(dfl.dtype(), DataType::Float);
  }

  void dynamicQuantizeCoversZero() {
    Tensor x = f32({3}, {1, 3, 4});  // range [0, 4]: scale 4/255, zero point 0
    auto outs = runAll("DynamicQuantizeLinear", {&x}, {}, 11);
    QCOMPARE(outs.size(), size_t{3});
    QCOMPARE(static_cast<float>(values(outs[1])[0]), 4.0f / 255);
    QCOMPARE(values(outs[2])[0], 0.0);
    QCOMPARE(values(outs[0]), (std::vector<double>{64, 191, 255}));
    Tensor zeros = f32({2}, {0, 0});
    auto z = runAll("DynamicQuantizeLinear", {&zeros}, {}, 11);
    QCOMPARE(values(z[0]), (std::vector<double>{0, 0}));
    Tensor inf = f32({2}, {1, std::numeric_limits<float>::infinity()});
    QCOMPARE(errorKind("DynamicQuantizeLinear", {&inf}, {}, 11), RunError::Kind::BadInput);
  }

  void castStringsBothWays() {
    Tensor s = Tensor::strings({5}, {"1e3", " +INF", "-inf", "NaN", "0.1"});
    Tensor f = castTo(s, DataType::Float);
    QCOMPARE(values(f)[0], 1000.0);
    QVERIFY(std::isinf(values(f)[1]) && values(f)[1] > 0);
    QVERIFY(std::isinf(values(f)[2]) && values(f)[2] < 0);
    QVERIFY(std::isnan(values(f)[3]));
    Tensor back = castTo(f, DataType::String);
    QCOMPARE(back.stringValues(), (std::vector<std::string>{"1000", "INF", "-INF", "NaN", "0.1"}));
    Tensor d = castTo(f32({1}, {0.1f}), DataType::Double);
    QCOMPARE(castTo(d, DataType::String).stringValues()[0], std::string("0.10000000149011612"));
  }

  void bitwiseAndShifts() {
    Tensor a = typed<uint8_t>(DataType::UInt8, {3}, {0xf0, 0x0f, 0xff});
    Tensor s = typed<uint8_t>(DataType::UInt8, {3}, {4, 9, 1});
    QCOMPARE(run1("BitShift", {&a, &s}, {Attribute::makeString("direction", "LEFT")}, 11).toInt64s(),
             (std::vector<int64_t>{0x00, 0x00, 0xfe}));  // shifting by the width or more leaves 0
    QCOMPARE(run1("BitwiseXor", {&a, &s}, {}, 18).toInt64s(), (std::vector<int64_t>{0xf4, 0x06, 0xfe}));
    Tensor i = typed<int32_t>(DataType::Int32, {1}, {0});
    QCOMPARE(run1("BitwiseNot", {&i}, {}, 18).toInt64s()[0], int64_t{-1});
    Tensor f = f32({1}, {1});
    QCOMPARE(errorKind("BitwiseAnd", {&f, &f}, {}, 18), RunError::Kind::Unsupported);
  }

  void threadsDoNotChangeResults() {
    // 700 x 300 elements: several chunks, through the strided broadcast walk each thread seeks into.
    std::vector<float> col(700), row(300);
    for (size_t k = 0; k < col.size(); ++k) col[k] = 0.37f * static_cast<float>(k);
    for (size_t k = 0; k < row.size(); ++k) row[k] = 1.0f / static_cast<float>(k + 1);
    Tensor a = f32({700, 1}, col), b = f32({1, 300}, row);
    auto m = binaryModel("Div");
    Tensor one = runWithThreads(*m, a, b, 1), four = runWithThreads(*m, a, b, 4);
    QCOMPARE(four.dims(), (std::vector<int64_t>{700, 300}));
    QVERIFY(std::memcmp(one.bytes().data(), four.bytes().data(), one.byteSize()) == 0);
    QCOMPARE(static_cast<float>(four.doubleAt(699 * 300 + 299)), 0.37f * 699 / (1.0f / 300));
    // An integer division by zero in a late chunk is a BadInput, not a crash of the worker thread.
    std::vector<int32_t> num(200000, 7), den(200000, 1);
    den.back() = 0;
    Tensor n = typed<int32_t>(DataType::Int32, {200000}, num), d = typed<int32_t>(DataType::Int32, {200000}, den);
    try {
      runWithThreads(*m, n, d, 4);
      QFAIL("no RunError");
    } catch (const RunError& e) {
      QCOMPARE(e.kind(), RunError::Kind::BadInput);
    }
  }

  void boolBytesBeyondOneAreTrue() {
    Tensor b = Tensor::empty(DataType::Bool, {2});
    b.mutableData<uint8_t>()[0] = 2;  // a file may hold any nonzero byte for true
    b.mutableData<uint8_t>()[1] = 0;
    QCOMPARE(run1("Not", {&b}).toInt64s(), (std::vector<int64_t>{0, 1}));
    Tensor t = bools({2}, {true, true});
    QCOMPARE(run1("And", {&b, &t}).toInt64s(), (std::vector<int64_t>{1, 0}));
    QCOMPARE(run1("Equal", {&b, &t}).toInt64s(), (std::vector<int64_t>{1, 0}));
  }

  void activationsAtTheirEdges() {
    Tensor x = f32({3}, {-100, 0, 100});
    QCOMPARE(values(run1("Sigmoid", {&x})), (std::vector<double>{std::exp(-100.0f) / (1 + std::exp(-100.0f)), 0.5, 1}));
    QCOMPARE(static_cast<float>(values(run1("Softplus", {&x}))[2]), 100.0f);  // no overflow of exp(100)
    Tensor g = f32({1}, {1});
    QCOMPARE(static_cast<float>(values(run1("Gelu", {&g}, {}, 20))[0]), 0.8413447f);
    QCOMPARE(static_cast<float>(values(run1("Gelu", {&g}, {Attribute::makeString("approximate", "tanh")}, 20))[0]),
             0.8411920f);
    Tensor ints = typed<int8_t>(DataType::Int8, {2}, {-128, 5});
    QCOMPARE(run1("Relu", {&ints}, {}, 14).toInt64s(), (std::vector<int64_t>{0, 5}));
    QCOMPARE(run1("Abs", {&ints}).toInt64s(), (std::vector<int64_t>{-128, 5}));  // |INT8_MIN| wraps
    Tensor half = f32({4}, {0.5f, 1.5f, 2.5f, -2.5f});
    QCOMPARE(values(run1("Round", {&half}, {}, 11)), (std::vector<double>{0, 2, 2, -2}));
    Tensor inf = f32({3}, {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), 1});
    QCOMPARE(run1("IsInf", {&inf}, {Attribute::makeInt("detect_positive", 0)}, 10).toInt64s(),
             (std::vector<int64_t>{0, 1, 0}));
    // IsNaN/IsInf-20 read float8 through its decoding: E5M2 has both, E4M3FN has no infinity.
    Tensor e5 = Tensor::empty(DataType::Float8E5M2, {3});
    const uint8_t e5codes[] = {0x7c, 0x7f, 0x3c};  // +inf, NaN, 1.0
    std::memcpy(e5.mutableData<uint8_t>(), e5codes, 3);
    QCOMPARE(run1("IsInf", {&e5}, {}, 20).toInt64s(), (std::vector<int64_t>{1, 0, 0}));
    QCOMPARE(run1("IsNaN", {&e5}, {}, 20).toInt64s(), (std::vector<int64_t>{0, 1, 0}));
  }
};

QTEST_GUILESS_MAIN(TestEvalElementwise)
#include "test_eval_elementwise.moc"
