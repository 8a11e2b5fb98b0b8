// The reduction family's kernels (core/eval/kernels/reduction*.cpp) on what ONNX's node tests leave out: the
// opset-versioned meanings (axes attribute or input, the 2-D coercion of Softmax before 13, k as attribute or
// input), exact int64 arithmetic, float sums that a float accumulator would get wrong, empty-set reductions, NaN,
// float16, and the one-line errors bad inputs give.
#include <QtTest>

#include <cmath>
#include <limits>
#include <optional>

#include "eval/runtime/half.h"
#include "eval/runtime/node_eval.h"
#include "eval/single_node_run.h"
#include "eval/runtime/run_error.h"
#include "ir/node.h"

using namespace fb;
using eval::Tensor;
using ir::Attribute;
using ir::DataType;

namespace {

std::vector<Tensor> run(const std::string& op, const std::vector<const Tensor*>& ins, std::vector<Attribute> attrs,
                        int64_t opset) {
  return test::evaluateOp(op, ins, std::move(attrs), opset);
}

Tensor one(const std::string& op, const std::vector<const Tensor*>& ins, std::vector<Attribute> attrs, int64_t opset) {
  return run(op, ins, std::move(attrs), opset).at(0);
}

using test::errorOf;

std::vector<float> floatsOf(const Tensor& t) {
  std::vector<float> v;
  for (int64_t k = 0; k < t.size(); ++k) v.push_back(static_cast<float>(t.doubleAt(k)));
  return v;
}

Tensor i64(std::vector<int64_t> dims, std::vector<int64_t> v) { return Tensor::int64s(std::move(dims), v); }

int64_t checkedCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Tensor bools(std::vector<int64_t> dims, std::vector<bool> v) {
  Tensor t = Tensor::empty(DataType::Bool, std::move(dims));
  for (size_t k = 0; k < v.size(); ++k) t.mutableData<bool>()[k] = v[k];
  return t;
}

}  // namespace

class TestEvalReduction : public QObject {
  Q_OBJECT
 private slots:
  void axesAreAnAttributeUntilTheirOpsetThenAnInput() {
    const Tensor x = Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor axis1 = i64({1}, {1});
    // ReduceMean: attribute through opset 17, input from 18 (where an attribute is no longer read).
    Tensor a = one("ReduceMean", {&x}, {Attribute::makeInts("axes", {1})}, 13);
    QCOMPARE(a.dims(), (std::vector<int64_t>{2, 1}));
    QCOMPARE(floatsOf(a), (std::vector<float>{2, 5}));
    Tensor b = one("ReduceMean", {&x, &axis1}, {}, 18);
    QCOMPARE(floatsOf(b), (std::vector<float>{2, 5}));
    Tensor c = one("ReduceMean", {&x}, {}, 18);  // no axes: all of them
    QCOMPARE(c.dims(), (std::vector<int64_t>{1, 1}));
    QCOMPARE(floatsOf(c), (std::vector<float>{3.5f}));
    // The older form at a newer opset is refused rather than read as "no axes".
    QCOMPARE(errorOf([&] { one("ReduceMean", {&x}, {Attribute::makeInts("axes", {1})}, 18); }),
             eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { one("ReduceSum", {&x}, {Attribute::makeInts("axes", {1})}, 13); }),
             eval::RunError::Kind::BadInput);
    // ReduceSum switched at 13; keepdims = 0 drops the axis.
    Tensor d = one("ReduceSum", {&x, &axis1}, {Attribute::makeInt("keepdims", 0)}, 13);
    QCOMPARE(d.dims(), (std::vector<int64_t>{2}));
    QCOMPARE(floatsOf(d), (std::vector<float>{6, 15}));
    Tensor e = one("ReduceSum", {&x}, {Attribute::makeInts("axes", {-2}), Attribute::makeInt("keepdims", 0)}, 11);
    QCOMPARE(floatsOf(e), (std::vector<float>{5, 7, 9}));
  }

  void emptyAxesReduceEverythingUnlessNoopIsAsked() {
    const Tensor x = Tensor::floats({2, 2}, {1, 2, 3, 4});
    const Tensor none = i64({0}, {});
    Tensor all = one("ReduceSum", {&x, &none}, {}, 13);
    QCOMPARE(floatsOf(all), (std::vector<float>{10}));
    Tensor same = one("ReduceSum", {&x, &none}, {Attribute::makeInt("noop_with_empty_axes", 1)}, 13);
    QCOMPARE(same.dims(), x.dims());
    QCOMPARE(floatsOf(same), floatsOf(x));
    Tensor maxAll = one("ReduceMax", {&x}, {Attribute::makeInt("noop_with_empty_axes", 1)}, 18);
    QCOMPARE(maxAll.dims(), x.dims());
  }

  void emptySetReductionsGiveTheIdentity() {
    const Tensor x = Tensor::floats({2, 0}, {});
    const Tensor axis1 = i64({1}, {1});
    auto at = [&](const char* op) { return floatsOf(one(op, {&x, &axis1}, {}, 18)); };
    const float inf = std::numeric_limits<float>::infinity();
    QCOMPARE(at("ReduceSum"), (std::vector<float>{0, 0}));
    QCOMPARE(at("ReduceProd"), (std::vector<float>{1, 1}));
    QCOMPARE(at("ReduceMax"), (std::vector<float>{-inf, -inf}));
    QCOMPARE(at("ReduceMin"), (std::vector<float>{inf, inf}));
    QCOMPARE(at("ReduceL2"), (std::vector<float>{0, 0}));
    QCOMPARE(at("ReduceLogSum"), (std::vector<float>{-inf, -inf}));
    QCOMPARE(at("ReduceLogSumExp"), (std::vector<float>{-inf, -inf}));
    QVERIFY(std::isnan(at("ReduceMean")[0]));
    const Tensor ints = Tensor::empty(DataType::Int32, {3, 0});
    Tensor m = one("ReduceMax", {&ints, &axis1}, {}, 18);
    QCOMPARE(m.dims(), (std::vector<int64_t>{3, 1}));
    QCOMPARE(m.int64At(0), int64_t{std::numeric_limits<int32_t>::min()});
  }

  void int64ReductionsAreExact() {
    // 2^53 + 1 is not a double: a sum through double would lose the 1.
    const int64_t big = (int64_t{1} << 53) + 1;
    const Tensor x = i64({3}, {big, 2, -4});
    QCOMPARE(one("ReduceSum", {&x}, {}, 11).int64At(0), big - 2);
    QCOMPARE(one("ReduceProd", {&x}, {}, 11).int64At(0), big * -8);
    QCOMPARE(one("ReduceMax", {&x}, {}, 11).int64At(0), big);
    QCOMPARE(one("ReduceMean", {&x}, {}, 11).int64At(0), (big - 2) / 3);
    QCOMPARE(one("ReduceSumSquare", {&x}, {}, 11).dtype(), DataType::Int64);
    const Tensor s = i64({4}, {big, -1, 3, 5});
    const Tensor axis0 = i64({}, {0});
    Tensor c = one("CumSum", {&s, &axis0}, {Attribute::makeInt("exclusive", 1), Attribute::makeInt("reverse", 1)}, 14);
    QCOMPARE(c.toInt64s(), (std::vector<int64_t>{7, 8, 5, 0}));
  }

  void largeFloatSumsKeepTheirPrecision() {
    // 1e8 followed by a thousand ones: a float accumulator stays at 1e8 (its spacing there is 8).
    std::vector<float> v(1001, 1.0f);
    v[0] = 1e8f;
    const Tensor x = Tensor::floats({1001}, v);
    QCOMPARE(floatsOf(one("ReduceSum", {&x}, {}, 11))[0], 100001000.0f);
    QCOMPARE(floatsOf(one("ReduceMean", {&x}, {}, 11))[0], 100001000.0f / 1001.0f);
  }

  void maxKeepsNaNAndBoolWaitsForOpset20() {
    const Tensor x = Tensor::floats({3}, {1, NAN, 3});
    QVERIFY(std::isnan(floatsOf(one("ReduceMax", {&x}, {}, 13))[0]));
    QVERIFY(std::isnan(floatsOf(one("ReduceMin", {&x}, {}, 13))[0]));
    const Tensor b = bools({2, 2}, {true, false, false, false});
    const Tensor axis1 = i64({1}, {1});
    Tensor any = one("ReduceMax", {&b, &axis1}, {Attribute::makeInt("keepdims", 0)}, 20);
    QCOMPARE(any.dtype(), DataType::Bool);
    QCOMPARE(any.toInt64s(), (std::vector<int64_t>{1, 0}));
    Tensor all = one("ReduceMin", {&b, &axis1}, {Attribute::makeInt("keepdims", 0)}, 20);
    QCOMPARE(all.toInt64s(), (std::vector<int64_t>{0, 0}));
    QCOMPARE(errorOf([&] { one("ReduceMax", {&b, &axis1}, {}, 18); }), eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { one("ReduceSum", {&b, &axis1}, {}, 20); }), eval::RunError::Kind::BadInput);
  }

  void float16IsComputedInFloatAndRoundedBack() {
    Tensor h = Tensor::empty(DataType::Float16, {4});
    const float v[] = {0.5f, 1.5f, 2.25f, -1.0f};
    for (int k = 0; k < 4; ++k) h.mutableData<uint16_t>()[k] = eval::floatToHalfBits(v[k]);
    Tensor s = one("ReduceSum", {&h}, {}, 13);
    QCOMPARE(s.dtype(), DataType::Float16);
    QCOMPARE(s.doubleAt(0), 3.25);
    Tensor m = one("Softmax", {&h}, {}, 13);
    QCOMPARE(m.dtype(), DataType::Float16);
    QVERIFY(std::fabs(m.doubleAt(0) + m.doubleAt(1) + m.doubleAt(2) + m.doubleAt(3) - 1) < 2e-3);
  }

  void argMaxTiesAndSelectLastIndexFromOpset12() {
    const Tensor x = Tensor::floats({2, 3}, {5, 1, 5, 2, 7, 7});
    const std::vector<Attribute> last = {Attribute::makeInt("axis", 1), Attribute::makeInt("select_last_index", 1)};
    QCOMPARE(one("ArgMax", {&x}, {Attribute::makeInt("axis", 1)}, 13).toInt64s(), (std::vector<int64_t>{0, 1}));
    QCOMPARE(one("ArgMax", {&x}, last, 13).toInt64s(), (std::vector<int64_t>{2, 2}));
    QCOMPARE(one("ArgMax", {&x}, last, 11).toInt64s(), (std::vector<int64_t>{0, 1}));  // not yet an attribute
    Tensor m = one("ArgMin", {&x}, {Attribute::makeInt("keepdims", 0)}, 13);
    QCOMPARE(m.dims(), (std::vector<int64_t>{3}));
    QCOMPARE(m.toInt64s(), (std::vector<int64_t>{1, 0, 0}));
    QCOMPARE(errorOf([&] { one("ArgMax", {&x}, {Attribute::makeInt("axis", 2)}, 13); }),
             eval::RunError::Kind::BadInput);
  }

  void softmaxCoercesTo2DBeforeOpset13() {
    const Tensor x = Tensor::floats({2, 2}, {0, 1, 2, 3});
    // Opset 11, axis 0: one row of all four elements. Opset 13, axis 0: along each column.
    const std::vector<float> flat = floatsOf(one("Softmax", {&x}, {Attribute::makeInt("axis", 0)}, 11));
    float total = 0;
    for (float f : flat) total += f;
    QVERIFY(std::fabs(total - 1) < 1e-6f);
    QVERIFY(std::fabs(flat[3] - std::exp(3.f) / (1 + std::exp(1.f) + std::exp(2.f) + std::exp(3.f))) < 1e-6f);
    const std::vector<float> cols = floatsOf(one("Softmax", {&x}, {Attribute::makeInt("axis", 0)}, 13));
    QVERIFY(std::fabs(cols[0] + cols[2] - 1) < 1e-6f);
    QVERIFY(std::fabs(cols[1] + cols[3] - 1) < 1e-6f);
    // The default axis moved from 1 to -1: on [2, 2, 2] they differ.
    const Tensor y = Tensor::floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
    QVERIFY(floatsOf(one("LogSoftmax", {&y}, {}, 11)) != floatsOf(one("LogSoftmax", {&y}, {}, 13)));
    const std::vector<float> hard = floatsOf(one("Hardmax", {&y}, {}, 11));
    QCOMPARE(hard, (std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1}));
  }

  void softmaxOfFloatsMatchesADoubleReference() {
    // 1003 elements (the vector loop and its tail) spread over [-100, 20]: every result within a few float ulps
    // of the softmax computed in double with libm's exp; masked (-inf) entries exactly 0; a NaN spoils its row.
    std::vector<float> v(1003);
    for (size_t k = 0; k < v.size(); ++k) v[k] = -100.0f + 120.0f * static_cast<float>((k * 7919) % 1003) / 1003.0f;
    v[5] = -std::numeric_limits<float>::infinity();
    const Tensor x = Tensor::floats({1, 1003}, v);
    const std::vector<float> got = floatsOf(one("Softmax", {&x}, {}, 13));
    const std::vector<float> logGot = floatsOf(one("LogSoftmax", {&x}, {}, 13));
    double mx = -INFINITY, sum = 0;
    for (float f : v) mx = std::max(mx, static_cast<double>(f));
    for (float f : v) sum += std::exp(static_cast<double>(f) - mx);
    for (size_t k = 0; k < v.size(); ++k) {
      const double want = std::exp(static_cast<double>(v[k]) - mx) / sum;
      QVERIFY2(std::fabs(got[k] - want) <= 1e-6 * want + 1e-30, qPrintable(QString::number(k)));
      if (k != 5) QVERIFY(std::fabs(logGot[k] - std::log(want)) <= 1e-5 * std::fabs(std::log(want)) + 1e-5);
    }
    QCOMPARE(got[5], 0.0f);
    v[7] = NAN;
    const Tensor withNaN = Tensor::floats({1, 1003}, v);
    QVERIFY(std::isnan(floatsOf(one("Softmax", {&withNaN}, {}, 13))[0]));
  }

  void topKTakesKFromAnAttributeThenAnInput() {
    const Tensor x = Tensor::floats({5}, {3, 1, 4, 1, 5});
    auto r = run("TopK", {&x}, {Attribute::makeInt("k", 2)}, 1);
    QCOMPARE(floatsOf(r[0]), (std::vector<float>{5, 4}));
    QCOMPARE(r[1].toInt64s(), (std::vector<int64_t>{4, 2}));
    const Tensor k3 = i64({1}, {3});
    auto s = run("TopK", {&x, &k3}, {Attribute::makeInt("largest", 0)}, 11);
    QCOMPARE(floatsOf(s[0]), (std::vector<float>{1, 1, 3}));
    QCOMPARE(s[1].toInt64s(), (std::vector<int64_t>{1, 3, 0}));  // ties in index order
    const Tensor k9 = i64({1}, {9});
    QCOMPARE(errorOf([&] { run("TopK", {&x, &k9}, {}, 11); }), eval::RunError::Kind::BadInput);
  }

  void uniqueInFirstOccurrenceOrder() {
    const Tensor x = Tensor::floats({6}, {2, 1, 1, 3, 4, 3});
    auto r = run("Unique", {&x}, {Attribute::makeInt("sorted", 0)}, 11);
    QCOMPARE(floatsOf(r[0]), (std::vector<float>{2, 1, 3, 4}));
    QCOMPARE(r[1].toInt64s(), (std::vector<int64_t>{0, 1, 3, 4}));
    QCOMPARE(r[2].toInt64s(), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
    QCOMPARE(r[3].toInt64s(), (std::vector<int64_t>{1, 2, 2, 1}));
    const Tensor e = Tensor::floats({0}, {});
    QCOMPARE(run("Unique", {&e}, {}, 11)[0].size(), int64_t{0});
  }

  void einsumTraceImplicitOutputAndEllipsis() {
    Attribute eq = Attribute::makeString("equation", "ii");
    const Tensor m = Tensor::floats({2, 2}, {1, 2, 3, 4});
    QCOMPARE(floatsOf(one("Einsum", {&m}, {eq}, 12)), (std::vector<float>{5}));
    // "ij,jk" without "->": the output is "ik".
    const Tensor a = Tensor::floats({1, 2}, {1, 2});
    const Tensor b = Tensor::floats({2, 2}, {1, 0, 0, 1});
    Tensor p = one("Einsum", {&a, &b}, {Attribute::makeString("equation", "ij,jk")}, 12);
    QCOMPARE(p.dims(), (std::vector<int64_t>{1, 2}));
    QCOMPARE(floatsOf(p), (std::vector<float>{1, 2}));
    // Ellipsis broadcast: [2, 1, 2] x [2] over the last axis.
    const Tensor c = Tensor::floats({2, 1, 2}, {1, 2, 3, 4});
    const Tensor d = Tensor::floats({2}, {10, 1});
    Tensor q = one("Einsum", {&c, &d}, {Attribute::makeString("equation", "...j,j->...")}, 12);
    QCOMPARE(q.dims(), (std::vector<int64_t>{2, 1}));
    QCOMPARE(floatsOf(q), (std::vector<float>{12, 34}));
    // 3037000499^2 + 1 needs 63 bits: exact in int64, not in double.
    const Tensor e = i64({2}, {3037000499, 1});
    QCOMPARE(one("Einsum", {&e, &e}, {Attribute::makeString("equation", "i,i->")}, 12).int64At(0),
             int64_t{9223372030926249002});
    QCOMPARE(errorOf([&] {
               one("Einsum", {&a, &b}, {Attribute::makeString("equation", "ij,kl,m")}, 12);
             }),
             eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] {
               one("Einsum", {&a, &b}, {Attribute::makeString("equation", "ij,jk->iq")}, 12);
             }),
             eval::RunError::Kind::BadInput);
  }

  void everyAxesSubsetMatchesAnIndexByIndexReference() {
    // Shapes with 1s, to be dropped, and neighbours of the same kind, to be merged: every layout the kernel
    // coalesces into, against a reference that visits each element through its full index.
    const std::vector<std::vector<int64_t>> shapes = {{2, 3, 4}, {3, 1, 2, 5}, {1, 4, 1}, {2, 2, 3, 2}};
    uint64_t seed = 12345;
    for (const auto& dims : shapes) {
      const int64_t n = checkedCount(dims);
      std::vector<int64_t> values(static_cast<size_t>(n));
      for (int64_t& v : values) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        v = static_cast<int64_t>(seed >> 59) - 16;
      }
      const Tensor x = i64(dims, values);
      const size_t rank = dims.size();
      for (uint32_t mask = 1; mask < (1u << rank); ++mask) {
        std::vector<int64_t> axes;
        for (size_t k = 0; k < rank; ++k)
          if (mask & (1u << k)) axes.push_back(static_cast<int64_t>(k));
        const Tensor ax = i64({static_cast<int64_t>(axes.size())}, axes);
        // Reference: the output index of each input element, with reduced dims at 0.
        std::vector<int64_t> outDims;
        for (size_t k = 0; k < rank; ++k) outDims.push_back(mask & (1u << k) ? 1 : dims[k]);
        const int64_t outCount = checkedCount(outDims);
        std::vector<int64_t> sum(outCount, 0), mx(outCount, INT64_MIN);
        std::vector<int64_t> idx(rank, 0);
        for (int64_t e = 0; e < n; ++e) {
          int64_t o = 0;
          for (size_t k = 0; k < rank; ++k) o = o * outDims[k] + (mask & (1u << k) ? 0 : idx[k]);
          sum[o] += values[e];
          mx[o] = std::max(mx[o], values[e]);
          for (size_t k = rank; k-- > 0;)
            if (++idx[k] < dims[k])
              break;
            else
              idx[k] = 0;
        }
        Tensor gotSum = one("ReduceSum", {&x, &ax}, {}, 13);
        Tensor gotMax = one("ReduceMax", {&x, &ax}, {}, 18);
        QCOMPARE(gotSum.dims(), outDims);
        QCOMPARE(gotSum.toInt64s(), sum);
        QCOMPARE(gotMax.toInt64s(), mx);
      }
    }
  }

  void badAxesAreOneLineErrors() {
    const Tensor x = Tensor::floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor far = i64({1}, {5});
    QCOMPARE(errorOf([&] { one("ReduceSum", {&x, &far}, {}, 13); }), eval::RunError::Kind::BadInput);
    const Tensor floatAxes = Tensor::floats({1}, {0});
    QCOMPARE(errorOf([&] { one("ReduceSum", {&x, &floatAxes}, {}, 13); }), eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { one("Softmax", {&x}, {Attribute::makeInt("axis", 3)}, 13); }),
             eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { one("CumSum", {&x, &floatAxes}, {}, 14); }), eval::RunError::Kind::BadInput);
  }
};

QTEST_GUILESS_MAIN(TestEvalReduction)
#include "test_eval_reduction.moc"
