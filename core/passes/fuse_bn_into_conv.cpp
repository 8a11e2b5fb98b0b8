// Inference BatchNormalization after a Conv is a per-output-channel scale and shift, which folds into the
// Conv's weights and bias: W' = W * s, b' = (b - mean) * s + beta, s = gamma / sqrt(var + eps).
// The parameters are found through Identity nodes (PyTorch's raw exports route them so), and the folding
// runs on the raw float/double bytes in one pass over W, which keeps big models cheap.
#include <cmath>
#include <cstring>

#include <algorithm>

#include "passes/pass_registry.h"
#include "passes/weight_buffer.h"
#include "passes/rewrite_utils.h"
#include "util/idle_memory.h"

namespace fb::passes {
namespace {

template <typename T>
ir::Tensor scaledWeights(const ir::Tensor& w, const std::vector<double>& s) {
  auto b = w.bytes();
  const size_t n = b.size() / sizeof(T), per = n / s.size();
  auto buf = std::make_shared<WeightBuffer>(n * sizeof(T));
  T* dst = reinterpret_cast<T*>(buf->writable());
  for (size_t c = 0; c < s.size(); ++c) {
    // Scaling in T (not double) keeps the loop vectorizable; it costs at most an ulp.
    const T sc = static_cast<T>(s[c]);
    T row[256];
    for (size_t k = c * per; k < (c + 1) * per; k += 256) {
      const size_t len = std::min<size_t>(256, (c + 1) * per - k);
      std::memcpy(row, b.data() + k * sizeof(T), len * sizeof(T));  // the source may be unaligned
      for (size_t q = 0; q < len; ++q) dst[k + q] = row[q] * sc;
    }
  }
  ir::Tensor t;
  t.dtype = w.dtype;
  t.dims = w.dims;
  t.setBuffer(std::move(buf));
  return t;
}

template <typename T>
ir::Tensor vectorTensor(ir::DataType dt, const std::vector<double>& v) {
  std::vector<T> x(v.begin(), v.end());
  return ir::Tensor::fromValues<T>("", dt, {static_cast<int64_t>(v.size())}, x);
}

class FuseBnIntoConv final : public GraphPass {
 public:
  std::string_view name() const override { return "fuse_bn_into_conv"; }
  std::string_view description() const override {
    return "Fold inference BatchNormalization into the preceding Conv's weights and bias";
  }
  TypeNeeds typeNeeds() const override { return TypeNeeds::none(); }
  std::vector<std::string_view> anchorOps() const override { return {"BatchNormalization"}; }
  // A rewrite here reads the node and its direct neighbours (constants through Identity chains, which the journal
  // follows).
  int worklistRadius() const override { return 1; }
  PassChange runOnGraph(ir::Model& m, ir::Graph& g) override {
    Rewriter rw(m, g);
    MappedReadBudget budget;  // the weights read here are replaced: their mapped pages need not stay
    // The initializers a fusion leaves unread (the BatchNormalization's four, the Conv's old weight and bias)
    // go as the pass goes, as onnxoptimizer's pass drops them: on node-heavy graphs the new weights would
    // otherwise pile up on top of all the old ones until eliminate_unused_initializer runs.
    // A sweep costs the whole graph: at most eight of them, however big it is.
    const size_t sweepEvery = std::max<size_t>(4096, g.valueCount() / 8);
    std::vector<ir::Value*> replaced, orphans;  // orphans: values the fusions left unproduced and unread
    auto dropUnread = [&] {
      std::vector<ir::Value*> dead;
      for (ir::Value* v : replaced)
        if (v->initializer() && v->uses().empty() && !v->isGraphInput() && !rw.pinned(v)) dead.push_back(v);
      std::sort(dead.begin(), dead.end());
      dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
      g.removeInitializers(dead);
      dead.insert(dead.end(), orphans.begin(), orphans.end());
      g.pruneValues(dead);
      rw.change.initializersRemoved += dead.size() - orphans.size();
      replaced.clear();
      orphans.clear();
    };
    for (ir::Node* bn : nodesToVisit(g)) {
      if (bn->opType != "BatchNormalization" || !bn->isDefaultDomain()) continue;
      ir::Value* x = bn->input(0);
      ir::Node* conv = x ? x->producer() : nullptr;
      if (!conv || conv->opType != "Conv" || !conv->isDefaultDomain() || soleConsumer(x) != bn) continue;
      if (!inferenceMode(*bn, rw.opset())) continue;
      const ir::Tensor* w = constantTensor(conv->input(1));
      const ir::Tensor* b = conv->input(2) ? constantTensor(conv->input(2)) : nullptr;
      if (!w || (conv->input(2) && !b) || w->dims.empty()) continue;
      const ir::Tensor* p[4];
      bool ok = w->dtype == ir::DataType::Float || w->dtype == ir::DataType::Double;
      for (int k = 0; k < 4 && ok; ++k) {
        p[k] = constantTensor(bn->input(k + 1));
        ok = p[k] && p[k]->dtype == w->dtype && p[k]->numElements() == w->dims[0];
      }
      if (!ok || (b && (b->dtype != w->dtype || b->numElements() != w->dims[0]))) continue;
      const double eps = bn->attrFloat("epsilon", 1e-5f);
      auto gamma = p[0]->asDouble(), beta = p[1]->asDouble(), mean = p[2]->asDouble(), var = p[3]->asDouble();
      std::vector<double> bias = b ? b->asDouble() : std::vector<double>(gamma.size(), 0.0);
      std::vector<double> s(gamma.size()), nb(gamma.size());
      for (size_t c = 0; c < s.size(); ++c) {
        // float32 BN computes sqrt(var + eps) in float; keep that rounding so results match a runtime.
        double denom =
            w->dtype == ir::DataType::Float ? double(std::sqrt(float(var[c]) + float(eps))) : std::sqrt(var[c] + eps);
        s[c] = gamma[c] / denom;
        nb[c] = (bias[c] - mean[c]) * s[c] + beta[c];
      }
      const bool isF = w->dtype == ir::DataType::Float;
      ir::Tensor nw = isF ? scaledWeights<float>(*w, s) : scaledWeights<double>(*w, s);
      budget.read(w->expectedBytes());
      ir::Tensor nbT = isF ? vectorTensor<float>(w->dtype, nb) : vectorTensor<double>(w->dtype, nb);
      std::string base = conv->name.empty() ? conv->output(0)->name() : conv->name;
      ir::Value* wv = rw.addConstant(std::move(nw), base + "_bn_weight");
      ir::Value* bv = rw.addConstant(std::move(nbT), base + "_bn_bias");
      replaced.push_back(conv->input(1));
      if (conv->input(2)) replaced.push_back(conv->input(2));
      for (int k = 1; k <= 4; ++k) replaced.push_back(bn->input(k));
      conv->setInput(1, wv);
      conv->setInput(2, bv);
      ir::Value* y = bn->output(0);
      conv->origins = mergeOrigins({conv, bn});
      for (size_t k = 1; k < bn->outputs().size(); ++k) orphans.push_back(bn->output(k));  // unread (inferenceMode)
      rw.erase(bn);
      g.setOutput(conv, 0, y);
      orphans.push_back(x);
      if (replaced.size() >= sweepEvery) dropUnread();
    }
    dropUnread();
    return rw.change;
  }

 private:
  static bool inferenceMode(const ir::Node& bn, int64_t opset) {
    for (size_t k = 1; k < bn.outputs().size(); ++k)
      if (ir::Value* o = bn.output(k); o && (!o->uses().empty() || o->isGraphOutput())) return false;
    if (bn.attrInt("training_mode", 0) != 0) return false;
    if (opset < 7 && bn.attrInt("is_test", 0) == 0) return false;
    if (opset < 9 && bn.attrInt("spatial", 1) != 1) return false;
    return bn.inputs().size() >= 5;
  }
};

}  // namespace
void registerFuseBnIntoConv(bool inDefault) { registerPass<FuseBnIntoConv>(inDefault); }
}  // namespace fb::passes
