// The evaluator's RNN, GRU and LSTM beyond ONNX's node tests (which run one forward direction): directions against
// each other, sequence_lens, linear_before_reset, clip, activations with alpha/beta, input_forget, double against
// float and thread counts, and bad shapes refused with one-line errors.
#include <QtTest>

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "eval/runtime/node_eval.h"
#include "eval/runtime/run.h"
#include "eval/single_node_run.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "node_oracle.h"
#include "support/helpers.h"

using namespace fb;
using eval::Tensor;
using ir::Attribute;

namespace {

using Inputs = test::NodeInputs;
using test::runNode;

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

Tensor randomTensor(std::vector<int64_t> dims, unsigned seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return Tensor::floats(dims, randomValues(static_cast<size_t>(n), seed));
}

Tensor toDouble(const Tensor& t) {
  Tensor r = Tensor::empty(ir::DataType::Double, t.dims());
  for (int64_t k = 0; k < t.size(); ++k) r.mutableData<double>()[k] = t.doubleAt(k);
  return r;
}

// Direction d of a [dirs, ...] weight as a [1, ...] weight.
Tensor directionOf(const Tensor& t, int64_t d) {
  const int64_t per = t.size() / t.dim(0);
  std::vector<float> v(t.data<float>() + d * per, t.data<float>() + (d + 1) * per);
  std::vector<int64_t> dims = t.dims();
  dims[0] = 1;
  return Tensor::floats(dims, v);
}

// x [seq, batch, input] with the first len steps of batch row b reversed, as a batch of one.
Tensor reversedRow(const Tensor& x, int64_t b, int64_t len) {
  const int64_t batch = x.dim(1), input = x.dim(2);
  std::vector<float> v;
  for (int64_t t = len - 1; t >= 0; --t)
    for (int64_t i = 0; i < input; ++i) v.push_back(x.data<float>()[(t * batch + b) * input + i]);
  return Tensor::floats({len, 1, input}, v);
}

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

void compareNear(const Tensor& got, const std::vector<float>& want, double tol = 1e-5) {
  QCOMPARE(got.size(), static_cast<int64_t>(want.size()));
  for (size_t k = 0; k < want.size(); ++k)
    if (std::fabs(got.doubleAt(static_cast<int64_t>(k)) - want[k]) > tol)
      QFAIL(qPrintable(QString("element %1 is %2 where %3 is expected")
                           .arg(k)
                           .arg(got.doubleAt(static_cast<int64_t>(k)))
                           .arg(want[k])));
}

}  // namespace

class EvalRecurrent : public QObject {
  Q_OBJECT
 private slots:
  void bidirectionalHalvesAreForwardRunsOnEachOrder();
  void sequenceLensEndRowsEarlyAndReverseStartsAtEachEnd();
  void gruLinearBeforeResetAndRnnClipByHand();
  void activationsTakeAlphaAndBetaInOrder();
  void lstmInputForgetCouplesTheGates();
  void doubleAgreesWithFloatAndThreadsChangeNothing();
  void badShapesAndNamesAreOneLineErrors();
  void matchesOnnxRuntimeBeyondTheNodeTests();
  void constantFoldingGetsEveryOutput();
};

void EvalRecurrent::bidirectionalHalvesAreForwardRunsOnEachOrder() {
  const int64_t seq = 5, batch = 2, input = 3, hidden = 4;
  Tensor x = randomTensor({seq, batch, input}, 1);
  Tensor w = randomTensor({2, 4 * hidden, input}, 2);
  Tensor r = randomTensor({2, 4 * hidden, hidden}, 3);
  Tensor b = randomTensor({2, 8 * hidden}, 4);
  Tensor h0 = randomTensor({2, batch, hidden}, 5);
  Tensor c0 = randomTensor({2, batch, hidden}, 6);
  Tensor p = randomTensor({2, 3 * hidden}, 7);
  auto both =
      runNode("LSTM", 14, {x, w, r, b, std::nullopt, h0, c0, p},
              {Attribute::makeString("direction", "bidirectional"), Attribute::makeInt("hidden_size", hidden)}, 3);
  QCOMPARE(both[0].dims(), (std::vector<int64_t>{seq, 2, batch, hidden}));
  for (int64_t d = 0; d < 2; ++d) {
    for (int64_t row = 0; row < batch; ++row) {
      // Direction d of batch row `row` alone, as a forward run (time reversed for the reverse half).
      Tensor xs = d == 0 ? reversedRow(reversedRow(x, row, seq), 0, seq) : reversedRow(x, row, seq);
      Tensor h0row =
          Tensor::floats({1, 1, hidden}, std::vector<float>(h0.data<float>() + (d * batch + row) * hidden,
                                                            h0.data<float>() + (d * batch + row + 1) * hidden));
      Tensor c0row =
          Tensor::floats({1, 1, hidden}, std::vector<float>(c0.data<float>() + (d * batch + row) * hidden,
                                                            c0.data<float>() + (d * batch + row + 1) * hidden));
      auto one = runNode(
          "LSTM", 14,
          {xs, directionOf(w, d), directionOf(r, d), directionOf(b, d), std::nullopt, h0row, c0row, directionOf(p, d)},
          {}, 3);
      for (int64_t t = 0; t < seq; ++t) {
        const int64_t source = d == 0 ? t : seq - 1 - t;
        for (int64_t k = 0; k < hidden; ++k)
          QVERIFY(std::fabs(both[0].doubleAt(((t * 2 + d) * batch + row) * hidden + k) -
                            one[0].doubleAt(source * hidden + k)) < 1e-6);
      }
      for (int64_t k = 0; k < hidden; ++k) {
        QVERIFY(std::fabs(both[1].doubleAt((d * batch + row) * hidden + k) - one[1].doubleAt(k)) < 1e-6);
        QVERIFY(std::fabs(both[2].doubleAt((d * batch + row) * hidden + k) - one[2].doubleAt(k)) < 1e-6);
      }
    }
  }
}

void EvalRecurrent::sequenceLensEndRowsEarlyAndReverseStartsAtEachEnd() {
  const int64_t seq = 5, batch = 2, input = 2, hidden = 3;
  Tensor x = randomTensor({seq, batch, input}, 11);
  Tensor w = randomTensor({1, 3 * hidden, input}, 12);
  Tensor r = randomTensor({1, 3 * hidden, hidden}, 13);
  Tensor b = randomTensor({1, 6 * hidden}, 14);
  Tensor lens = Tensor::empty(ir::DataType::Int32, {batch});
  lens.mutableData<int32_t>()[0] = 3;
  lens.mutableData<int32_t>()[1] = 5;
  auto rev = runNode("GRU", 14, {x, w, r, b, lens}, {Attribute::makeString("direction", "reverse")}, 2);
  for (int64_t row = 0; row < batch; ++row) {
    const int64_t len = row == 0 ? 3 : 5;
    auto fwd = runNode("GRU", 14, {reversedRow(x, row, len), w, r, b}, {}, 2);
    for (int64_t t = 0; t < seq; ++t)
      for (int64_t k = 0; k < hidden; ++k) {
        const double got = rev[0].doubleAt((t * batch + row) * hidden + k);
        const double want = t < len ? fwd[0].doubleAt((len - 1 - t) * hidden + k) : 0.0;  // padded steps: zero
        QVERIFY2(std::fabs(got - want) < 1e-6, qPrintable(QString("row %1 step %2").arg(row).arg(t)));
      }
    for (int64_t k = 0; k < hidden; ++k)
      QVERIFY(std::fabs(rev[1].doubleAt(row * hidden + k) - fwd[1].doubleAt(k)) < 1e-6);
  }
}

void EvalRecurrent::gruLinearBeforeResetAndRnnClipByHand() {
  Tensor x = Tensor::floats({1, 1, 1}, {1.0f});
  Tensor w = Tensor::floats({1, 3, 1}, {0.5f, -0.5f, 1.0f});  // z, r, h
  Tensor r = Tensor::floats({1, 3, 1}, {0.2f, 0.3f, 2.0f});
  Tensor b = Tensor::floats({1, 6}, {0, 0, 0.1f, 0, 0, 0.4f});  // Wb then Rb
  Tensor h0 = Tensor::floats({1, 1, 1}, {0.5f});
  const float z = sigmoid(0.5f + 0.2f * 0.5f), rg = sigmoid(-0.5f + 0.3f * 0.5f);
  const float scaled = std::tanh(1.0f + rg * (2.0f * 0.5f + 0.4f) + 0.1f);  // reset applied after the product
  const float plain = std::tanh(1.0f + (rg * 0.5f) * 2.0f + 0.4f + 0.1f);   // reset applied before it
  auto lbr = runNode("GRU", 14, {x, w, r, b, std::nullopt, h0}, {Attribute::makeInt("linear_before_reset", 1)}, 2);
  compareNear(lbr[1], {(1 - z) * scaled + z * 0.5f});
  auto noLbr = runNode("GRU", 14, {x, w, r, b, std::nullopt, h0}, {}, 2);
  compareNear(noLbr[1], {(1 - z) * plain + z * 0.5f});
  // GRU-1 had no linear_before_reset: the attribute means nothing there.
  auto old = runNode("GRU", 1, {x, w, r, b, std::nullopt, h0}, {Attribute::makeInt("linear_before_reset", 1)}, 2);
  compareNear(old[1], {(1 - z) * plain + z * 0.5f});

  Tensor rw = Tensor::floats({1, 1, 1}, {2.0f}), rr = Tensor::floats({1, 1, 1}, {0.0f});
  auto clipped = runNode("RNN", 14, {x, rw, rr}, {Attribute::makeFloat("clip", 0.2f)}, 2);
  compareNear(clipped[1], {std::tanh(0.2f)});
  auto unclipped = runNode("RNN", 14, {x, rw, rr}, {}, 2);
  compareNear(unclipped[1], {std::tanh(2.0f)});
}

void EvalRecurrent::activationsTakeAlphaAndBetaInOrder() {
  Tensor x = Tensor::floats({1, 1, 1}, {1.0f});
  Tensor w = Tensor::floats({2, 1, 1}, {0.5f, -0.25f});
  Tensor r = Tensor::floats({2, 1, 1}, {0.0f, 0.0f});
  Attribute names;
  names.name = "activations";
  names.type = ir::AttrType::Strings;
  names.strings = std::vector<std::string>{"ScaledTanh", "Affine"};
  auto out = runNode(
      "RNN", 14, {x, w, r},
      {Attribute::makeString("direction", "bidirectional"), names,
       Attribute::makeFloats("activation_alpha", {2.0f, 3.0f}), Attribute::makeFloats("activation_beta", {0.5f, 1.0f})},
      2);
  compareNear(out[1], {2.0f * std::tanh(0.5f * 0.5f), 3.0f * -0.25f + 1.0f});
  // HardSigmoid with no values given uses its op's defaults (0.2, 0.5).
  names.strings = std::vector<std::string>{"HardSigmoid"};
  auto hard = runNode("RNN", 14, {x, directionOf(w, 0), directionOf(r, 0)}, {names}, 2);
  compareNear(hard[1], {0.2f * 0.5f + 0.5f});
}

void EvalRecurrent::lstmInputForgetCouplesTheGates() {
  Tensor x = Tensor::floats({1, 1, 1}, {1.0f});
  Tensor w = Tensor::floats({1, 4, 1}, {0.3f, 0.6f, 5.0f, -0.4f});  // i, o, f, c
  Tensor r = Tensor::floats({1, 4, 1}, {0, 0, 0, 0});
  Tensor c0 = Tensor::floats({1, 1, 1}, {2.0f});
  const float i = sigmoid(0.3f), o = sigmoid(0.6f), cand = std::tanh(-0.4f);
  auto coupled = runNode("LSTM", 14, {x, w, r, std::nullopt, std::nullopt, std::nullopt, c0},
                         {Attribute::makeInt("input_forget", 1)}, 3);
  const float cc = (1 - i) * 2.0f + i * cand;  // the forget gate's own weights are ignored
  compareNear(coupled[2], {cc});
  compareNear(coupled[1], {o * std::tanh(cc)});
  auto separate = runNode("LSTM", 14, {x, w, r, std::nullopt, std::nullopt, std::nullopt, c0}, {}, 3);
  compareNear(separate[2], {sigmoid(5.0f) * 2.0f + i * cand});
}

void EvalRecurrent::doubleAgreesWithFloatAndThreadsChangeNothing() {
  const int64_t seq = 7, batch = 9, input = 33, hidden = 40;
  Tensor x = randomTensor({batch, seq, input}, 21);
  Tensor w = randomTensor({2, 4 * hidden, input}, 22);
  Tensor r = randomTensor({2, 4 * hidden, hidden}, 23);
  Tensor b = randomTensor({2, 8 * hidden}, 24);
  std::vector<Attribute> attrs = {Attribute::makeString("direction", "bidirectional"), Attribute::makeInt("layout", 1)};
  auto one = runNode("LSTM", 14, {x, w, r, b}, attrs, 3, 1);
  auto two = runNode("LSTM", 14, {x, w, r, b}, attrs, 3, 2);
  auto dbl = runNode("LSTM", 14, {toDouble(x), toDouble(w), toDouble(r), toDouble(b)}, attrs, 3, 2);
  QCOMPARE(one[0].dims(), (std::vector<int64_t>{batch, seq, 2, hidden}));
  QCOMPARE(dbl[0].dtype(), ir::DataType::Double);
  for (size_t k = 0; k < 3; ++k) {
    QCOMPARE(one[k].dims(), two[k].dims());
    QVERIFY(std::equal(one[k].bytes().begin(), one[k].bytes().end(), two[k].bytes().begin()));
    for (int64_t e = 0; e < one[k].size(); ++e) QVERIFY(std::fabs(one[k].doubleAt(e) - dbl[k].doubleAt(e)) < 1e-4);
  }
}

void EvalRecurrent::badShapesAndNamesAreOneLineErrors() {
  using Kind = eval::RunError::Kind;
  Tensor x = randomTensor({2, 1, 3}, 31);
  Tensor w = randomTensor({1, 4, 3}, 32);
  Tensor r = randomTensor({1, 4, 4}, 33);
  QVERIFY(test::nodeFailure("RNN", 14, {x, w, r}, {}, 2) == std::nullopt);  // the shapes fit: it runs
  Tensor narrow = randomTensor({1, 4, 2}, 36);                              // W for an input of 2, not 3
  QVERIFY(test::nodeFailure("RNN", 14, {x, narrow, r}, {}, 2) == Kind::BadInput);
  Tensor wRnn = randomTensor({1, 4, 3}, 34), rRnn = randomTensor({1, 4, 4}, 35);
  QVERIFY(test::nodeFailure("GRU", 14, {x, wRnn, rRnn}, {}, 2) == Kind::BadInput);  // GRU needs 3 * hidden rows
  Tensor lens = Tensor::empty(ir::DataType::Int32, {1});
  lens.mutableData<int32_t>()[0] = 7;  // longer than the sequence
  QVERIFY(test::nodeFailure("RNN", 14, {x, wRnn, rRnn, std::nullopt, lens}, {}, 2) == Kind::BadInput);
  QVERIFY(test::nodeFailure("RNN", 14, {x, wRnn, rRnn}, {Attribute::makeString("direction", "sideways")}, 2) ==
          Kind::BadInput);
  Attribute names;
  names.name = "activations";
  names.type = ir::AttrType::Strings;
  names.strings = std::vector<std::string>{"Swish"};
  QVERIFY(test::nodeFailure("RNN", 14, {x, wRnn, rRnn}, {names}, 2) == Kind::Unsupported);
  QVERIFY(test::nodeFailure("RNN", 14, {x, wRnn, rRnn}, {Attribute::makeInt("hidden_size", 5)}, 2) == Kind::BadInput);
}

void EvalRecurrent::matchesOnnxRuntimeBeyondTheNodeTests() {
  using test::floatAttr;
  using test::floatsAttr;
  using test::intAttr;
  using test::stringAttr;
  using test::stringsAttr;
  const QString dir = test::scratchDir("eval_recurrent_ort");
  const int64_t seq = 6, batch = 3, input = 5, hidden = 4;
  Tensor lens = Tensor::empty(ir::DataType::Int32, {batch});
  for (int64_t b = 0; b < batch; ++b) lens.mutableData<int32_t>()[b] = static_cast<int32_t>(b == 0 ? seq : 2 + b);
  const auto f = ir::DataType::Float;
  std::vector<std::pair<const char*, test::OracleNode>> cases;
  // LSTM, both directions, every optional input, lengths per row, clip.
  cases.push_back(
      {"lstm bidirectional",
       {"LSTM",
        14,
        {randomTensor({seq, batch, input}, 41), randomTensor({2, 4 * hidden, input}, 42),
         randomTensor({2, 4 * hidden, hidden}, 43), randomTensor({2, 8 * hidden}, 44), lens,
         randomTensor({2, batch, hidden}, 45), randomTensor({2, batch, hidden}, 46), randomTensor({2, 3 * hidden}, 47)},
        {stringAttr("direction", "bidirectional"), intAttr("hidden_size", hidden), floatAttr("clip", 0.8f)},
        {f, f, f}}});
  // LSTM, coupled gates and other activations.
  cases.push_back({"lstm input_forget",
                   {"LSTM",
                    14,
                    {randomTensor({seq, batch, input}, 51), randomTensor({1, 4 * hidden, input}, 52),
                     randomTensor({1, 4 * hidden, hidden}, 53), randomTensor({1, 8 * hidden}, 54)},
                    {intAttr("hidden_size", hidden), intAttr("input_forget", 1),
                     stringsAttr("activations", {"HardSigmoid", "Softsign", "Elu"}),
                     floatsAttr("activation_alpha", {0.3f, 0.7f}), floatsAttr("activation_beta", {0.4f})},
                    {f, f, f}}});
  // GRU reverse with lengths, both reset placements.
  for (int lbr : {0, 1})
    cases.push_back(
        {lbr ? "gru reverse linear_before_reset" : "gru reverse",
         {"GRU",
          14,
          {randomTensor({seq, batch, input}, 61), randomTensor({1, 3 * hidden, input}, 62),
           randomTensor({1, 3 * hidden, hidden}, 63), randomTensor({1, 6 * hidden}, 64), lens,
           randomTensor({1, batch, hidden}, 65)},
          {stringAttr("direction", "reverse"), intAttr("hidden_size", hidden), intAttr("linear_before_reset", lbr)},
          {f, f}}});
  // GRU bidirectional; RNN bidirectional with a different activation per direction and their parameters.
  cases.push_back({"gru bidirectional",
                   {"GRU",
                    14,
                    {randomTensor({seq, batch, input}, 71), randomTensor({2, 3 * hidden, input}, 72),
                     randomTensor({2, 3 * hidden, hidden}, 73), randomTensor({2, 6 * hidden}, 74)},
                    {stringAttr("direction", "bidirectional"), intAttr("hidden_size", hidden)},
                    {f, f}}});
  cases.push_back({"rnn bidirectional activations",
                   {"RNN",
                    14,
                    {randomTensor({seq, batch, input}, 81), randomTensor({2, hidden, input}, 82),
                     randomTensor({2, hidden, hidden}, 83), randomTensor({2, 2 * hidden}, 84), lens},
                    {stringAttr("direction", "bidirectional"), intAttr("hidden_size", hidden),
                     stringsAttr("activations", {"LeakyRelu", "ScaledTanh"}),
                     floatsAttr("activation_alpha", {0.05f, 1.5f}), floatsAttr("activation_beta", {0.5f})},
                    {f, f}}});
  for (const auto& [name, c] : cases) {
    const QString why = test::compareWithOnnxRuntime(c, dir);
    QVERIFY2(why.isEmpty(), qPrintable(QString(name) + ":" + why));
  }
}

void EvalRecurrent::constantFoldingGetsEveryOutput() {
  // evaluateNode (constant folding) takes every output as a tensor, also from a node that names none of them.
  Tensor x = randomTensor({3, 2, 4}, 111), w = randomTensor({1, 12, 4}, 112), r = randomTensor({1, 12, 3}, 113);
  ir::Node n;
  n.opType = "LSTM";
  n.attributes = {Attribute::makeInt("hidden_size", 3)};
  auto outs = eval::evaluateNode(n, {&x, &w, &r}, 14);
  QCOMPARE(outs.size(), size_t(3));
  QCOMPARE(outs[0].dims(), (std::vector<int64_t>{3, 1, 2, 3}));
  auto run = runNode("LSTM", 14, {x, w, r}, n.attributes, 3);
  for (size_t k = 0; k < 3; ++k)
    QVERIFY(std::equal(outs[k].bytes().begin(), outs[k].bytes().end(), run[k].bytes().begin()));
}

QTEST_GUILESS_MAIN(EvalRecurrent)
#include "test_eval_recurrent.moc"
