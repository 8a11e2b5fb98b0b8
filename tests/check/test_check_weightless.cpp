// The checker sees big weights as placeholders (its cost follows the graph, not the weight bytes): what it
// checks about them (type, dims against the nodes that read them) must still be checked, and small integer
// tensors that feed shapes must keep their values.
#include <QtTest>

#include "check/onnx_check.h"
#include "passes/pass_graph.h"

using namespace fb;
using fb::test::GraphBuilder;

namespace {

// Conv over x [1, inChannels, 8, 8] with a 16 x 8 x 3 x 3 float weight (4.6 KB, above the placeholder size),
// then a Reshape by an int64 shape constant.
std::unique_ptr<ir::Model> convModel(int64_t inChannels, std::vector<int64_t> reshapeTo, std::vector<int64_t> outDims) {
  GraphBuilder b(13);
  auto* x = b.input("x", {1, inChannels, 8, 8});
  std::vector<float> w(16 * 8 * 3 * 3, 0.25f);
  auto* wv = b.init("w", {16, 8, 3, 3}, w);
  b.node("Conv", {x, wv}, {"c"});
  auto* shape = b.g().addInitializer(
      ir::Tensor::fromValues<int64_t>("shape", ir::DataType::Int64, {int64_t(reshapeTo.size())}, reshapeTo));
  b.node("Reshape", {b.v("c"), shape}, {"y"});
  b.output("y", outDims);
  return std::move(b.model);
}

}  // namespace

class CheckWeightless : public QObject {
  Q_OBJECT
 private slots:
  void validModelPasses() {
    auto m = convModel(8, {1, 16 * 6 * 6}, {1, 576});
    auto r = checkModel(*m);
    QVERIFY2(r.ok, r.messages.empty() ? "" : r.messages[0].message.c_str());
  }
  void weightDimsAreStillChecked() {
    // x [1, 5] times a weight of 8 x 200 or 8 x 20 floats (6.4 KB, 640 bytes: placeholders for the checker): strict
    // inference must still see the weight's dims and refuse the product; with 8 columns in x it passes.
    for (int64_t columns : {200, 20})
      for (int64_t k : {5, 8}) {
        GraphBuilder b(13);
        auto* x = b.input("x", {1, k});
        auto* w = b.init("w", {8, columns}, std::vector<float>(size_t(8 * columns), 0.5f));
        b.node("MatMul", {x, w}, {"y"});
        b.output("y", {1, columns});
        QCOMPARE(checkModel(*b.model).ok, k == 8);
      }
  }
  void shapeConstantsKeepTheirValues() {
    // The declared output disagrees with what the Reshape's int64 shape makes: found only if the shape's
    // values reach inference.
    auto m = convModel(8, {1, 16 * 6 * 6}, {2, 288});
    QVERIFY(!checkModel(*m).ok);
  }
  void floatShapeInputsKeepTheirValues() {
    // Resize by float scales [1, 1, 2, 2] makes [1, 1, 8, 8] of [1, 1, 4, 4]: a declared [1, 1, 4, 4] is refused
    // only if the scales' values reach inference.
    for (int64_t side : {8, 4}) {
      GraphBuilder b(13);
      auto* x = b.input("x", {1, 1, 4, 4});
      auto* scales = b.init("scales", {4}, {1.f, 1.f, 2.f, 2.f});
      b.node("Resize", {x, nullptr, scales}, {"y"});
      b.output("y", {1, 1, side, side});
      auto r = checkModel(*b.model);
      QVERIFY2(r.ok == (side == 8), r.messages.empty() ? "accepted" : r.messages[0].message.c_str());
    }
  }
  void theModelItselfKeepsItsWeights() {
    auto m = convModel(8, {1, 16 * 6 * 6}, {1, 576});
    checkModel(*m);
    const ir::Tensor* w = m->graph().findValue("w")->initializer();
    QCOMPARE(w->bytes().size(), size_t(16 * 8 * 3 * 3 * 4));
    QCOMPARE(w->values<float>()[100], 0.25f);
  }
};

QTEST_GUILESS_MAIN(CheckWeightless)
#include "test_check_weightless.moc"
