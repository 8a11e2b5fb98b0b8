#include "schema/static_shapes.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace fb::schema {
namespace {

bool isOneOf(const std::string& op, std::initializer_list<const char*> ops) {
  for (const char* o : ops)
    if (op == o) return true;
  return false;
}

int64_t axisIn(int64_t a, int64_t rank) { return a < 0 ? a + rank : a; }
bool validAxis(int64_t a, int64_t rank) { return a >= 0 && a < rank; }

// Product of dims, or nullopt for a negative dim or an overflow (dims come from the file).
std::optional<int64_t> product(const Dims& d, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t p = 1;
  for (size_t i = from; i < std::min(to, d.size()); ++i)
    if (d[i] < 0 || __builtin_mul_overflow(p, d[i], &p)) return std::nullopt;
  return p;
}

}  // namespace

std::optional<Dims> broadcastDims(const std::vector<Dims>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  Dims out(rank, 1);
  for (const auto& s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[rank - s.size() + i];
      int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  return out;
}

namespace {

// The axes of Squeeze, Unsqueeze and the reductions: the attribute (up to opset 12/17) or input 1. False when
// input 1 is there but its values are unknown; `axes` stays empty when neither is given.
bool readAxes(const ir::Node& n, const ValuesOf& valuesOf, std::optional<Dims>& axes) {
  if (n.hasAttr("axes"))
    axes = n.attrInts("axes");
  else if (n.input(1)) {
    if (const auto* a = valuesOf(n.input(1)))
      axes = *a;
    else
      return false;
  }
  return true;
}

// ---- layout: the same elements in another shape

std::optional<Dims> transposeShape(const ir::Node& n, const Dims& in0) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  Dims perm = n.attrInts("perm");
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != rank) return std::nullopt;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  Dims out;
  for (auto p : perm) {
    if (!validAxis(p, rank) || seen[static_cast<size_t>(p)]) return std::nullopt;
    seen[static_cast<size_t>(p)] = true;
    out.push_back(in0[static_cast<size_t>(p)]);
  }
  return out;
}

std::optional<Dims> reshapeShape(const ir::Node& n, const Dims& in0, const ValuesOf& valuesOf) {
  const auto* target = valuesOf(n.input(1));
  if (!target) return std::nullopt;
  Dims out = *target;
  int64_t known = 1, inferAt = -1;
  auto total = product(in0);
  if (!total || out.size() > 64) return std::nullopt;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && n.attrInt("allowzero", 0) == 0) {
      if (i >= in0.size()) return std::nullopt;
      out[i] = in0[i];
    }
    if (out[i] == -1 && inferAt < 0)
      inferAt = static_cast<int64_t>(i);
    else if (out[i] < 0 || __builtin_mul_overflow(known, out[i], &known))
      return std::nullopt;
  }
  if (inferAt >= 0) {
    if (known == 0 || *total % known != 0) return std::nullopt;
    out[static_cast<size_t>(inferAt)] = *total / known;
  }
  return out;
}

std::optional<Dims> flattenShape(const ir::Node& n, const Dims& in0) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  int64_t axis = axisIn(n.attrInt("axis", 1), rank);
  if (axis < 0 || axis > rank) return std::nullopt;
  auto a = product(in0, 0, static_cast<size_t>(axis)), b = product(in0, static_cast<size_t>(axis));
  if (!a || !b) return std::nullopt;
  return Dims{*a, *b};
}

std::optional<Dims> unsqueezeShape(const Dims& in0, const std::optional<Dims>& axes) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  if (!axes) return std::nullopt;
  if (axes->size() > 64) return std::nullopt;
  int64_t outRank = rank + static_cast<int64_t>(axes->size());
  Dims out(static_cast<size_t>(outRank), -1);
  for (auto a : *axes) {
    const int64_t at = axisIn(a, outRank);
    if (!validAxis(at, outRank) || out[static_cast<size_t>(at)] == 1) return std::nullopt;
    out[static_cast<size_t>(at)] = 1;
  }
  size_t k = 0;
  for (auto& d : out)
    if (d == -1) d = in0[k++];
  return out;
}

// Without axes, Squeeze drops every dim of 1.
std::optional<Dims> squeezeShape(const Dims& in0, const std::optional<Dims>& axes) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  if (axes)
    for (auto a : *axes)
      if (!validAxis(axisIn(a, rank), rank)) return std::nullopt;
  Dims out;
  for (int64_t i = 0; i < rank; ++i) {
    bool drop = axes ? std::any_of(axes->begin(), axes->end(), [&](int64_t a) { return axisIn(a, rank) == i; })
                     : in0[static_cast<size_t>(i)] == 1;
    if (!drop) out.push_back(in0[static_cast<size_t>(i)]);
  }
  return out;
}

// ---- products

std::optional<Dims> matMulShape(const Dims& in0, const std::optional<Dims>& b) {
  if (!b || in0.size() < 2 || b->size() < 2) return std::nullopt;
  Dims ba(in0.begin(), in0.end() - 2), bb(b->begin(), b->end() - 2);
  auto batch = broadcastDims({ba, bb});
  if (!batch) return std::nullopt;
  batch->push_back(in0[in0.size() - 2]);
  batch->push_back((*b)[b->size() - 1]);
  return batch;
}

std::optional<Dims> gemmShape(const ir::Node& n, const Dims& in0, const std::optional<Dims>& b) {
  if (!b || in0.size() != 2 || b->size() != 2) return std::nullopt;
  int64_t m = n.attrInt("transA", 0) ? in0[1] : in0[0];
  int64_t k = n.attrInt("transB", 0) ? (*b)[0] : (*b)[1];
  return Dims{m, k};
}

// ---- joining, picking and cutting

std::optional<Dims> concatShape(const ir::Node& n, const Dims& in0, const DimsOf& dimsOf) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  int64_t axis = axisIn(n.attrInt("axis", 0), rank);
  if (!validAxis(axis, rank)) return std::nullopt;
  Dims out = in0;
  for (size_t k = 1; k < n.inputs().size(); ++k) {
    auto d = dimsOf(n.input(k));
    if (!d || d->size() != in0.size()) return std::nullopt;
    out[static_cast<size_t>(axis)] += (*d)[static_cast<size_t>(axis)];
  }
  return out;
}

std::optional<Dims> gatherShape(const ir::Node& n, const Dims& in0, const std::optional<Dims>& idx) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  if (!idx) return std::nullopt;
  int64_t axis = axisIn(n.attrInt("axis", 0), rank);
  if (!validAxis(axis, rank)) return std::nullopt;
  Dims out(in0.begin(), in0.begin() + axis);
  out.insert(out.end(), idx->begin(), idx->end());
  out.insert(out.end(), in0.begin() + axis + 1, in0.end());
  return out;
}

// Slice from opset 10, with starts, ends, axes and steps as inputs.
std::optional<Dims> sliceShape(const ir::Node& n, const Dims& in0, const ValuesOf& valuesOf) {
  const int64_t rank = static_cast<int64_t>(in0.size());
  const auto* starts = valuesOf(n.input(1));
  const auto* ends = valuesOf(n.input(2));
  if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
  Dims axes, steps(starts->size(), 1);
  if (n.input(3)) {
    const auto* a = valuesOf(n.input(3));
    if (!a) return std::nullopt;
    axes = *a;
  } else {
    for (size_t i = 0; i < starts->size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (n.input(4)) {
    const auto* s = valuesOf(n.input(4));
    if (!s) return std::nullopt;
    steps = *s;
  }
  if (axes.size() != starts->size() || steps.size() != starts->size()) return std::nullopt;
  Dims out = in0;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = axisIn(axes[i], rank);
    if (!validAxis(ax, rank)) return std::nullopt;
    int64_t dim = in0[static_cast<size_t>(ax)], step = steps[i];
    if (step <= 0) return std::nullopt;  // only what exporters emit for shapes: forward slices
    int64_t s = (*starts)[i], e = (*ends)[i];
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    s = std::clamp<int64_t>(s, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    out[static_cast<size_t>(ax)] = e > s ? (e - s + step - 1) / step : 0;
  }
  return out;
}

// Every Reduce* op; no axes (or empty ones) reduce all dims unless noop_with_empty_axes.
std::optional<Dims> reduceShape(const ir::Node& n, const Dims& in0, const std::optional<Dims>& axes) {
  // ReduceSum-13: no axes (or empty ones) with noop_with_empty_axes is an identity, not a full reduction.
  if ((!axes || axes->empty()) && n.attrInt("noop_with_empty_axes", 0) != 0) return in0;
  const int64_t rank = static_cast<int64_t>(in0.size());
  bool keep = n.attrInt("keepdims", 1) != 0;
  if (axes)
    for (auto a : *axes)
      if (!validAxis(axisIn(a, rank), rank)) return std::nullopt;
  Dims out;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = !axes || axes->empty() ||
                   std::any_of(axes->begin(), axes->end(), [&](int64_t a) { return axisIn(a, rank) == i; });
    if (!reduced)
      out.push_back(in0[static_cast<size_t>(i)]);
    else if (keep)
      out.push_back(1);
  }
  return out;
}

}  // namespace

std::optional<Dims> staticOutputShape(const ir::Node& n, const DimsOf& dimsOf, const ValuesOf& valuesOf) {
  if (!n.isDefaultDomain() || n.inputs().empty()) return std::nullopt;
  const std::string& op = n.opType;
  auto in0 = dimsOf(n.input(0));
  if (isOneOf(op, {"Relu",        "Sigmoid",   "Tanh",      "Sqrt", "Exp",
                   "Log",         "Neg",       "Abs",       "Erf",  "Softmax",
                   "LogSoftmax",  "Identity",  "Dropout",   "Cast", "LayerNormalization",
                   "HardSigmoid", "HardSwish", "LeakyRelu", "Clip", "BatchNormalization",
                   "Reciprocal",  "Floor",     "Ceil",      "Not",  "Elu",
                   "Selu",        "Softplus"}))
    return in0;
  if (isOneOf(op, {"Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less", "Greater", "And", "Or", "Where", "Max", "Min",
                   "Sum", "Mean", "PRelu"})) {
    std::vector<Dims> shapes;
    for (const ir::Value* v : n.inputs()) {
      auto d = dimsOf(v);
      if (!d) return std::nullopt;
      shapes.push_back(*d);
    }
    return broadcastDims(shapes);
  }
  if (!in0 || in0->size() > 64) return std::nullopt;
  if (op == "Transpose") return transposeShape(n, *in0);
  if (op == "Reshape") return reshapeShape(n, *in0, valuesOf);
  if (op == "MatMul") return matMulShape(*in0, dimsOf(n.input(1)));
  if (op == "Gemm") return gemmShape(n, *in0, dimsOf(n.input(1)));
  if (op == "Shape") return std::nullopt;  // its value is what matters; handled by the evaluator
  if (op == "Unsqueeze" || op == "Squeeze") {
    std::optional<Dims> axes;
    if (!readAxes(n, valuesOf, axes)) return std::nullopt;
    return op == "Unsqueeze" ? unsqueezeShape(*in0, axes) : squeezeShape(*in0, axes);
  }
  if (op == "Concat") return concatShape(n, *in0, dimsOf);
  if (op == "Gather") return gatherShape(n, *in0, dimsOf(n.input(1)));
  if (op == "Flatten") return flattenShape(n, *in0);
  if (op.rfind("Reduce", 0) == 0) {
    std::optional<Dims> axes;
    if (!readAxes(n, valuesOf, axes)) return std::nullopt;
    return reduceShape(n, *in0, axes);
  }
  if (op == "Slice" && !n.hasAttr("starts")) return sliceShape(n, *in0, valuesOf);
  return std::nullopt;
}

}  // namespace fb::schema
