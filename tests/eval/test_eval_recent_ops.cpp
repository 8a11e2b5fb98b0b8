// The evaluator's kernels for ONNX ops added after opset 17 (the "recent" family), each checked against ONNX
// Runtime 1.30 on a small model built here, plus bad inputs refused with one-line RunErrors.
#include <QtTest>

#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

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
using Kind = eval::RunError::Kind;
using test::floatAttr;
using test::intAttr;
using test::OracleNode;
using test::stringAttr;

namespace {

using Inputs = test::NodeInputs;
using test::runNode;

Tensor randomTensor(std::vector<int64_t> dims, unsigned seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  int64_t n = 1;
  for (int64_t k : dims) n *= k;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = d(gen);
  return Tensor::floats(std::move(dims), v);
}

Tensor ints(std::vector<int64_t> dims, const std::vector<int64_t>& v) { return Tensor::int64s(std::move(dims), v); }

Tensor int32s(std::vector<int64_t> dims, const std::vector<int32_t>& v) {
  Tensor t = Tensor::empty(ir::DataType::Int32, std::move(dims));
  for (size_t k = 0; k < v.size(); ++k) t.mutableData<int32_t>()[k] = v[k];
  return t;
}

Tensor doubles(std::vector<int64_t> dims, const std::vector<double>& v) {
  Tensor t = Tensor::empty(ir::DataType::Double, std::move(dims));
  for (size_t k = 0; k < v.size(); ++k) t.mutableData<double>()[k] = v[k];
  return t;
}

void expectOnnxRuntime(const char* name, const OracleNode& c) {
  QTemporaryDir dir;
  const QString why = test::compareWithOnnxRuntime(c, dir.path());
  if (!why.isEmpty()) qWarning("%s:%s", name, qPrintable(why));
  QVERIFY2(why.isEmpty(), qPrintable(QString(name) + ":" + why));
}

constexpr auto F = ir::DataType::Float;

}  // namespace

class EvalRecentOps : public QObject {
  Q_OBJECT
 private slots:
  void swishMatchesOnnxRuntime();
  void bitCastMatchesOnnxRuntime();
  void cumProdMatchesOnnxRuntime();
  void rotaryEmbeddingMatchesOnnxRuntime();
  void tensorScatterMatchesOnnxRuntime();
  void attentionMatchesOnnxRuntime();
  void deformConvMatchesOnnxRuntime();
  void badInputsAreOneLineErrors();
};

void EvalRecentOps::swishMatchesOnnxRuntime() {
  expectOnnxRuntime("swish", {"Swish", 24, {randomTensor({2, 3, 4}, 1, -6, 6)}, {}, {F}});
  expectOnnxRuntime("swish alpha", {"Swish", 24, {randomTensor({5, 7}, 2, -6, 6)}, {floatAttr("alpha", 1.702f)}, {F}});
  Tensor d = doubles({4}, {-3.5, -0.25, 0, 8});
  expectOnnxRuntime("swish double", {"Swish", 24, {d}, {floatAttr("alpha", 0.5f)}, {ir::DataType::Double}});
  // Swish does not exist before opset 24.
  QCOMPARE(test::nodeFailure("Swish", 23, {randomTensor({3}, 3)}, {}), std::optional<Kind>(Kind::Unsupported));
}

void EvalRecentOps::bitCastMatchesOnnxRuntime() {
  Tensor f = Tensor::floats({2, 3}, {1.0f, -2.5f, 0.0f, -0.0f, 3.25e-20f, 1e30f});
  expectOnnxRuntime(
      "bitcast float->int32",
      {"BitCast", 26, {f}, {intAttr("to", static_cast<int64_t>(ir::DataType::Int32))}, {ir::DataType::Int32}});
  Tensor i = int32s({4}, {0x3f800000, 0x40490fdb, -1082130432, 0x00000001});
  expectOnnxRuntime("bitcast int32->float", {"BitCast", 26, {i}, {intAttr("to", static_cast<int64_t>(F))}, {F}});
  Tensor d = doubles({3}, {1.0, -0.1, 6.02e23});
  expectOnnxRuntime(
      "bitcast double->int64",
      {"BitCast", 26, {d}, {intAttr("to", static_cast<int64_t>(ir::DataType::Int64))}, {ir::DataType::Int64}});
  // By hand: the bits of 1.0f.
  auto y = runNode("BitCast", 26, {Tensor::floats({1}, {1.0f})},
                   {Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::UInt32))}, 1);
  QCOMPARE(y[0].dtype(), ir::DataType::UInt32);
  QCOMPARE(y[0].data<uint32_t>()[0], 0x3f800000u);
}

void EvalRecentOps::cumProdMatchesOnnxRuntime() {
  Tensor x = randomTensor({2, 3, 4}, 4, 0.5f, 2);
  for (int64_t axis : {0, 1, -1})
    for (int exclusive : {0, 1})
      for (int reverse : {0, 1}) {
        const std::string name = "cumprod axis " + std::to_string(axis) + " exclusive " + std::to_string(exclusive) +
                                 " reverse " + std::to_string(reverse);
        expectOnnxRuntime(name.c_str(), {"CumProd",
                                         26,
                                         {x, ints({}, {axis})},
                                         {intAttr("exclusive", exclusive), intAttr("reverse", reverse)},
                                         {F}});
      }
  expectOnnxRuntime("cumprod int64",
                    {"CumProd", 26, {ints({2, 3}, {1, 2, 3, -4, 5, 6}), ints({1}, {1})}, {}, {ir::DataType::Int64}});
  expectOnnxRuntime("cumprod int32 axis",
                    {"CumProd", 26, {doubles({2, 2}, {1.5, 2, -3, 4}), int32s({}, {0})}, {}, {ir::DataType::Double}});
}

void EvalRecentOps::rotaryEmbeddingMatchesOnnxRuntime() {
  // 4-D [batch, heads, seq, head] with caches per token, halves and interleaved, full and partial rotation.
  Tensor x4 = randomTensor({2, 3, 4, 8}, 10);
  for (int interleaved : {0, 1}) {
    const std::string name = "rotary 4-D interleaved " + std::to_string(interleaved);
    expectOnnxRuntime(name.c_str(), {"RotaryEmbedding",
                                     23,
                                     {x4, randomTensor({2, 4, 4}, 11), randomTensor({2, 4, 4}, 12)},
                                     {intAttr("interleaved", interleaved)},
                                     {F}});
    const std::string partial = name + " partial with position_ids";
    expectOnnxRuntime(partial.c_str(), {"RotaryEmbedding",
                                        23,
                                        {x4, randomTensor({10, 2}, 13), randomTensor({10, 2}, 14),
                                         ints({2, 4}, {0, 1, 2, 3, 9, 5, 5, 0})},
                                        {intAttr("interleaved", interleaved), intAttr("rotary_embedding_dim", 4)},
                                        {F}});
  }
  // 3-D [batch, seq, heads * head] split by num_heads.
  expectOnnxRuntime("rotary 3-D", {"RotaryEmbedding",
                                   23,
                                   {randomTensor({2, 3, 12}, 15), randomTensor({6, 3}, 16), randomTensor({6, 3}, 17),
                                    ints({2, 3}, {3, 4, 5, 0, 1, 2})},
                                   {intAttr("num_heads", 2)},
                                   {F}});
}

void EvalRecentOps::tensorScatterMatchesOnnxRuntime() {
  Tensor past = randomTensor({2, 3, 6, 4}, 20);
  Tensor update = randomTensor({2, 3, 2, 4}, 21);
  expectOnnxRuntime("tensorscatter default", {"TensorScatter", 24, {past, update}, {}, {F}});
  expectOnnxRuntime("tensorscatter linear",
                    {"TensorScatter", 24, {past, update, ints({2}, {4, 1})}, {stringAttr("mode", "linear")}, {F}});
  expectOnnxRuntime("tensorscatter circular",
                    {"TensorScatter", 24, {past, update, ints({2}, {5, 3})}, {stringAttr("mode", "circular")}, {F}});
  // The sequence axis elsewhere: [batch, seq, heads, head] with axis 1.
  expectOnnxRuntime("tensorscatter axis 1",
                    {"TensorScatter",
                     24,
                     {randomTensor({3, 5, 2, 2}, 22), randomTensor({3, 3, 2, 2}, 23), ints({3}, {0, 2, 1})},
                     {intAttr("axis", 1)},
                     {F}});
  expectOnnxRuntime("tensorscatter int64",
                    {"TensorScatter",
                     24,
                     {ints({2, 4, 1}, {1, 2, 3, 4, 5, 6, 7, 8}), ints({2, 1, 1}, {-1, -2}), ints({2}, {3, 0})},
                     {},
                     {ir::DataType::Int64}});
}

void EvalRecentOps::attentionMatchesOnnxRuntime() {
  // Multi-head 4-D, with every output.
  Tensor q = randomTensor({2, 4, 3, 8}, 40);
  Tensor k = randomTensor({2, 4, 5, 8}, 41);
  Tensor v = randomTensor({2, 4, 5, 6}, 42);
  expectOnnxRuntime("attention mha", {"Attention", 23, {q, k, v}, {}, {F}});
  expectOnnxRuntime("attention causal scale softcap",
                    {"Attention",
                     23,
                     {q, k, v},
                     {intAttr("is_causal", 1), floatAttr("scale", 0.7f), floatAttr("softcap", 2.0f)},
                     {F}});
  // Grouped-query (4 query heads over 2 key/value heads) with a past cache and the present outputs.
  Tensor kg = randomTensor({2, 2, 3, 8}, 43);
  Tensor vg = randomTensor({2, 2, 3, 6}, 44);
  Tensor pastK = randomTensor({2, 2, 4, 8}, 45);
  Tensor pastV = randomTensor({2, 2, 4, 6}, 46);
  expectOnnxRuntime("attention gqa past causal",
                    {"Attention", 23, {q, kg, vg, std::nullopt, pastK, pastV}, {intAttr("is_causal", 1)}, {F, F, F}});
  // Masks: additive float broadcast over heads, boolean shorter than the keys (padded as masked).
  expectOnnxRuntime("attention float mask",
                    {"Attention", 23, {q, k, v, randomTensor({2, 1, 3, 5}, 47, -2, 0)}, {}, {F}});
  expectOnnxRuntime("attention qk output softmax", {"Attention",
                                                    23,
                                                    {q, k, v, randomTensor({3, 5}, 48, -1, 0)},
                                                    {intAttr("qk_matmul_output_mode", 3)},
                                                    {F, F, F, F}});
  expectOnnxRuntime("attention qk output raw", {"Attention", 23, {q, k, v}, {}, {F, F, F, F}});
  // 3-D inputs split by the head-count attributes (multi-query: one key/value head).
  expectOnnxRuntime("attention 3-D mqa",
                    {"Attention",
                     23,
                     {randomTensor({2, 3, 16}, 49), randomTensor({2, 5, 4}, 50), randomTensor({2, 5, 6}, 51)},
                     {intAttr("q_num_heads", 4), intAttr("kv_num_heads", 1)},
                     {F}});
  // Opset 24: nonpad_kv_seqlen masks each batch row's padding keys, and shifts the causal frontier.
  expectOnnxRuntime("attention nonpad",
                    {"Attention", 24, {q, k, v, std::nullopt, std::nullopt, std::nullopt, ints({2}, {5, 3})}, {}, {F}});
  expectOnnxRuntime("attention nonpad causal", {"Attention",
                                                24,
                                                {q, k, v, std::nullopt, std::nullopt, std::nullopt, ints({2}, {4, 3})},
                                                {intAttr("is_causal", 1)},
                                                {F}});
}

void EvalRecentOps::deformConvMatchesOnnxRuntime() {
  // Offsets of up to two pixels move taps between pixels and past the border (read as zero).
  Tensor x = randomTensor({2, 4, 5, 6}, 70);
  Tensor w = randomTensor({6, 2, 3, 3}, 71);
  expectOnnxRuntime("deformconv grouped", {"DeformConv",
                                           19,
                                           {x, w, randomTensor({2, 2 * 9 * 2, 3, 4}, 72, -2, 2), randomTensor({6}, 73),
                                            randomTensor({2, 2 * 9, 3, 4}, 74, 0, 1)},
                                           {intAttr("group", 2), intAttr("offset_group", 2)},
                                           {F}});
  expectOnnxRuntime(
      "deformconv strides pads dilations",
      {"DeformConv",
       19,
       {x, randomTensor({3, 4, 2, 2}, 75), randomTensor({2, 2 * 4, 3, 3}, 76, -1.5f, 1.5f)},
       {test::intsAttr("strides", {2, 2}), test::intsAttr("pads", {1, 0, 1, 1}), test::intsAttr("dilations", {2, 1})},
       {F}});
  // Zero offsets and no mask: a plain convolution.
  expectOnnxRuntime("deformconv zero offsets", {"DeformConv",
                                                22,
                                                {x, randomTensor({2, 4, 3, 3}, 77),
                                                 Tensor::floats({2, 18, 3, 4}, std::vector<float>(2 * 18 * 12, 0.0f))},
                                                {},
                                                {F}});
}

void EvalRecentOps::badInputsAreOneLineErrors() {
  const std::optional<Kind> bad(Kind::BadInput);
  Tensor f = Tensor::floats({2}, {1, 2});
  // BitCast: widths must agree, 'to' must be a type.
  QCOMPARE(test::nodeFailure("BitCast", 26, {f}, {Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::Int64))}),
           bad);
  QCOMPARE(test::nodeFailure("BitCast", 26, {f}, {Attribute::makeInt("to", 999)}), bad);
  QCOMPARE(test::nodeFailure("BitCast", 26, {f}, {}), bad);
  QCOMPARE(
      test::nodeFailure("BitCast", 26, {f}, {Attribute::makeInt("to", static_cast<int64_t>(ir::DataType::String))}),
      bad);
  // CumProd: axis out of range, not a scalar, a scalar input.
  QCOMPARE(test::nodeFailure("CumProd", 26, {f, ints({}, {2})}, {}), bad);
  QCOMPARE(test::nodeFailure("CumProd", 26, {f, ints({2}, {0, 0})}, {}), bad);
  QCOMPARE(test::nodeFailure("CumProd", 26, {f, Tensor::floats({}, {0})}, {}), bad);
  QCOMPARE(test::nodeFailure("CumProd", 26, {Tensor::floats({}, {3}), ints({}, {0})}, {}), bad);
  // RotaryEmbedding: caches of the wrong shape, a position outside them, an odd rotary dim, 3-D without num_heads.
  Tensor x = randomTensor({1, 2, 3, 4}, 30);
  Tensor cache = randomTensor({4, 2}, 31);
  QCOMPARE(test::nodeFailure("RotaryEmbedding", 23, {x, randomTensor({1, 3, 3}, 32), randomTensor({1, 3, 3}, 33)}, {}),
           bad);
  QCOMPARE(test::nodeFailure("RotaryEmbedding", 23, {x, cache, cache, ints({1, 3}, {0, 1, 4})}, {}), bad);
  QCOMPARE(test::nodeFailure("RotaryEmbedding", 23, {x, cache, cache, ints({1, 3}, {0, 1, -1})}, {}), bad);
  QCOMPARE(test::nodeFailure("RotaryEmbedding", 23, {x, cache, cache, ints({1, 3}, {0, 1, 2})},
                             {Attribute::makeInt("rotary_embedding_dim", 3)}),
           bad);
  QCOMPARE(test::nodeFailure("RotaryEmbedding", 23,
                             {randomTensor({1, 3, 8}, 34), cache, cache, ints({1, 3}, {0, 1, 2})}, {}),
           bad);
  // TensorScatter: an update that does not fit, a write index past the end (linear), the batch axis, a bad mode.
  Tensor past = randomTensor({2, 4, 3}, 35);
  Tensor update = randomTensor({2, 2, 3}, 36);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, randomTensor({2, 5, 3}, 37)}, {Attribute::makeInt("axis", 1)}),
           bad);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, randomTensor({2, 2, 2}, 38)}, {Attribute::makeInt("axis", 1)}),
           bad);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, update, ints({2}, {0, 3})}, {Attribute::makeInt("axis", 1)}),
           bad);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, update, ints({2}, {0, -1})}, {Attribute::makeInt("axis", 1)}),
           bad);
  QCOMPARE(
      test::nodeFailure("TensorScatter", 24, {past, update, ints({3}, {0, 0, 0})}, {Attribute::makeInt("axis", 1)}),
      bad);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, past}, {Attribute::makeInt("axis", 0)}), bad);
  QCOMPARE(test::nodeFailure("TensorScatter", 24, {past, update},
                             {Attribute::makeInt("axis", 1), Attribute::makeString("mode", "ring")}),
           bad);
  // Attention: heads that do not group, K and V that disagree, a mask longer than the keys, a lone past_key.
  Tensor q = randomTensor({1, 3, 2, 4}, 60);
  Tensor k = randomTensor({1, 2, 5, 4}, 61);
  QCOMPARE(test::nodeFailure("Attention", 23, {q, k, k}, {}), bad);
  QCOMPARE(test::nodeFailure("Attention", 23, {q, randomTensor({1, 3, 5, 4}, 62), randomTensor({1, 3, 4, 4}, 63)}, {}),
           bad);
  QCOMPARE(test::nodeFailure(
               "Attention", 23,
               {q, randomTensor({1, 3, 5, 4}, 62), randomTensor({1, 3, 5, 4}, 63), randomTensor({2, 6}, 64)}, {}),
           bad);
  QCOMPARE(test::nodeFailure("Attention", 23,
                             {q, randomTensor({1, 3, 5, 4}, 62), randomTensor({1, 3, 5, 4}, 63), std::nullopt,
                              randomTensor({1, 3, 2, 4}, 65)},
                             {}),
           bad);
  QCOMPARE(
      test::nodeFailure("Attention", 23,
                        {randomTensor({1, 2, 6}, 66), randomTensor({1, 2, 6}, 67), randomTensor({1, 2, 6}, 68)}, {}),
      bad);
}

QTEST_GUILESS_MAIN(EvalRecentOps)
#include "test_eval_recent_ops.moc"
