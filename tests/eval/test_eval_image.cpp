// The evaluator's image and detection kernels beyond ONNX's node tests (libonnx 1.12's, opsets up to 17): Resize's
// opset-18/19 attributes (antialias, axes, keep_aspect_ratio_policy, half_pixel_symmetric), integer and string
// inputs, Upsample's older forms, GridSample-20 in 3-D and AffineGrid against each other, RoiAlign's coordinate
// mode by opset, and bad inputs refused with one-line errors.
#include <QtTest>

#include <cmath>
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

namespace {

using Inputs = test::NodeInputs;
using test::runNode;

Tensor counting(std::vector<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  return Tensor::floats(std::move(dims), v);
}

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

void compareNear(const Tensor& got, const std::vector<double>& want, double tol = 1e-5) {
  QCOMPARE(got.size(), static_cast<int64_t>(want.size()));
  for (size_t k = 0; k < want.size(); ++k)
    if (std::fabs(got.doubleAt(static_cast<int64_t>(k)) - want[k]) > tol)
      QFAIL(qPrintable(QString("element %1 is %2 where %3 is expected")
                           .arg(k)
                           .arg(got.doubleAt(static_cast<int64_t>(k)))
                           .arg(want[k])));
}

void compareTensors(const Tensor& got, const Tensor& want, double tol = 1e-5) {
  QCOMPARE(got.dims(), want.dims());
  compareNear(got, want.toDoubles(), tol);
}

}  // namespace

class EvalImage : public QObject {
  Q_OBJECT
 private slots:
  void resizeAntialiasStretchesTheFilterFromOpset18();
  void resizeAxesAndAspectRatioPolicy();
  void resizeHalfPixelSymmetricFromOpset19();
  void resizeIntegersTruncateAndStringsGather();
  void upsampleOlderForms();
  void gridSampleReadsBackAffineGrids();
  void gridSampleModeNamesFollowTheOpset();
  void affineGridByHand();
  void roiAlignCoordinateModeFollowsTheOpset();
  void badInputsAreOneLineErrors();
  void matchesOnnxRuntimeBeyondTheNodeTests();
};

void EvalImage::resizeAntialiasStretchesTheFilterFromOpset18() {
  Tensor x = counting({1, 1, 1, 8});
  Tensor scales = Tensor::floats({4}, {1, 1, 1, 0.5f});
  std::vector<Attribute> attrs = {Attribute::makeString("mode", "linear"), Attribute::makeInt("antialias", 1)};
  // Downscaling by 2 stretches the triangle filter to 4 taps: weights 1/8, 3/8, 3/8, 1/8 around each source point.
  auto aa = runNode("Resize", 18, {x, std::nullopt, scales}, attrs, 1);
  compareNear(aa[0], {0.625, 2.5, 4.5, 6.375});
  // Before opset 18 the attribute does not exist: plain linear interpolation.
  auto plain = runNode("Resize", 17, {x, std::nullopt, scales}, attrs, 1);
  compareNear(plain[0], {0.5, 2.5, 4.5, 6.5});
  // Upscaling is not affected.
  Tensor up = Tensor::floats({4}, {1, 1, 1, 2});
  auto a = runNode("Resize", 18, {x, std::nullopt, up}, attrs, 1);
  auto b = runNode("Resize", 18, {x, std::nullopt, up}, {Attribute::makeString("mode", "linear")}, 1);
  compareTensors(a[0], b[0]);
}

void EvalImage::resizeAxesAndAspectRatioPolicy() {
  Tensor x = counting({1, 1, 4, 8});
  Tensor sizes = ints({2}, {2, 2});
  auto policy = [&](const char* p) {
    return runNode("Resize", 18, {x, std::nullopt, std::nullopt, sizes},
                   {Attribute::makeInts("axes", {2, 3}), Attribute::makeString("keep_aspect_ratio_policy", p)}, 1)[0];
  };
  QCOMPARE(policy("stretch").dims(), (std::vector<int64_t>{1, 1, 2, 2}));
  QCOMPARE(policy("not_larger").dims(), (std::vector<int64_t>{1, 1, 1, 2}));
  QCOMPARE(policy("not_smaller").dims(), (std::vector<int64_t>{1, 1, 2, 4}));
  // axes [-1]: only the last axis is resized; the same as naming every axis with the others kept.
  Tensor last = ints({1}, {4});
  auto some = runNode("Resize", 18, {x, std::nullopt, std::nullopt, last}, {Attribute::makeInts("axes", {-1})}, 1);
  auto all = runNode("Resize", 18, {x, std::nullopt, std::nullopt, ints({4}, {1, 1, 4, 4})}, {}, 1);
  compareTensors(some[0], all[0]);
  // half_pixel nearest reads 2o + 0.5, which round_prefer_floor takes down.
  compareNear(some[0], {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30});
}

void EvalImage::resizeHalfPixelSymmetricFromOpset19() {
  Tensor x = counting({1, 1, 1, 4});
  Tensor scales = Tensor::floats({4}, {1, 1, 1, 0.6f});
  std::vector<Attribute> attrs = {Attribute::makeString("mode", "linear"),
                                  Attribute::makeString("coordinate_transformation_mode", "half_pixel_symmetric")};
  // 4 * 0.6 = 2.4 rounds down to 2 outputs; the sampling is centred on the input (offset 2 * (1 - 2 / 2.4)).
  auto r = runNode("Resize", 19, {x, std::nullopt, scales}, attrs, 1);
  compareNear(r[0], {2.0 / 3.0, 7.0 / 3.0}, 2e-5);
  QVERIFY(test::nodeFailure("Resize", 18, {x, std::nullopt, scales}, attrs, 1) == Kind::BadInput);
}

void EvalImage::resizeIntegersTruncateAndStringsGather() {
  Tensor x = Tensor::empty(ir::DataType::Int32, {1, 2});
  x.mutableData<int32_t>()[0] = 0;
  x.mutableData<int32_t>()[1] = 5;
  Tensor sizes = ints({2}, {1, 4});
  // half_pixel linear reads 0, 1.25, 3.75, 5: integers keep the whole part, as ONNX's reference does.
  auto r = runNode("Resize", 13, {x, std::nullopt, std::nullopt, sizes}, {Attribute::makeString("mode", "linear")}, 1);
  QCOMPARE(r[0].dtype(), ir::DataType::Int32);
  QCOMPARE(r[0].toInt64s(), (std::vector<int64_t>{0, 1, 3, 5}));
  // int64's largest value is 2^63 in double, one past the type: the result saturates instead of wrapping.
  Tensor big = ints({1, 2}, {INT64_MAX, INT64_MAX});
  auto b =
      runNode("Resize", 13, {big, std::nullopt, std::nullopt, sizes}, {Attribute::makeString("mode", "linear")}, 1);
  QCOMPARE(b[0].toInt64s(), (std::vector<int64_t>(4, INT64_MAX)));
  Tensor s = Tensor::strings({1, 2}, {"a", "b"});
  auto g = runNode("Resize", 13, {s, std::nullopt, std::nullopt, sizes}, {}, 1);
  QCOMPARE(g[0].stringValues(), (std::vector<std::string>{"a", "a", "b", "b"}));
}

void EvalImage::upsampleOlderForms() {
  Tensor x = counting({1, 1, 2, 2});
  auto seven = runNode("Upsample", 7, {x}, {Attribute::makeFloats("scales", {1, 1, 2, 2})}, 1);
  compareNear(seven[0], {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3});
  auto one =
      runNode("Upsample", 1, {x}, {Attribute::makeFloat("height_scale", 2), Attribute::makeFloat("width_scale", 3)}, 1);
  QCOMPARE(one[0].dims(), (std::vector<int64_t>{1, 1, 4, 6}));
  Tensor row = Tensor::floats({1, 2}, {0, 4});
  // Upsample's linear mode samples at o / scale (asymmetric), clamped at the last element.
  auto nine = runNode("Upsample", 9, {row, Tensor::floats({2}, {1, 2})}, {Attribute::makeString("mode", "linear")}, 1);
  compareNear(nine[0], {0, 2, 4, 4});
}

void EvalImage::gridSampleReadsBackAffineGrids() {
  Tensor image = counting({1, 2, 3, 4});
  Tensor identity = Tensor::floats({1, 2, 3}, {1, 0, 0, 0, 1, 0});
  Tensor size = ints({4}, {1, 2, 3, 4});
  const Attribute corners = Attribute::makeInt("align_corners", 1);
  Tensor grid = runNode("AffineGrid", 20, {identity, size}, {corners}, 1)[0];
  QCOMPARE(grid.dims(), (std::vector<int64_t>{1, 3, 4, 2}));
  for (const char* mode : {"linear", "cubic", "nearest"}) {
    auto back = runNode("GridSample", 20, {image, grid}, {corners, Attribute::makeString("mode", mode)}, 1);
    compareTensors(back[0], image);
  }
  // x is the grid's first component and the image's last axis: negating it mirrors every row.
  Tensor flip = Tensor::floats({1, 2, 3}, {-1, 0, 0, 0, 1, 0});
  Tensor flipped = runNode("AffineGrid", 20, {flip, size}, {corners}, 1)[0];
  auto mirrored = runNode("GridSample", 20, {image, flipped}, {corners}, 1);
  compareNear(mirrored[0], {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20});
  // Three spatial axes (opset 20 only).
  Tensor volume = counting({1, 1, 2, 3, 4});
  Tensor identity3 = Tensor::floats({1, 3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
  Tensor grid3 = runNode("AffineGrid", 20, {identity3, ints({5}, {1, 1, 2, 3, 4})}, {corners}, 1)[0];
  QCOMPARE(grid3.dims(), (std::vector<int64_t>{1, 2, 3, 4, 3}));
  compareTensors(runNode("GridSample", 20, {volume, grid3}, {corners}, 1)[0], volume);
}

void EvalImage::gridSampleModeNamesFollowTheOpset() {
  Tensor image = counting({1, 1, 2, 2});
  Tensor grid = Tensor::floats({1, 1, 1, 2}, {0, 0});
  auto linear = Attribute::makeString("mode", "linear");
  auto bilinear = Attribute::makeString("mode", "bilinear");
  QVERIFY(test::nodeFailure("GridSample", 16, {image, grid}, {linear}, 1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("GridSample", 20, {image, grid}, {bilinear}, 1) == Kind::BadInput);
  auto old = runNode("GridSample", 16, {image, grid}, {bilinear}, 1);
  auto now = runNode("GridSample", 20, {image, grid}, {linear}, 1);
  compareNear(old[0], {1.5});  // the centre of a 2x2 image, align_corners 0
  compareTensors(now[0], old[0]);
  Tensor volume = counting({1, 1, 2, 2, 2});
  Tensor grid3 = Tensor::floats({1, 1, 1, 1, 3}, {0, 0, 0});
  QVERIFY(test::nodeFailure("GridSample", 16, {volume, grid3}, {}, 1) == Kind::BadInput);
}

void EvalImage::affineGridByHand() {
  Tensor shift = Tensor::floats({1, 2, 3}, {1, 0, 0.5f, 0, 1, 0});
  auto g = runNode("AffineGrid", 20, {shift, ints({4}, {1, 1, 2, 3})}, {}, 1);
  // Pixel centres without align_corners: x in {-2/3, 0, 2/3} (+0.5), y in {-1/2, 1/2}.
  const double a = 2.0 / 3.0;
  compareNear(g[0], {-a + 0.5, -0.5, 0.5, -0.5, a + 0.5, -0.5, -a + 0.5, 0.5, 0.5, 0.5, a + 0.5, 0.5});
}

void EvalImage::roiAlignCoordinateModeFollowsTheOpset() {
  std::vector<float> ramp(64);
  for (size_t k = 0; k < ramp.size(); ++k) ramp[k] = static_cast<float>(k % 8);  // the value is the column
  Tensor x = Tensor::floats({1, 1, 8, 8}, ramp);
  Tensor rois = Tensor::floats({1, 4}, {0, 0, 4, 4});
  Tensor batch = ints({1}, {0});
  std::vector<Attribute> attrs = {Attribute::makeInt("sampling_ratio", 2)};
  // Two samples across the box: at columns 1 and 3 as given (opset 10), at 0.5 and 2.5 shifted by half a pixel.
  compareNear(runNode("RoiAlign", 10, {x, rois, batch}, attrs, 1)[0], {2.0});
  compareNear(runNode("RoiAlign", 16, {x, rois, batch}, attrs, 1)[0], {1.5});
  attrs.push_back(Attribute::makeString("coordinate_transformation_mode", "output_half_pixel"));
  compareNear(runNode("RoiAlign", 16, {x, rois, batch}, attrs, 1)[0], {2.0});
}

void EvalImage::badInputsAreOneLineErrors() {
  Tensor x = counting({1, 1, 2, 2});
  QVERIFY(test::nodeFailure("Resize", 13, {x, std::nullopt, Tensor::floats({4}, {1, 1, 0, 1})}, {}, 1) ==
          Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13, {x, std::nullopt, Tensor::floats({4}, {1, 1, NAN, 1})}, {}, 1) ==
          Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13, {x, std::nullopt, Tensor::floats({4}, {1, 1, 1e30f, 1e30f})}, {}, 1) ==
          Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13,
                            {x, std::nullopt, std::nullopt, ints({4}, {1, 1, 4000000000LL, 4000000000LL})}, {},
                            1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13, {x, std::nullopt, Tensor::floats({4}, {1, 1, 2, 2}), ints({4}, {1, 1, 4, 4})},
                            {}, 1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13, {x, std::nullopt, Tensor::floats({3}, {1, 2, 2})}, {}, 1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("Resize", 13, {x, Tensor::floats({2}, {0, 1}), Tensor::floats({4}, {1, 1, 2, 2})},
                            {Attribute::makeString("coordinate_transformation_mode", "tf_crop_and_resize")},
                            1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("RoiAlign", 16, {x, Tensor::floats({1, 4}, {0, 0, 1, 1}), ints({1}, {3})}, {}, 1) ==
          Kind::BadInput);
  QVERIFY(test::nodeFailure("RoiAlign", 16, {x, Tensor::floats({1, 4}, {0, 0, 1e30f, 1e30f}), ints({1}, {0})}, {}, 1) ==
          Kind::BadInput);
  Tensor boxes = Tensor::floats({1, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 1});
  QVERIFY(test::nodeFailure("NonMaxSuppression", 11, {boxes, Tensor::floats({1, 1, 3}, {1, 1, 1})}, {}, 1) ==
          Kind::BadInput);
  // No max_output_boxes_per_class: its default 0 keeps nothing.
  auto none = runNode("NonMaxSuppression", 11, {boxes, Tensor::floats({1, 1, 2}, {1, 1})}, {}, 1);
  QCOMPARE(none[0].dims(), (std::vector<int64_t>{0, 3}));
  QVERIFY(test::nodeFailure("MaxUnpool", 11, {x, ints({1, 1, 2, 2}, {0, 1, 2, 100})},
                            {Attribute::makeInts("kernel_shape", {2, 2}), Attribute::makeInts("strides", {2, 2})},
                            1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("GridSample", 20, {x, Tensor::floats({1, 1, 1, 3}, {0, 0, 0})}, {}, 1) == Kind::BadInput);
  QVERIFY(test::nodeFailure("AffineGrid", 20, {Tensor::floats({1, 2, 3}, {1, 0, 0, 0, 1, 0}), ints({4}, {2, 1, 2, 2})},
                            {}, 1) == Kind::BadInput);
}

void EvalImage::matchesOnnxRuntimeBeyondTheNodeTests() {
  using test::floatAttr;
  using test::intAttr;
  using test::intsAttr;
  using test::stringAttr;
  const QString dir = test::scratchDir("eval_image_ort");
  const auto f = ir::DataType::Float;
  std::vector<std::pair<const char*, test::OracleNode>> cases;
  Tensor image = randomTensor({2, 3, 9, 11}, 91);
  for (const char* mode : {"linear", "cubic"})
    cases.push_back({"resize antialias",
                     {"Resize",
                      18,
                      {image, std::nullopt, Tensor::floats({4}, {1, 1, 0.5f, 0.4f})},
                      {stringAttr("mode", mode), intAttr("antialias", 1)},
                      {f}}});
  cases.push_back(
      {"resize axes not_larger",
       {"Resize",
        18,
        {image, std::nullopt, std::nullopt, ints({2}, {5, 4})},
        {stringAttr("mode", "linear"), intsAttr("axes", {2, 3}), stringAttr("keep_aspect_ratio_policy", "not_larger")},
        {f}}});
  cases.push_back({"resize cubic exclude_outside",
                   {"Resize",
                    13,
                    {image, std::nullopt, std::nullopt, ints({4}, {2, 3, 14, 17})},
                    {stringAttr("mode", "cubic"), floatAttr("cubic_coeff_a", -0.5f), intAttr("exclude_outside", 1)},
                    {f}}});
  cases.push_back(
      {"resize tf_crop_and_resize",
       {"Resize",
        13,
        {image, Tensor::floats({8}, {0, 0, -0.2f, 0.1f, 1, 1, 0.9f, 1.3f}), std::nullopt, ints({4}, {2, 3, 7, 6})},
        {stringAttr("mode", "linear"), stringAttr("coordinate_transformation_mode", "tf_crop_and_resize"),
         floatAttr("extrapolation_value", 10)},
        {f}}});
  cases.push_back(
      {"resize 5-d nearest",
       {"Resize",
        13,
        {randomTensor({1, 2, 3, 4, 5}, 92), std::nullopt, Tensor::floats({5}, {1, 1, 2, 1.5f, 0.6f})},
        {stringAttr("nearest_mode", "round_prefer_ceil"), stringAttr("coordinate_transformation_mode", "asymmetric")},
        {f}}});
  // Resize-10 and Upsample-9: asymmetric coordinates; nearest takes the floor enlarging, the ceiling shrinking.
  for (const char* mode : {"nearest", "linear"}) {
    cases.push_back(
        {"resize-10",
         {"Resize", 10, {image, Tensor::floats({4}, {1, 1, 0.6f, 1.7f})}, {stringAttr("mode", mode)}, {f}}});
    cases.push_back({"upsample-9",
                     {"Upsample", 9, {image, Tensor::floats({4}, {1, 1, 2, 1.5f})}, {stringAttr("mode", mode)}, {f}}});
  }
  cases.push_back({"resize pytorch_half_pixel to one",
                   {"Resize",
                    13,
                    {image, std::nullopt, std::nullopt, ints({4}, {2, 3, 1, 5})},
                    {stringAttr("mode", "linear"), stringAttr("coordinate_transformation_mode", "pytorch_half_pixel")},
                    {f}}});
  // Not cubic with border: ONNX's reference clamps a grid location that leaves the image before interpolating
  // ("border values for out-of-bound grid locations"), ONNX Runtime (as PyTorch) clamps each of the 16 taps
  // instead; the evaluator follows the reference.
  for (const char* padding : {"zeros", "border", "reflection"})
    for (const char* mode : {"linear", "cubic", "nearest"})
      if (std::string(mode) != "cubic" || std::string(padding) != "border")
        cases.push_back({"gridsample",
                         {"GridSample",
                          20,
                          {image, randomTensor({2, 4, 6, 2}, 93, -1.4f, 1.4f)},
                          {stringAttr("mode", mode), stringAttr("padding_mode", padding)},
                          {f}}});
  cases.push_back({"gridsample 5-d",
                   {"GridSample",
                    20,
                    {randomTensor({1, 2, 3, 4, 5}, 94), randomTensor({1, 2, 3, 4, 3}, 95, -1.3f, 1.3f)},
                    {stringAttr("padding_mode", "border"), intAttr("align_corners", 1)},
                    {f}}});
  cases.push_back(
      {"affinegrid 3-d", {"AffineGrid", 20, {randomTensor({2, 3, 4}, 96), ints({5}, {2, 1, 3, 4, 5})}, {}, {f}}});
  Tensor rois = Tensor::floats({3, 4}, {0.5f, 1, 6, 7.5f, 2, 0, 10.5f, 4, -1, -1, 3, 12});
  for (const char* mode : {"avg", "max"})
    cases.push_back({"roialign",
                     {"RoiAlign",
                      16,
                      {image, rois, ints({3}, {1, 0, 1})},
                      {stringAttr("mode", mode), intAttr("output_height", 3), intAttr("output_width", 2),
                       floatAttr("spatial_scale", 0.9f)},
                      {f}}});
  cases.push_back({"roialign-10",
                   {"RoiAlign",
                    10,
                    {image, rois, ints({3}, {0, 1, 0})},
                    {intAttr("output_height", 2), intAttr("output_width", 4), intAttr("sampling_ratio", 2)},
                    {f}}});
  // Twenty boxes with distinct scores in two classes; centre format.
  Tensor boxes = randomTensor({1, 20, 4}, 97, 0, 1);
  cases.push_back({"nonmaxsuppression",
                   {"NonMaxSuppression",
                    11,
                    {boxes, randomTensor({1, 2, 20}, 98, 0, 1), ints({1}, {5}), Tensor::floats({1}, {0.2f}),
                     Tensor::floats({1}, {0.3f})},
                    {intAttr("center_point_box", 1)},
                    {ir::DataType::Int64}}});
  cases.push_back({"nonmaxsuppression corners",
                   {"NonMaxSuppression",
                    10,
                    {boxes, randomTensor({1, 2, 20}, 100, 0, 1), ints({1}, {20}), Tensor::floats({1}, {0.1f})},
                    {},
                    {ir::DataType::Int64}}});
  cases.push_back({"maxunpool",
                   {"MaxUnpool",
                    11,
                    {randomTensor({1, 2, 2, 3}, 99), ints({1, 2, 2, 3}, {0, 3, 5, 14, 17, 19, 24, 30, 31, 36, 44, 47})},
                    {intsAttr("kernel_shape", {3, 3}), intsAttr("strides", {2, 2}), intsAttr("pads", {0, 1, 1, 0})},
                    {f}}});
  for (const auto& [name, c] : cases) {
    const QString why = test::compareWithOnnxRuntime(c, dir);
    if (!why.isEmpty())
      qWarning("%s (%s):%s", name, c.attributes.empty() ? "" : c.attributes[0].s().c_str(), qPrintable(why));
    QVERIFY2(why.isEmpty(), qPrintable(QString(name) + ":" + why));
  }
}

QTEST_GUILESS_MAIN(EvalImage)
#include "test_eval_image.moc"
