#include "formats/oneflow/shape_inference.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "formats/oneflow/job_import.h"
#include "formats/tensor_size.h"
#include "ir/graph.h"

namespace fb::oneflow {
namespace {

using Dims = std::vector<int64_t>;

// Attributes and shapes come from the file: every rule below checks ranges before indexing or dividing, and
// works only with dims and attribute values of sane size so that no product or sum overflows.
constexpr int64_t kMaxDim = int64_t{1} << 40;
constexpr int64_t kMaxAttr = int64_t{1} << 31;

bool sane(int64_t v) { return v > -kMaxAttr && v < kMaxAttr; }

std::optional<Dims> dimsOf(const ir::Value* v) {
  if (!v) return std::nullopt;
  auto d = v->type.staticDims();
  if (!d || d->size() > 64) return std::nullopt;
  for (auto x : *d)
    if (x < 0 || x > kMaxDim) return std::nullopt;
  if (!checkedElementCount(*d)) return std::nullopt;
  return d;
}

// The input recorded under OneFlow argument `name` (the first one when it repeats).
const ir::Value* arg(const ir::Node& n, const std::string& name) {
  const auto* a = n.attr(kInputArgsAttr);
  if (!a) return n.input(0);
  for (size_t i = 0; i < a->strings.size(); ++i)
    if (a->strings[i] == name) return n.input(i);
  return nullptr;
}

std::optional<Dims> broadcast(const Dims& a, const Dims& b) {
  Dims out(std::max(a.size(), b.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// -1 when the window does not fit or the attributes are out of range.
int64_t pooledSize(int64_t in, int64_t k, int64_t s, int64_t pad, int64_t dil, bool ceil) {
  if (k < 1 || s < 1 || dil < 1 || pad < 0 || !sane(k) || !sane(s) || !sane(dil) || !sane(pad)) return -1;
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1;
  if (span < 0) return -1;
  int64_t out = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (out - 1) * s >= in + pad) --out;  // the last window must start inside the input or left padding
  return out;
}

// Spatial NCHW output of conv/pooling.
std::optional<Dims> windowed(const Dims& x, int64_t channels, const Dims& kernel, const Dims& strides, const Dims& pads,
                             const Dims& dilations, bool ceil) {
  if (x.size() != kernel.size() + 2) return std::nullopt;
  Dims out{x[0], channels};
  for (size_t i = 0; i < kernel.size(); ++i) {
    const int64_t s = i < strides.size() ? strides[i] : 1;
    const int64_t p = i < pads.size() ? pads[i] : 0;
    const int64_t d = i < dilations.size() ? dilations[i] : 1;
    const int64_t o = pooledSize(x[i + 2], kernel[i], s, p, d, ceil);
    if (o < 1) return std::nullopt;
    out.push_back(o);
  }
  return out;
}

using Rule = std::function<std::optional<Dims>(const ir::Node&)>;

std::optional<Dims> sameAsFirst(const ir::Node& n) { return dimsOf(n.input(0)); }

std::optional<Dims> elementwise(const ir::Node& n) {
  std::optional<Dims> out = dimsOf(n.input(0));
  for (size_t i = 1; out && i < n.inputs().size(); ++i) {
    auto d = dimsOf(n.input(i));
    if (!d) return std::nullopt;
    out = broadcast(*out, *d);
  }
  return out;
}

std::optional<Dims> conv(const ir::Node& n) {
  auto x = dimsOf(arg(n, "in"));
  auto w = dimsOf(arg(n, "weight"));
  if (!x || !w || w->empty()) return std::nullopt;
  Dims k = n.attrInts("kernel_size");
  return windowed(*x, (*w)[0], k, n.attrInts("strides"), n.attrInts("padding_before"), n.attrInts("dilation_rate"),
                  false);
}

std::optional<Dims> pool(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x || x->size() < 2) return std::nullopt;
  Dims k = n.hasAttr("kernel_size") ? n.attrInts("kernel_size") : n.attrInts("pool_size");
  Dims s = n.hasAttr("stride") ? n.attrInts("stride") : n.attrInts("strides");
  Dims p = n.hasAttr("padding_before") ? n.attrInts("padding_before") : n.attrInts("padding");
  return windowed(*x, (*x)[1], k, s, p, n.attrInts("dilation"), n.attrInt("ceil_mode", 0) != 0);
}

std::optional<Dims> matmul(const ir::Node& n) {
  auto a = dimsOf(n.input(0));
  auto b = dimsOf(n.input(1));
  if (!a || !b || a->size() < 2 || b->size() < 2) return std::nullopt;
  const bool ta = n.attrInt("transpose_a", 0), tb = n.attrInt("transpose_b", 0);
  const int64_t m = ta ? a->back() : (*a)[a->size() - 2];
  const int64_t cols = tb ? (*b)[b->size() - 2] : b->back();
  Dims batchA(a->begin(), a->end() - 2), batchB(b->begin(), b->end() - 2);
  auto batch = broadcast(batchA, batchB);
  if (!batch) return std::nullopt;
  batch->push_back(m);
  batch->push_back(cols);
  return batch;
}

std::optional<Dims> reshape(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  Dims shape = n.attrInts("shape");
  if (!x || shape.size() > 64) return std::nullopt;
  const int64_t total = static_cast<int64_t>(*checkedElementCount(*x));
  int64_t unknownAt = -1;
  Dims known;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && unknownAt < 0)
      unknownAt = static_cast<int64_t>(i);
    else if (shape[i] < 0 || shape[i] > kMaxDim)
      return std::nullopt;
    else
      known.push_back(shape[i]);
  }
  auto k = checkedElementCount(known);
  if (!k) return std::nullopt;
  if (unknownAt >= 0) {
    if (*k == 0 || total % static_cast<int64_t>(*k) != 0) return std::nullopt;
    shape[unknownAt] = total / static_cast<int64_t>(*k);
  } else if (static_cast<int64_t>(*k) != total) {
    return std::nullopt;
  }
  return shape;
}

std::optional<Dims> flatten(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x) return std::nullopt;
  const int64_t r = static_cast<int64_t>(x->size());
  int64_t s = n.attrInt("start_dim", 0), e = n.attrInt("end_dim", -1);
  if (s < 0) s += r;
  if (e < 0) e += r;
  if (s < 0 || e >= r || s > e) return std::nullopt;
  Dims out(x->begin(), x->begin() + s);
  int64_t p = 1;
  for (int64_t i = s; i <= e; ++i) p *= (*x)[i];
  out.push_back(p);
  out.insert(out.end(), x->begin() + e + 1, x->end());
  return out;
}

std::optional<Dims> transpose(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x) return std::nullopt;
  const Dims perm = n.attrInts("perm");
  if (perm.size() != x->size()) return std::nullopt;
  std::vector<bool> seen(x->size(), false);
  Dims out;
  for (auto p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(x->size()) || seen[p]) return std::nullopt;
    seen[p] = true;
    out.push_back((*x)[p]);
  }
  return out;
}

std::optional<Dims> concat(const ir::Node& n) {
  auto out = dimsOf(n.input(0));
  if (!out) return std::nullopt;
  int64_t axis = n.attrInt("axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(out->size());
  if (axis < 0 || axis >= static_cast<int64_t>(out->size())) return std::nullopt;
  for (size_t i = 1; i < n.inputs().size(); ++i) {
    auto d = dimsOf(n.input(i));
    if (!d || d->size() != out->size()) return std::nullopt;
    (*out)[axis] += (*d)[axis];
    if ((*out)[axis] > kMaxDim) return std::nullopt;
  }
  return out;
}

std::optional<Dims> adaptivePool(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x || x->size() < 2) return std::nullopt;
  Dims out{(*x)[0], (*x)[1]};
  const Dims size = n.attrInts("output_size");
  if (x->size() < 3 || (size.size() != 1 && size.size() != x->size() - 2)) return std::nullopt;
  for (auto d : size) {
    if (d < 1 || d > kMaxDim) return std::nullopt;
    out.push_back(d);
  }
  // output_size (h) on a 4-D input means h x h
  while (out.size() < x->size()) out.push_back(out.back());
  return out;
}

std::optional<Dims> expandDims(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x) return std::nullopt;
  int64_t axis = n.attrInt("axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(x->size()) + 1;
  if (axis < 0 || axis > static_cast<int64_t>(x->size())) return std::nullopt;
  x->insert(x->begin() + axis, 1);
  return x;
}

std::optional<Dims> squeeze(const ir::Node& n) {
  auto x = dimsOf(n.input(0));
  if (!x) return std::nullopt;
  Dims axes = n.attrInts("axes");
  Dims out;
  for (int64_t i = 0; i < static_cast<int64_t>(x->size()); ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end() &&
        std::find(axes.begin(), axes.end(), i - static_cast<int64_t>(x->size())) == axes.end())
      out.push_back((*x)[i]);
  return out;
}

const std::unordered_map<std::string, Rule>& rules() {
  static const std::unordered_map<std::string, Rule> r = [] {
    std::unordered_map<std::string, Rule> m;
    for (const char* op : {"relu",
                           "sigmoid",
                           "tanh",
                           "hardswish",
                           "hardsigmoid",
                           "hardtanh",
                           "silu",
                           "gelu",
                           "mish",
                           "elu",
                           "leaky_relu",
                           "prelu",
                           "softmax",
                           "log_softmax",
                           "identity",
                           "output",
                           "return",
                           "scalar_mul",
                           "scalar_add",
                           "scalar_div",
                           "scalar_pow",
                           "dropout",
                           "layer_norm",
                           "normalization",
                           "bias_add",
                           "clip_by_scalar",
                           "cast",
                           "abs",
                           "exp",
                           "sqrt",
                           "neg",
                           "amp_white_identity",
                           "amp_black_identity",
                           "fused_bias_add_gelu"})
      m[op] = sameAsFirst;
    for (const char* op : {"broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_div", "add_n", "multiply",
                           "broadcast_maximum", "broadcast_minimum"})
      m[op] = elementwise;
    m["conv2d"] = m["conv1d"] = conv;
    for (const char* op :
         {"max_pool_2d", "avg_pool_2d", "maxpool_2d", "avgpool_2d", "tf_max_pool_2d", "tf_avg_pool_2d"})
      m[op] = pool;
    m["matmul"] = m["batch_matmul"] = m["broadcast_matmul"] = matmul;
    m["reshape"] = reshape;
    m["flatten"] = flatten;
    m["transpose"] = transpose;
    m["concat"] = m["cat"] = concat;
    m["adaptive_avg_pool2d"] = adaptivePool;
    m["expand_dims"] = expandDims;
    m["squeeze"] = squeeze;
    return m;
  }();
  return r;
}

}  // namespace

size_t inferOneflowShapes(ir::Graph& g) {
  size_t typed = 0;
  for (const auto& np : g.nodes()) {
    ir::Node& n = *np;
    ir::Value* out = n.output(0);
    if (!out || out->type.hasStaticShape()) continue;
    auto it = rules().find(n.opType);
    if (it == rules().end()) continue;
    auto dims = it->second(n);
    if (!dims) continue;
    ir::Shape s;
    for (auto d : *dims) s.push_back(ir::Dim::of(d));
    auto dt = n.input(0) && n.input(0)->type.isTensor() ? n.input(0)->type.elemType : ir::DataType::Float;
    if (n.opType == "cast") dt = static_cast<ir::DataType>(n.attrInt("dtype", static_cast<int64_t>(dt)));
    out->type = ir::TypeInfo::tensor(dt, std::move(s));
    ++typed;
  }
  return typed;
}

}  // namespace fb::oneflow
