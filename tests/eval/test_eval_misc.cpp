// The misc family's kernels (core/eval/kernels/misc*.cpp) on what ONNX's node tests leave out: DFT's axis input
// at opset 20 and lengths that are not powers of two, loss reductions with ignored targets, opset 20's string
// ops, regular expressions that would make a backtracking matcher hang, seeded random ops, and the one-line
// errors bad inputs give.
#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>
#include <optional>

#include "eval/runtime/memory_budget.h"
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

std::vector<double> valuesOf(const Tensor& t) { return t.toDoubles(); }

Tensor i64(std::vector<int64_t> dims, std::vector<int64_t> v) { return Tensor::int64s(std::move(dims), v); }

Attribute strings(std::string name, std::vector<std::string> v) {
  Attribute a;
  a.name = std::move(name);
  a.type = ir::AttrType::Strings;
  a.strings = std::move(v);
  return a;
}

bool near(double a, double b, double tol = 1e-4) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

}  // namespace

class TestEvalMisc : public QObject {
  Q_OBJECT
 private slots:
  void dftOfAnyLengthMatchesTheDefinition() {
    // Length 6 (Bluestein) and 8 (radix 2), real input, against the direct sum.
    for (int64_t n : {6, 8}) {
      std::vector<float> x(static_cast<size_t>(n));
      for (int64_t k = 0; k < n; ++k) x[k] = static_cast<float>(std::sin(0.7 * k) + 0.1 * k);
      const Tensor signal = Tensor::floats({1, n, 1}, x);
      Tensor y = one("DFT", {&signal}, {}, 17);
      QCOMPARE(y.dims(), (std::vector<int64_t>{1, n, 2}));
      for (int64_t f = 0; f < n; ++f) {
        std::complex<double> want = 0;
        for (int64_t k = 0; k < n; ++k)
          want += static_cast<double>(x[k]) * std::polar(1.0, -2 * std::numbers::pi * f * k / n);
        QVERIFY2(near(y.doubleAt(2 * f), want.real()) && near(y.doubleAt(2 * f + 1), want.imag()),
                 qPrintable(QString("n=%1 bin %2").arg(n).arg(f)));
      }
      // The inverse brings the signal back.
      Tensor back = one("DFT", {&y}, {Attribute::makeInt("inverse", 1)}, 17);
      for (int64_t k = 0; k < n; ++k)
        QVERIFY(near(back.doubleAt(2 * k), x[k]) && std::fabs(back.doubleAt(2 * k + 1)) < 1e-4);
    }
  }

  void dftAxisIsAnAttributeAt17AndAnInputFrom20() {
    const Tensor x = Tensor::floats({1, 2, 3, 1}, {1, 2, 3, 4, 5, 6});
    // Opset 17's default axis is 1; opset 20's is -2 (the last signal axis).
    Tensor a = one("DFT", {&x}, {}, 17);
    QCOMPARE(a.dims(), (std::vector<int64_t>{1, 2, 3, 2}));
    QCOMPARE(a.doubleAt(0), 5.0);  // x[0,0,0] + x[0,1,0]
    Tensor b = one("DFT", {&x}, {}, 20);
    QCOMPARE(b.doubleAt(0), 6.0);  // 1 + 2 + 3
    const Tensor axis1 = i64({}, {1});
    Tensor c = one("DFT", {&x, nullptr, &axis1}, {}, 20);
    QCOMPARE(valuesOf(c), valuesOf(a));
    // onesided and dft_length (zero padding to 4: bins 0..2).
    const Tensor four = i64({}, {4});
    Tensor d = one("DFT", {&x, &four, nullptr}, {Attribute::makeInt("onesided", 1)}, 20);
    QCOMPARE(d.dims(), (std::vector<int64_t>{1, 2, 3, 2}));
    const Tensor badAxis = i64({}, {3});
    QCOMPARE(errorOf([&] { one("DFT", {&x, nullptr, &badAxis}, {}, 20); }), eval::RunError::Kind::BadInput);
  }

  void windowsArePeriodicOrSymmetric() {
    const Tensor five = i64({}, {5});
    Tensor periodic = one("HannWindow", {&five}, {}, 17);
    Tensor symmetric = one("HannWindow", {&five}, {Attribute::makeInt("periodic", 0)}, 17);
    QVERIFY(near(symmetric.doubleAt(2), 1.0) && near(symmetric.doubleAt(4), 0.0, 1e-7));
    QVERIFY(near(periodic.doubleAt(2), 0.5 - 0.5 * std::cos(2 * std::numbers::pi * 2 / 5)));
    Tensor d = one("BlackmanWindow", {&five}, {Attribute::makeInt("output_datatype", 11)}, 17);
    QCOMPARE(d.dtype(), DataType::Double);
    QVERIFY(near(d.doubleAt(0), 0.0, 1e-12));
    Tensor h = one("HammingWindow", {&five}, {}, 17);
    QVERIFY(near(h.doubleAt(0), 25.0 / 46.0 - 21.0 / 46.0));
  }

  void lossesIgnoreTargetsAndAverageOverWeights() {
    // log-probabilities of 2 samples over 3 classes; the second target is ignored.
    const Tensor x = Tensor::floats({2, 3}, {-1, -2, -3, -4, -5, -6});
    const Tensor t = i64({2}, {2, 1});
    const Tensor w = Tensor::floats({3}, {1, 2, 4});
    const Attribute ignore = Attribute::makeInt("ignore_index", 1);
    QCOMPARE(one("NegativeLogLikelihoodLoss", {&x, &t, &w}, {ignore}, 13).doubleAt(0), 3.0);  // 3*4 / 4
    Tensor none = one("NegativeLogLikelihoodLoss", {&x, &t}, {Attribute::makeString("reduction", "none")}, 13);
    QCOMPARE(valuesOf(none), (std::vector<double>{3, 5}));
    QCOMPARE(one("NegativeLogLikelihoodLoss", {&x, &t}, {Attribute::makeString("reduction", "sum")}, 13).doubleAt(0),
             8.0);
    const Tensor outOfRange = i64({2}, {3, 0});
    QCOMPARE(errorOf([&] {
               one("NegativeLogLikelihoodLoss", {&x, &outOfRange}, {}, 13);
             }),
             eval::RunError::Kind::BadInput);
    auto sce = run("SoftmaxCrossEntropyLoss", {&x, &t}, {}, 13);
    QCOMPARE(sce.size(), size_t{2});
    QCOMPARE(sce[1].dims(), x.dims());
    // Rows of log-softmax exponentiate to 1; the loss is the mean of the picked negatives.
    const std::vector<double> lp = valuesOf(sce[1]);
    QVERIFY(near(std::exp(lp[0]) + std::exp(lp[1]) + std::exp(lp[2]), 1.0));
    QVERIFY(near(sce[0].doubleAt(0), -(lp[2] + lp[4]) / 2));
  }

  void stringSplitFollowsPythonsSplit() {
    const Tensor x = Tensor::strings({3}, {"a,b,,c", " one  two ", ""});
    auto comma =
        run("StringSplit", {&x}, {Attribute::makeString("delimiter", ","), Attribute::makeInt("maxsplit", 2)}, 20);
    QCOMPARE(comma[0].dims(), (std::vector<int64_t>{3, 3}));
    QCOMPARE(comma[0].stringValues(), (std::vector<std::string>{"a", "b", ",c", " one  two ", "", "", "", "", ""}));
    QCOMPARE(comma[1].toInt64s(), (std::vector<int64_t>{3, 1, 1}));
    auto space = run("StringSplit", {&x}, {}, 20);
    QCOMPARE(space[1].toInt64s(), (std::vector<int64_t>{1, 2, 0}));
    QCOMPARE(space[0].stringValues()[2], std::string("one"));
    QCOMPARE(space[0].stringValues()[3], std::string("two"));
  }

  void stringConcatBroadcastsAndNormalizerChangesCase() {
    const Tensor a = Tensor::strings({2}, {"x", "y"});
    const Tensor b = Tensor::strings({}, {"!"});
    QCOMPARE(one("StringConcat", {&a, &b}, {}, 20).stringValues(), (std::vector<std::string>{"x!", "y!"}));
    const Tensor words = Tensor::strings({1, 3}, {"Straße", "the", "ÉTÉ"});
    Tensor n = one("StringNormalizer", {&words},
                   {Attribute::makeString("case_change_action", "LOWER"), strings("stopwords", {"THE"})}, 10);
    QCOMPARE(n.dims(), (std::vector<int64_t>{1, 2}));
    QCOMPARE(n.stringValues(), (std::vector<std::string>{"straße", "été"}));
    // Bytes that are not UTF-8 pass through unchanged.
    const Tensor broken = Tensor::strings({1}, {std::string("A\x85\xC3Z\xC3", 5)});
    Tensor kept = one("StringNormalizer", {&broken}, {Attribute::makeString("case_change_action", "LOWER")}, 10);
    QCOMPARE(kept.stringValues()[0], std::string("a\x85\xC3z\xC3", 5));
    Tensor all = one("StringNormalizer", {&words}, {strings("stopwords", {"Straße", "the", "ÉTÉ"})}, 10);
    QCOMPARE(all.stringValues(), (std::vector<std::string>{""}));
  }

  void stringResultsSizedByDataAreChargedFirst() {
    auto budget = std::make_shared<eval::MemoryBudget>();
    budget->maxLiveBytes = 64 << 20;
    eval::MemoryBudgetScope scope(budget);
    // [100000, 1] + [1, 100000]: ten billion strings, refused before any is made.
    const Tensor a = Tensor::strings({100000, 1}, std::vector<std::string>(100000, "a"));
    const Tensor b = Tensor::strings({1, 100000}, std::vector<std::string>(100000, "b"));
    QCOMPARE(errorOf([&] { one("StringConcat", {&a, &b}, {}, 20); }), eval::RunError::Kind::BadInput);
    // One string of a million separators next to 100000 others: a hundred billion output strings.
    std::vector<std::string> many(100000, "x");
    many[0] = std::string(1000000, ',');
    const Tensor wide = Tensor::strings({100000}, many);
    QCOMPARE(errorOf([&] { run("StringSplit", {&wide}, {Attribute::makeString("delimiter", ",")}, 20); }),
             eval::RunError::Kind::BadInput);
  }

  void regexFullMatchIsLinearAndRefusesWhatItLacks() {
    const Tensor x = Tensor::strings({4}, {"abc123", "abc", "ab1", "héllo"});
    auto match = [&](const std::string& p) {
      return one("RegexFullMatch", {&x}, {Attribute::makeString("pattern", p)}, 20).toInt64s();
    };
    QCOMPARE(match("[a-c]+\\d{1,3}"), (std::vector<int64_t>{1, 0, 1, 0}));
    QCOMPARE(match("(?:abc|ab)(1|123)?"), (std::vector<int64_t>{1, 1, 1, 0}));
    QCOMPARE(match("h.llo"), (std::vector<int64_t>{0, 0, 0, 1}));  // '.' is one code point, not one byte
    // (a+)+b on a long run of a's: exponential for a backtracking matcher, linear here.
    const Tensor longA = Tensor::strings({1}, {std::string(5000, 'a') + "c"});
    QCOMPARE(one("RegexFullMatch", {&longA}, {Attribute::makeString("pattern", "(a+)+b")}, 20).int64At(0), int64_t{0});
    QCOMPARE(one("RegexFullMatch", {&longA}, {Attribute::makeString("pattern", "(a|aa)*c")}, 20).int64At(0),
             int64_t{1});
    QCOMPARE(errorOf([&] { match("(ab"); }), eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { match("a**"); }), eval::RunError::Kind::BadInput);
    QCOMPARE(errorOf([&] { match("(?i)abc"); }), eval::RunError::Kind::Unsupported);
    QCOMPARE(errorOf([&] { match("(((a){1000}){1000}){1000}"); }), eval::RunError::Kind::BadInput);
  }

  void tfIdfCountsSkipGrams() {
    // Pool: unigram 1, bigram (1, 2). In [1, 3, 2, 1, 2] the bigram occurs once adjacent and once with one skip.
    const Tensor x = i64({5}, {1, 3, 2, 1, 2});
    std::vector<Attribute> attrs = {
        Attribute::makeInt("min_gram_length", 1),     Attribute::makeInt("max_gram_length", 2),
        Attribute::makeString("mode", "TF"),          Attribute::makeInts("ngram_counts", {0, 1}),
        Attribute::makeInts("ngram_indexes", {0, 1}), Attribute::makeInts("pool_int64s", {1, 1, 2})};
    attrs.push_back(Attribute::makeInt("max_skip_count", 0));
    QCOMPARE(valuesOf(one("TfIdfVectorizer", {&x}, attrs, 9)), (std::vector<double>{2, 1}));
    attrs.back() = Attribute::makeInt("max_skip_count", 1);
    QCOMPARE(valuesOf(one("TfIdfVectorizer", {&x}, attrs, 9)), (std::vector<double>{2, 2}));
  }

  void melWeightMatrixTrianglesPeakAtOne() {
    const Tensor bins = i64({}, {8}), dft = i64({}, {16}), rate = i64({}, {8192});
    const Tensor lo = Tensor::floats({}, {0}), hi = Tensor::floats({}, {4096});
    Tensor m = one("MelWeightMatrix", {&bins, &dft, &rate, &lo, &hi}, {}, 17);
    QCOMPARE(m.dims(), (std::vector<int64_t>{9, 8}));
    for (int64_t col = 0; col < 8; ++col) {
      double peak = 0;
      for (int64_t row = 0; row < 9; ++row) peak = std::max(peak, m.doubleAt(row * 8 + col));
      QCOMPARE(peak, 1.0);
    }
  }

  void randomOpsAreSeededAndShaped() {
    const std::vector<Attribute> attrs = {Attribute::makeInts("shape", {3, 4}), Attribute::makeFloat("seed", 7),
                                          Attribute::makeFloat("low", 2), Attribute::makeFloat("high", 3)};
    Tensor a = one("RandomUniform", {}, attrs, 1);
    QCOMPARE(a.dims(), (std::vector<int64_t>{3, 4}));
    QCOMPARE(a.dtype(), DataType::Float);
    QCOMPARE(valuesOf(one("RandomUniform", {}, attrs, 1)), valuesOf(a));  // same seed, same values
    for (double v : valuesOf(a)) QVERIFY(v >= 2 && v < 3);
    Tensor d = one("RandomNormalLike", {&a}, {Attribute::makeInt("dtype", 11)}, 1);
    QCOMPARE(d.dtype(), DataType::Double);
    QCOMPARE(d.dims(), a.dims());
    const Tensor p = Tensor::floats({4}, {0, 1, 0, 1});
    QCOMPARE(valuesOf(one("Bernoulli", {&p}, {}, 15)), (std::vector<double>{0, 1, 0, 1}));
    // A class of probability ~1 is always drawn.
    const Tensor logits = Tensor::floats({1, 3}, {-100, 50, -100});
    Tensor s = one("Multinomial", {&logits}, {Attribute::makeInt("sample_size", 5)}, 7);
    QCOMPARE(s.dtype(), DataType::Int32);
    QCOMPARE(s.toInt64s(), (std::vector<int64_t>{1, 1, 1, 1, 1}));
    QCOMPARE(errorOf([&] { one("RandomNormal", {}, {Attribute::makeInts("shape", {-1})}, 1); }),
             eval::RunError::Kind::BadInput);
  }
};

QTEST_GUILESS_MAIN(TestEvalMisc)
#include "test_eval_misc.moc"
