// The evaluator's neural kernels (core/eval/kernels/neural*.cpp) against plain references computed here in double on
// random data: Conv (grouped, dilated, padded, strided, auto_pad, 1-D and 3-D, float through oneDNN in both the
// blocked and the plain layout, double through the loops), ConvTranspose, MatMul (batched, broadcast, 1-D),
// Gemm, the pools (ceil_mode, pads, dilations, indices, count_include_pad), the normalizations; results that do not
// depend on the thread count; and the one-line errors for inputs that do not fit.
#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

#include "eval/runtime/node_eval.h"
#include "eval/runtime/run.h"
#include "eval/runtime/run_error.h"
#include "ir/graph.h"
#include "ir/model.h"

using namespace fb;

namespace {

using Dims = std::vector<int64_t>;

int64_t countOf(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

std::vector<double> randomValues(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = static_cast<float>(u(gen));  // exactly representable in float
  return v;
}

eval::Tensor tensorOf(const Dims& d, const std::vector<double>& v, ir::DataType t = ir::DataType::Float) {
  eval::Tensor r = eval::Tensor::empty(t, d);
  for (size_t k = 0; k < v.size(); ++k) {
    if (t == ir::DataType::Double)
      r.mutableData<double>()[k] = v[k];
    else
      r.mutableData<float>()[k] = static_cast<float>(v[k]);
  }
  return r;
}

// A node of `op` with `inputs` inputs and `outputs` outputs in `g`.
ir::Node* makeNode(ir::Graph& g, const std::string& op, size_t inputs, size_t outputs,
                   std::vector<ir::Attribute> attrs = {}) {
  std::vector<ir::Value*> ins, outs;
  for (size_t k = 0; k < inputs; ++k) ins.push_back(g.getOrCreateValue("in" + std::to_string(k)));
  for (size_t k = 0; k < outputs; ++k) outs.push_back(g.getOrCreateValue("out" + std::to_string(k)));
  ir::Node* n = g.addNode(op, ins, outs);
  for (auto& a : attrs) n->setAttr(std::move(a));
  return n;
}

std::vector<eval::Tensor> run(const std::string& op, const std::vector<const eval::Tensor*>& inputs,
                              std::vector<ir::Attribute> attrs = {}, int64_t opset = 17, size_t outputs = 1) {
  ir::Graph g;
  ir::Node* n = makeNode(g, op, inputs.size(), outputs, std::move(attrs));
  return eval::evaluateNode(*n, inputs, opset);
}

// The kind of RunError `f` throws ("none" when it returns).
std::string errorKind(const std::function<void()>& f) {
  try {
    f();
  } catch (const eval::RunError& e) {
    return e.kind() == eval::RunError::Kind::BadInput ? "bad" : "unsupported";
  }
  return "none";
}

// Fails naming the first element of `got` farther than atol + rtol * |want| from `want`.
void expectClose(const eval::Tensor& got, const Dims& dims, const std::vector<double>& want, double tol = 1e-5) {
  QCOMPARE(got.dims(), dims);
  QCOMPARE(static_cast<size_t>(got.size()), want.size());
  for (int64_t k = 0; k < got.size(); ++k) {
    const double g = got.doubleAt(k), w = want[static_cast<size_t>(k)];
    if (!(std::fabs(g - w) <= tol + tol * std::fabs(w)))
      QFAIL(qPrintable(QString("element %1 is %2, the reference %3").arg(k).arg(g, 0, 'g', 9).arg(w, 0, 'g', 9)));
  }
}

struct ConvCase {
  Dims x, w;  // [N, C, spatial...], [M, C/group, kernel...]
  int64_t group = 1;
  Dims strides, dilations, padBegin, padEnd;
};

Dims convOutDims(const ConvCase& c) {
  Dims out{c.x[0], c.w[0]};
  for (size_t a = 0; a + 2 < c.x.size(); ++a)
    out.push_back((c.x[a + 2] + c.padBegin[a] + c.padEnd[a] - (c.w[a + 2] - 1) * c.dilations[a] - 1) / c.strides[a] +
                  1);
  return out;
}

// Direct convolution in double, written from ONNX's definition.
std::vector<double> referenceConv(const ConvCase& c, const std::vector<double>& x, const std::vector<double>& w,
                                  const std::vector<double>& bias) {
  const Dims out = convOutDims(c);
  const size_t r = c.x.size() - 2;
  const int64_t cg = c.x[1] / c.group, mg = c.w[0] / c.group;
  std::vector<double> y(static_cast<size_t>(countOf(out)));
  Dims xs(c.x.begin() + 2, c.x.end()), ks(c.w.begin() + 2, c.w.end()), os(out.begin() + 2, out.end());
  const int64_t inPlane = countOf(xs), kPlane = countOf(ks), outPlane = countOf(os);
  for (int64_t n = 0; n < c.x[0]; ++n)
    for (int64_t m = 0; m < c.w[0]; ++m)
      for (int64_t o = 0; o < outPlane; ++o) {
        double acc = bias.empty() ? 0 : bias[static_cast<size_t>(m)];
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t k = 0; k < kPlane; ++k) {
            int64_t orest = o, krest = k, flat = 0, mul = 1;
            bool inside = true;
            for (size_t a = r; a-- > 0;) {
              const int64_t oa = orest % os[a], ka = krest % ks[a];
              orest /= os[a];
              krest /= ks[a];
              const int64_t p = oa * c.strides[a] - c.padBegin[a] + ka * c.dilations[a];
              if (p < 0 || p >= xs[a]) inside = false;
              flat += p * mul;
              mul *= xs[a];
            }
            if (!inside) continue;
            const int64_t channel = (m / mg) * cg + ci;
            acc += x[static_cast<size_t>((n * c.x[1] + channel) * inPlane + flat)] *
                   w[static_cast<size_t>((m * cg + ci) * kPlane + k)];
          }
        y[static_cast<size_t>((n * c.w[0] + m) * outPlane + o)] = acc;
      }
  return y;
}

std::vector<ir::Attribute> convAttrs(const ConvCase& c) {
  Dims pads = c.padBegin;
  pads.insert(pads.end(), c.padEnd.begin(), c.padEnd.end());
  return {ir::Attribute::makeInt("group", c.group), ir::Attribute::makeInts("strides", c.strides),
          ir::Attribute::makeInts("dilations", c.dilations), ir::Attribute::makeInts("pads", pads)};
}

void checkConv(const ConvCase& c, ir::DataType t = ir::DataType::Float, bool withBias = true) {
  const auto x = randomValues(countOf(c.x), 1), w = randomValues(countOf(c.w), 2);
  const auto b = withBias ? randomValues(c.w[0], 3) : std::vector<double>{};
  const eval::Tensor tx = tensorOf(c.x, x, t), tw = tensorOf(c.w, w, t), tb = tensorOf({c.w[0]}, b, t);
  std::vector<const eval::Tensor*> ins{&tx, &tw};
  if (withBias) ins.push_back(&tb);
  auto out = run("Conv", ins, convAttrs(c));
  QCOMPARE(out[0].dtype(), t);
  expectClose(out[0], convOutDims(c), referenceConv(c, x, w, b), t == ir::DataType::Double ? 1e-12 : 1e-5);
}

// Transposed convolution in double from its definition: every input element scatters x * w into the output.
std::vector<double> referenceConvTranspose(const Dims& xd, const Dims& wd, int64_t group, const Dims& strides,
                                           const Dims& padBegin, const Dims& outSpatial, const std::vector<double>& x,
                                           const std::vector<double>& w) {
  const int64_t mg = wd[1], m = mg * group, cg = xd[1] / group;
  const int64_t outPlane = countOf(outSpatial);
  std::vector<double> y(static_cast<size_t>(xd[0] * m * outPlane));
  // 2-D only, which is what the test uses.
  for (int64_t n = 0; n < xd[0]; ++n)
    for (int64_t ci = 0; ci < xd[1]; ++ci)
      for (int64_t ih = 0; ih < xd[2]; ++ih)
        for (int64_t iw = 0; iw < xd[3]; ++iw)
          for (int64_t mo = 0; mo < mg; ++mo)
            for (int64_t kh = 0; kh < wd[2]; ++kh)
              for (int64_t kw = 0; kw < wd[3]; ++kw) {
                const int64_t oh = ih * strides[0] - padBegin[0] + kh, ow = iw * strides[1] - padBegin[1] + kw;
                if (oh < 0 || oh >= outSpatial[0] || ow < 0 || ow >= outSpatial[1]) continue;
                const int64_t om = (ci / cg) * mg + mo;
                y[static_cast<size_t>(((n * m + om) * outSpatial[0] + oh) * outSpatial[1] + ow)] +=
                    x[static_cast<size_t>(((n * xd[1] + ci) * xd[2] + ih) * xd[3] + iw)] *
                    w[static_cast<size_t>(((ci * mg + mo) * wd[2] + kh) * wd[3] + kw)];
              }
  return y;
}

std::vector<double> referenceMatMul(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t k,
                                    int64_t n) {
  std::vector<double> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        y[static_cast<size_t>(i * n + j)] += a[static_cast<size_t>(i * k + p)] * b[static_cast<size_t>(p * n + j)];
  return y;
}

}  // namespace

class TestEvalNeural : public QObject {
  Q_OBJECT
 private slots:
  void convGroupedDilatedPaddedStrided() { checkConv({{2, 4, 9, 8}, {6, 2, 3, 2}, 2, {2, 1}, {2, 1}, {1, 0}, {2, 1}}); }
  void convDepthwise() { checkConv({{1, 8, 10, 10}, {8, 1, 3, 3}, 8, {1, 1}, {1, 1}, {1, 1}, {1, 1}}); }
  void convBlockedLayout() {
    // Large enough for oneDNN to pick its blocked layout (reorders in and out).
    checkConv({{1, 32, 20, 20}, {48, 32, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}});
  }
  void convPlainOneByOne() {
    // A 1x1 stride-1 convolution over a 28x28 plane runs on plain data (one GEMM).
    checkConv({{1, 24, 28, 28}, {40, 24, 1, 1}, 1, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, ir::DataType::Float, false);
  }
  void conv1d() { checkConv({{2, 3, 11}, {5, 3, 4}, 1, {3}, {2}, {2}, {1}}); }
  void conv3d() { checkConv({{1, 2, 5, 6, 4}, {4, 2, 2, 3, 2}, 1, {1, 2, 1}, {1, 1, 2}, {1, 0, 1}, {0, 1, 1}}); }
  void conv4dSpatialThroughTheLoops() {
    checkConv({{1, 2, 3, 4, 3, 3}, {2, 2, 2, 2, 1, 2}, 1, {1, 1, 1, 1}, {1, 1, 1, 1}, {0, 1, 0, 0}, {1, 0, 0, 1}});
  }
  void convDouble() {
    checkConv({{1, 4, 7, 7}, {4, 2, 3, 3}, 2, {2, 2}, {1, 1}, {1, 1}, {1, 1}}, ir::DataType::Double);
  }

  void convAutoPadSame() {
    // SAME_UPPER over 7 with stride 2 and kernel 4: out 4, total pad 3 -> 1 before, 2 after; SAME_LOWER: 2, 1.
    for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
      const bool upper = std::string(mode) == "SAME_UPPER";
      ConvCase c{{1, 2, 7, 7},
                 {3, 2, 4, 4},
                 1,
                 {2, 2},
                 {1, 1},
                 {upper ? 1 : 2, upper ? 1 : 2},
                 {upper ? 2 : 1, upper ? 2 : 1}};
      const auto x = randomValues(countOf(c.x), 4), w = randomValues(countOf(c.w), 5);
      const eval::Tensor tx = tensorOf(c.x, x), tw = tensorOf(c.w, w);
      auto out = run("Conv", {&tx, &tw},
                     {ir::Attribute::makeString("auto_pad", mode), ir::Attribute::makeInts("strides", {2, 2})});
      expectClose(out[0], {1, 3, 4, 4}, referenceConv(c, x, w, {}));
    }
  }

  void convTransposeGroupedStridedPadded() {
    const Dims xd{2, 4, 3, 4}, wd{4, 3, 3, 2};  // 2 groups of 2 input channels, 3 outputs each
    const auto x = randomValues(countOf(xd), 6), w = randomValues(countOf(wd), 7), b = randomValues(6, 8);
    const eval::Tensor tx = tensorOf(xd, x), tw = tensorOf(wd, w), tb = tensorOf({6}, b);
    // out = s*(in-1) + op + k - pads: 2*2+1+3-1-0 = 7, 3*3+0+2-0-1 = 10
    auto out = run("ConvTranspose", {&tx, &tw, &tb},
                   {ir::Attribute::makeInt("group", 2), ir::Attribute::makeInts("strides", {2, 3}),
                    ir::Attribute::makeInts("pads", {1, 0, 0, 1}), ir::Attribute::makeInts("output_padding", {1, 0})});
    auto want = referenceConvTranspose(xd, wd, 2, {2, 3}, {1, 0}, {7, 10}, x, w);
    for (size_t k = 0; k < want.size(); ++k) want[k] += b[(k / 70) % 6];
    expectClose(out[0], {2, 6, 7, 10}, want);
  }

  void convTransposeOutputShape() {
    // output_shape past what the input covers: the extra end positions get nothing (no bias here).
    const Dims xd{1, 2, 3, 3}, wd{2, 2, 3, 3};
    const auto x = randomValues(countOf(xd), 9), w = randomValues(countOf(wd), 10);
    const eval::Tensor tx = tensorOf(xd, x), tw = tensorOf(wd, w);
    auto out = run("ConvTranspose", {&tx, &tw},
                   {ir::Attribute::makeInts("strides", {2, 2}), ir::Attribute::makeInts("output_shape", {8, 7})});
    expectClose(out[0], {1, 2, 8, 7}, referenceConvTranspose(xd, wd, 1, {2, 2}, {0, 0}, {8, 7}, x, w));
  }

  void matmulBatchedBroadcast() {
    const Dims ad{2, 1, 3, 4}, bd{3, 4, 5};
    const auto a = randomValues(countOf(ad), 11), b = randomValues(countOf(bd), 12);
    const eval::Tensor ta = tensorOf(ad, a), tb = tensorOf(bd, b);
    auto out = run("MatMul", {&ta, &tb});
    std::vector<double> want;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        std::vector<double> am(a.begin() + i * 12, a.begin() + (i + 1) * 12);
        std::vector<double> bm(b.begin() + j * 20, b.begin() + (j + 1) * 20);
        auto y = referenceMatMul(am, bm, 3, 4, 5);
        want.insert(want.end(), y.begin(), y.end());
      }
    expectClose(out[0], {2, 3, 3, 5}, want);
  }

  void matmulSharedWeightsFoldTheBatch() {
    // B without batch dims (a Linear layer): A's batch rows run as one product.
    const auto a = randomValues(2 * 3 * 4, 47), b = randomValues(4 * 5, 48);
    const eval::Tensor ta = tensorOf({2, 3, 4}, a), tb = tensorOf({1, 4, 5}, b);
    expectClose(run("MatMul", {&ta, &tb})[0], {2, 3, 5}, referenceMatMul(a, b, 6, 4, 5));
  }

  void matmulVectorsAndIntegers() {
    const auto a = randomValues(4, 13), b = randomValues(2 * 4 * 5, 14);
    const eval::Tensor ta = tensorOf({4}, a), tb = tensorOf({2, 4, 5}, b);
    auto out = run("MatMul", {&ta, &tb});  // a row vector against each matrix, the row dim dropped
    std::vector<double> want = referenceMatMul(a, {b.begin(), b.begin() + 20}, 1, 4, 5);
    auto second = referenceMatMul(a, {b.begin() + 20, b.end()}, 1, 4, 5);
    want.insert(want.end(), second.begin(), second.end());
    expectClose(out[0], {2, 5}, want);
    const eval::Tensor ia = eval::Tensor::int64s({2, 2}, {1, 2, 3, 4}), ib = eval::Tensor::int64s({2}, {5, 6});
    QCOMPARE(run("MatMul", {&ia, &ib})[0].toInt64s(), (std::vector<int64_t>{17, 39}));
  }

  void gemmTransposedScaledWithBroadcastC() {
    const int64_t m = 3, k = 5, n = 4;
    const auto a = randomValues(k * m, 15), b = randomValues(n * k, 16), c = randomValues(m, 17);
    const eval::Tensor ta = tensorOf({k, m}, a), tb = tensorOf({n, k}, b), tc = tensorOf({m, 1}, c);
    auto out = run("Gemm", {&ta, &tb, &tc},
                   {ir::Attribute::makeInt("transA", 1), ir::Attribute::makeInt("transB", 1),
                    ir::Attribute::makeFloat("alpha", 0.5f), ir::Attribute::makeFloat("beta", -2.0f)},
                   13);
    std::vector<double> want(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += a[p * m + i] * b[j * k + p];
        want[i * n + j] = 0.5 * s - 2.0 * c[i];
      }
    expectClose(out[0], {m, n}, want);
    // Double, C as a row.
    const auto cr = randomValues(n, 18);
    const eval::Tensor da = tensorOf({m, k}, a, ir::DataType::Double), db = tensorOf({k, n}, b, ir::DataType::Double),
                       dc = tensorOf({n}, cr, ir::DataType::Double);
    auto dout = run("Gemm", {&da, &db, &dc}, {}, 13);
    auto prod = referenceMatMul(a, b, m, k, n);
    for (size_t e = 0; e < prod.size(); ++e) prod[e] += cr[e % n];
    expectClose(dout[0], {m, n}, prod, 1e-12);
  }

  void maxPoolCeilPadsDilationsAndIndices() {
    const Dims xd{1, 2, 7, 6};
    const auto x = randomValues(countOf(xd), 19);
    const eval::Tensor tx = tensorOf(xd, x);
    std::vector<ir::Attribute> attrs{
        ir::Attribute::makeInts("kernel_shape", {3, 2}), ir::Attribute::makeInts("strides", {2, 2}),
        ir::Attribute::makeInts("dilations", {1, 2}), ir::Attribute::makeInts("pads", {1, 0, 1, 1}),
        ir::Attribute::makeInt("ceil_mode", 1)};
    // H: (7+2-3)/2 = 3, ceil 3 -> 4 windows, the last starting at 5 (inside); W: extent 3, (6+1-3)/2 = 2 -> ceil 2 -> 3
    std::vector<double> want;
    std::vector<int64_t> wantIdx;
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t oh = 0; oh < 4; ++oh)
        for (int64_t ow = 0; ow < 3; ++ow) {
          double best = -INFINITY;
          int64_t at = -1;
          for (int64_t kh = 0; kh < 3; ++kh)
            for (int64_t kw = 0; kw < 2; ++kw) {
              const int64_t h = oh * 2 - 1 + kh, w = ow * 2 + kw * 2;
              if (h < 0 || h >= 7 || w < 0 || w >= 6) continue;
              const int64_t e = (c * 7 + h) * 6 + w;
              if (x[e] > best) best = x[e], at = e;
            }
          want.push_back(best);
          wantIdx.push_back(at);
        }
    auto single = run("MaxPool", {&tx}, attrs, 12);  // oneDNN's pooling
    expectClose(single[0], {1, 2, 4, 3}, want, 0);
    auto both = run("MaxPool", {&tx}, attrs, 12, 2);  // the loop, with indices
    expectClose(both[0], {1, 2, 4, 3}, want, 0);
    QCOMPARE(both[1].toInt64s(), wantIdx);
  }

  void averagePoolCountIncludePad() {
    const Dims xd{1, 1, 5, 5};
    const auto x = randomValues(countOf(xd), 20);
    const eval::Tensor tx = tensorOf(xd, x);
    for (int include : {0, 1})
      for (int ceil : {0, 1}) {
        // Kernel 2, stride 2, pads 1 before: windows start at -1, 1, 3 (the span 5 + 1 - 2 divides by the stride, so
        // ceil_mode adds none). The first row and column of windows read padded positions.
        std::vector<ir::Attribute> attrs{
            ir::Attribute::makeInts("kernel_shape", {2, 2}), ir::Attribute::makeInts("strides", {2, 2}),
            ir::Attribute::makeInts("pads", {1, 1, 0, 0}), ir::Attribute::makeInt("count_include_pad", include),
            ir::Attribute::makeInt("ceil_mode", ceil)};
        const int64_t out = 3;
        std::vector<double> want;
        for (int64_t oh = 0; oh < out; ++oh)
          for (int64_t ow = 0; ow < out; ++ow) {
            double s = 0;
            int64_t inside = 0, padded = 0;
            for (int64_t kh = 0; kh < 2; ++kh)
              for (int64_t kw = 0; kw < 2; ++kw) {
                const int64_t h = oh * 2 - 1 + kh, w = ow * 2 - 1 + kw;
                if (h >= -1 && h < 5 && w >= -1 && w < 5) ++padded;
                if (h < 0 || h >= 5 || w < 0 || w >= 5) continue;
                s += x[h * 5 + w];
                ++inside;
              }
            want.push_back(s / static_cast<double>(include ? padded : inside));
          }
        expectClose(run("AveragePool", {&tx}, attrs, 19)[0], {1, 1, out, out}, want);
      }
    // ceil_mode with an end overhang: over 6 with kernel 3, stride 2, no pads: floor 2 windows, ceil 3, the last
    // covering 4..6 of which 6 is overhang, counted by neither mode.
    const auto y = randomValues(6, 21);
    const eval::Tensor ty = tensorOf({1, 1, 6}, y);
    for (int include : {0, 1}) {
      auto got = run("AveragePool", {&ty},
                     {ir::Attribute::makeInts("kernel_shape", {3}), ir::Attribute::makeInts("strides", {2}),
                      ir::Attribute::makeInt("ceil_mode", 1), ir::Attribute::makeInt("count_include_pad", include)},
                     19);
      expectClose(got[0], {1, 1, 3}, {(y[0] + y[1] + y[2]) / 3, (y[2] + y[3] + y[4]) / 3, (y[4] + y[5]) / 2});
    }
  }

  void globalAndLpPools() {
    const Dims xd{2, 3, 4, 5};
    const auto x = randomValues(countOf(xd), 22);
    const eval::Tensor tx = tensorOf(xd, x);
    std::vector<double> avg, mx, lp;
    for (int64_t p = 0; p < 6; ++p) {
      double s = 0, m = -INFINITY, sq = 0;
      for (int64_t k = 0; k < 20; ++k) {
        const double v = x[p * 20 + k];
        s += v;
        m = std::max(m, v);
        sq += v * v;
      }
      avg.push_back(s / 20);
      mx.push_back(m);
      lp.push_back(std::sqrt(sq));
    }
    expectClose(run("GlobalAveragePool", {&tx})[0], {2, 3, 1, 1}, avg);
    expectClose(run("GlobalMaxPool", {&tx})[0], {2, 3, 1, 1}, mx);
    expectClose(run("GlobalLpPool", {&tx}, {ir::Attribute::makeInt("p", 2)})[0], {2, 3, 1, 1}, lp);
    expectClose(
        run("LpPool", {&tx}, {ir::Attribute::makeInts("kernel_shape", {4, 5}), ir::Attribute::makeInt("p", 2)})[0],
        {2, 3, 1, 1}, lp);
  }

  void normalizations() {
    const Dims xd{2, 4, 3};
    const auto x = randomValues(countOf(xd), 23);
    const eval::Tensor tx = tensorOf(xd, x);
    // LayerNormalization over axis 1 (the last two dims), with Mean and InvStdDev.
    const auto scale = randomValues(12, 24), bias = randomValues(12, 25);
    const eval::Tensor ts = tensorOf({4, 3}, scale), tb = tensorOf({4, 3}, bias);
    auto ln = run("LayerNormalization", {&tx, &ts, &tb},
                  {ir::Attribute::makeInt("axis", 1), ir::Attribute::makeFloat("epsilon", 1e-3f)}, 17, 3);
    std::vector<double> want, means, invs;
    for (int64_t o = 0; o < 2; ++o) {
      double mu = 0, var = 0;
      for (int64_t k = 0; k < 12; ++k) mu += x[o * 12 + k] / 12;
      for (int64_t k = 0; k < 12; ++k) var += (x[o * 12 + k] - mu) * (x[o * 12 + k] - mu) / 12;
      const double inv = 1 / std::sqrt(var + static_cast<double>(1e-3f));
      for (int64_t k = 0; k < 12; ++k) want.push_back((x[o * 12 + k] - mu) * inv * scale[k] + bias[k]);
      means.push_back(mu);
      invs.push_back(inv);
    }
    expectClose(ln[0], xd, want);
    expectClose(ln[1], {2, 1, 1}, means);
    expectClose(ln[2], {2, 1, 1}, invs);
    // The same in double (the loop, not oneDNN).
    const eval::Tensor dx = tensorOf(xd, x, ir::DataType::Double), ds = tensorOf({4, 3}, scale, ir::DataType::Double),
                       db = tensorOf({4, 3}, bias, ir::DataType::Double);
    auto dln = run("LayerNormalization", {&dx, &ds, &db},
                   {ir::Attribute::makeInt("axis", 1), ir::Attribute::makeFloat("epsilon", 1e-3f)}, 17, 3);
    expectClose(dln[0], xd, want, 1e-9);
    expectClose(dln[2], {2, 1, 1}, invs);
    // GroupNormalization: 2 groups of 2 channels; opset 18 scales per group, 21 per channel.
    const auto gs = randomValues(4, 26), gb = randomValues(4, 27);
    for (int64_t opset : {18, 21}) {
      const int64_t per = opset == 18 ? 2 : 4;
      const eval::Tensor s = tensorOf({per}, {gs.begin(), gs.begin() + per}),
                         b = tensorOf({per}, {gb.begin(), gb.begin() + per});
      auto gn = run("GroupNormalization", {&tx, &s, &b}, {ir::Attribute::makeInt("num_groups", 2)}, opset);
      std::vector<double> g(x.size());
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t grp = 0; grp < 2; ++grp) {
          const int64_t base = n * 12 + grp * 6;
          double mu = 0, var = 0;
          for (int64_t k = 0; k < 6; ++k) mu += x[base + k] / 6;
          for (int64_t k = 0; k < 6; ++k) var += (x[base + k] - mu) * (x[base + k] - mu) / 6;
          for (int64_t k = 0; k < 6; ++k) {
            const int64_t channel = grp * 2 + k / 3, p = opset == 18 ? grp : channel;
            g[base + k] = (x[base + k] - mu) / std::sqrt(var + static_cast<double>(1e-5f)) * gs[p] + gb[p];
          }
        }
      expectClose(gn[0], xd, g);
    }
    // RMSNormalization over the last dim.
    const auto rs = randomValues(3, 28);
    const eval::Tensor trs = tensorOf({3}, rs);
    std::vector<double> rms;
    for (int64_t o = 0; o < 8; ++o) {
      double sq = 0;
      for (int64_t k = 0; k < 3; ++k) sq += x[o * 3 + k] * x[o * 3 + k] / 3;
      for (int64_t k = 0; k < 3; ++k) rms.push_back(x[o * 3 + k] / std::sqrt(sq + static_cast<double>(1e-5f)) * rs[k]);
    }
    expectClose(run("RMSNormalization", {&tx, &trs}, {}, 23)[0], xd, rms);
    // BatchNormalization (inference) per channel.
    const auto mean = randomValues(4, 29), var = randomValues(4, 30);
    std::vector<double> posVar;
    for (double v : var) posVar.push_back(std::fabs(v) + 0.1f);
    const eval::Tensor bs = tensorOf({4}, gs), bb = tensorOf({4}, gb), bm = tensorOf({4}, mean),
                       bv = tensorOf({4}, posVar);
    std::vector<double> bn;
    for (int64_t k = 0; k < 24; ++k) {
      const int64_t c = (k / 3) % 4;
      bn.push_back((x[k] - mean[c]) / std::sqrt(posVar[c] + static_cast<double>(1e-5f)) * gs[c] + gb[c]);
    }
    expectClose(run("BatchNormalization", {&tx, &bs, &bb, &bm, &bv}, {}, 15)[0], xd, bn);
    const eval::Tensor dbs = tensorOf({4}, gs, ir::DataType::Double), dbb = tensorOf({4}, gb, ir::DataType::Double),
                       dbm = tensorOf({4}, mean, ir::DataType::Double),
                       dbv = tensorOf({4}, posVar, ir::DataType::Double);
    expectClose(run("BatchNormalization", {&dx, &dbs, &dbb, &dbm, &dbv}, {}, 15)[0], xd, bn, 1e-9);
  }

  void resultsDoNotDependOnTheThreadCount() {
    auto m = std::make_unique<ir::Model>();
    m->setOpsetVersion("", 17);
    ir::Graph& g = m->graph();
    ir::Value* x = g.getOrCreateValue("x");
    ir::Shape shape;
    for (int64_t d : {1, 16, 24, 24}) shape.push_back(ir::Dim::of(d));
    x->type = ir::TypeInfo::tensor(ir::DataType::Float, shape);
    g.addInput(x);
    ir::Value* w = g.addInitializer(tensorOf({32, 16, 3, 3}, randomValues(32 * 16 * 9, 31)).toModel("w"));
    ir::Value* y = g.getOrCreateValue("y");
    g.addNode("Conv", {x, w}, {y})->setAttr(ir::Attribute::makeInts("pads", {1, 1, 1, 1}));
    g.addOutput(y);
    const eval::Tensor input = tensorOf({1, 16, 24, 24}, randomValues(16 * 24 * 24, 32));
    eval::RunOptions one, two;
    one.threads = 1;
    two.threads = 2;
    auto a = eval::runModel(*m, {{"x", eval::Value(input)}}, one);
    auto b = eval::runModel(*m, {{"x", eval::Value(input)}}, two);
    expectClose(b.outputs[0].second.tensor(), {1, 32, 24, 24}, a.outputs[0].second.tensor().toDoubles(), 1e-6);
  }

  void badInputsAreOneLineErrors() {
    const eval::Tensor x = tensorOf({1, 3, 5, 5}, randomValues(75, 33));
    const eval::Tensor w4 = tensorOf({2, 4, 3, 3}, randomValues(72, 34));
    const eval::Tensor w3 = tensorOf({2, 3, 3, 3}, randomValues(54, 35));
    const eval::Tensor big = tensorOf({2, 3, 7, 7}, randomValues(294, 36));
    QCOMPARE(errorKind([&] { run("Conv", {&x, &w4}); }), std::string("bad"));   // channels differ
    QCOMPARE(errorKind([&] { run("Conv", {&x, &big}); }), std::string("bad"));  // kernel beyond the input
    QCOMPARE(errorKind([&] { run("Conv", {&x, &w3}, {ir::Attribute::makeInt("group", 0)}); }), std::string("bad"));
    QCOMPARE(errorKind([&] {
               run("Conv", {&x, &w3}, {ir::Attribute::makeInts("pads", {-1, 0, 0, 0})});
             }),
             std::string("bad"));
    QCOMPARE(errorKind([&] { run("Conv", {&x, &w3}, {ir::Attribute::makeInts("strides", {1})}); }), std::string("bad"));
    QCOMPARE(errorKind([&] {
               run("ConvTranspose", {&w3, &x}, {ir::Attribute::makeInts("output_padding", {3, 3})});
             }),
             std::string("bad"));
    const eval::Tensor a = tensorOf({2, 3, 4}, randomValues(24, 37)), b = tensorOf({3, 5, 2}, randomValues(30, 38));
    QCOMPARE(errorKind([&] { run("MatMul", {&a, &b}); }), std::string("bad"));  // inner 4 vs 5
    const eval::Tensor c = tensorOf({3, 4, 2}, randomValues(24, 39));
    QCOMPARE(errorKind([&] { run("MatMul", {&a, &c}); }), std::string("bad"));  // batch 2 vs 3
    const eval::Tensor g1 = tensorOf({3, 4}, randomValues(12, 40)), g2 = tensorOf({5, 2}, randomValues(10, 41));
    QCOMPARE(errorKind([&] { run("Gemm", {&g1, &g2}, {}, 13); }), std::string("bad"));
    const eval::Tensor g3 = tensorOf({4, 2}, randomValues(8, 42)), cBad = tensorOf({2, 3}, randomValues(6, 43));
    QCOMPARE(errorKind([&] { run("Gemm", {&g1, &g3, &cBad}, {}, 13); }), std::string("bad"));  // C not [3,2]-able
    const eval::Tensor cRow = tensorOf({2}, randomValues(2, 44));
    QCOMPARE(errorKind([&] { run("Gemm", {&g1, &g3, &cRow}, {}, 6); }), std::string("bad"));  // broadcast = 0
    QCOMPARE(errorKind([&] {
               run("Gemm", {&g1, &g3, &cRow}, {ir::Attribute::makeInt("broadcast", 1)}, 6);
             }),
             std::string("none"));
    QCOMPARE(errorKind([&] { run("MaxPool", {&x}); }), std::string("bad"));  // no kernel_shape
    QCOMPARE(errorKind([&] {
               run("AveragePool", {&x}, {ir::Attribute::makeInts("kernel_shape", {9, 9})});
             }),
             std::string("bad"));
    const eval::Tensor flat = tensorOf({3, 5}, randomValues(15, 45));
    QCOMPARE(errorKind([&] { run("MaxPool", {&flat}, {ir::Attribute::makeInts("kernel_shape", {2})}); }),
             std::string("bad"));  // no spatial dim
    const eval::Tensor s3 = tensorOf({3}, {1, 1, 1});
    QCOMPARE(errorKind([&] {
               run("GroupNormalization", {&x, &s3, &s3}, {ir::Attribute::makeInt("num_groups", 2)}, 18);
             }),
             std::string("bad"));  // 2 groups do not divide 3 channels
    QCOMPARE(errorKind([&] {
               run("LayerNormalization", {&x, &s3}, {ir::Attribute::makeInt("axis", 4)});
             }),
             std::string("bad"));
    const eval::Tensor notSquare = tensorOf({2, 3}, randomValues(6, 46));
    QCOMPARE(errorKind([&] { run("Det", {&notSquare}, {}, 11); }), std::string("bad"));
  }
};

QTEST_GUILESS_MAIN(TestEvalNeural)
#include "test_eval_neural.moc"
