#include "schema/opsets_18_26/static_shapes.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "schema/opsets_18_26/op_facts.h"
#include "ir/graph.h"

namespace fb::schema::opsets_18_26 {
namespace {

using Shapes = std::vector<std::optional<Dims>>;

int64_t axisIn(int64_t a, int64_t rank) { return a < 0 ? a + rank : a; }
bool validAxis(int64_t a, int64_t rank) { return a >= 0 && a < rank; }

// Float contents of a constant input (initializer or Constant node): Resize scales.
std::optional<std::vector<double>> constantDoubles(const ir::Value* v) {
  if (!v) return std::nullopt;
  if (const ir::Tensor* t = v->initializer(); t && t->numElements() <= 64) return t->asDouble();
  const ir::Node* p = v->producer();
  if (p && p->isDefaultDomain() && p->opType == "Constant")
    if (const auto* a = p->attr("value"); a && !a->tensors.empty() && a->tensors[0].numElements() <= 64)
      return a->tensors[0].asDouble();
  return std::nullopt;
}

// Reduce*-18 (and ReduceMax/Min-20): axes from the optional input; none (or empty) = all axes unless
// noop_with_empty_axes, which makes the op an identity.
std::optional<Dims> reduce(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  const int64_t rank = static_cast<int64_t>(in.size());
  Dims axes;
  if (n.input(1)) {
    const auto* a = valuesOf(n.input(1));
    if (!a) return std::nullopt;
    axes = *a;
  }
  if (axes.empty() && n.attrInt("noop_with_empty_axes", 0) != 0) return in;
  const bool keep = n.attrInt("keepdims", 1) != 0;
  std::vector<bool> reduced(in.size(), axes.empty());
  for (int64_t a : axes) {
    a = axisIn(a, rank);
    if (!validAxis(a, rank)) return std::nullopt;
    reduced[static_cast<size_t>(a)] = true;
  }
  Dims out;
  for (size_t i = 0; i < in.size(); ++i)
    if (!reduced[i])
      out.push_back(in[i]);
    else if (keep)
      out.push_back(1);
  return out;
}

Shapes split(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  Shapes out(n.outputs().size());
  const int64_t rank = static_cast<int64_t>(in.size());
  const int64_t axis = axisIn(n.attrInt("axis", 0), rank);
  if (!validAxis(axis, rank)) return out;
  const int64_t dim = in[static_cast<size_t>(axis)];
  Dims sizes;
  if (n.input(1)) {
    const auto* s = valuesOf(n.input(1));
    if (!s) return out;
    sizes = *s;
  } else {
    // num_outputs = k: chunks of ceil(dim / k), the last one smaller (without it: equal parts per output).
    const int64_t parts = n.attrInt("num_outputs", static_cast<int64_t>(n.outputs().size()));
    // One output per part (a file can say otherwise; then the shapes are not known, and no loop runs long).
    if (parts <= 0 || parts != static_cast<int64_t>(n.outputs().size()) || dim < 0) return out;
    const int64_t chunk = dim / parts + (dim % parts != 0);
    for (int64_t left = dim; left > 0; left -= chunk) sizes.push_back(std::min(chunk, left));
  }
  if (sizes.size() != n.outputs().size()) return out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    Dims d = in;
    d[static_cast<size_t>(axis)] = sizes[i];
    out[i] = d;
  }
  return out;
}

// Pad-18+: pads cover the axes input (all axes without it), begins then ends.
std::optional<Dims> pad(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  const auto* pads = valuesOf(n.input(1));
  if (!pads) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(in.size());
  Dims axes;
  if (n.input(3)) {
    const auto* a = valuesOf(n.input(3));
    if (!a) return std::nullopt;
    axes = *a;
  } else {
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (pads->size() != 2 * axes.size()) return std::nullopt;
  Dims out = in;
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t a = axisIn(axes[k], rank);
    if (!validAxis(a, rank)) return std::nullopt;
    int64_t& d = out[static_cast<size_t>(a)];
    if (__builtin_add_overflow(d, (*pads)[k], &d) || __builtin_add_overflow(d, (*pads)[k + axes.size()], &d) || d < 0)
      return std::nullopt;
  }
  return out;
}

std::optional<Dims> centerCropPad(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  const auto* shape = valuesOf(n.input(1));
  if (!shape) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(in.size());
  Dims axes = n.attrInts("axes");
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  if (axes.size() != shape->size()) return std::nullopt;
  Dims out = in;
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t a = axisIn(axes[k], rank);
    if (!validAxis(a, rank) || (*shape)[k] < 0) return std::nullopt;
    out[static_cast<size_t>(a)] = (*shape)[k];
  }
  return out;
}

// Resize-18/19: sizes or scales over `axes` (every axis without it); keep_aspect_ratio_policy scales the
// sized axes alike.
std::optional<Dims> resize(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  const int64_t rank = static_cast<int64_t>(in.size());
  Dims axes = n.attrInts("axes");
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  for (auto& a : axes) {
    a = axisIn(a, rank);
    if (!validAxis(a, rank)) return std::nullopt;
  }
  Dims out = in;
  if (n.input(3)) {
    const auto* sizes = valuesOf(n.input(3));
    if (!sizes || sizes->size() != axes.size()) return std::nullopt;
    const std::string policy = n.attrString("keep_aspect_ratio_policy", "stretch");
    if (policy == "stretch") {
      for (size_t k = 0; k < axes.size(); ++k) out[static_cast<size_t>(axes[k])] = (*sizes)[k];
      return out;
    }
    double scale = policy == "not_larger" ? 1e300 : 0.0;
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t d = in[static_cast<size_t>(axes[k])];
      if (d <= 0) return std::nullopt;
      const double s = static_cast<double>((*sizes)[k]) / static_cast<double>(d);
      scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
    }
    for (int64_t a : axes) {
      const double d = scale * static_cast<double>(in[static_cast<size_t>(a)]);
      if (!(d >= 0 && d < 1e15)) return std::nullopt;  // values from the file: not a shape
      out[static_cast<size_t>(a)] = std::llround(d);
    }
    return out;
  }
  auto scales = constantDoubles(n.input(2));
  if (!scales || scales->size() != axes.size()) return std::nullopt;
  for (size_t k = 0; k < axes.size(); ++k) {
    const double d = std::floor(static_cast<double>(in[static_cast<size_t>(axes[k])]) * (*scales)[k]);
    if (!(d >= 0 && d < 1e15)) return std::nullopt;
    out[static_cast<size_t>(axes[k])] = static_cast<int64_t>(d);
  }
  return out;
}

// AveragePool-19/22, LpPool-18/22: the pooling output size with dilations and ceil_mode (opset 22: a window
// that would start in the right padding is dropped).
std::optional<Dims> pool(const ir::Node& n, const Dims& in) {
  if (in.size() < 3) return std::nullopt;
  const Dims k = n.attrInts("kernel_shape");
  const size_t sp = in.size() - 2;
  if (k.size() != sp) return std::nullopt;
  Dims s = n.attrInts("strides"), d = n.attrInts("dilations"), p = n.attrInts("pads");
  if (s.empty()) s.assign(sp, 1);
  if (d.empty()) d.assign(sp, 1);
  if (p.empty()) p.assign(2 * sp, 0);
  if (s.size() != sp || d.size() != sp || p.size() != 2 * sp) return std::nullopt;
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  const bool ceil = n.attrInt("ceil_mode", 0) != 0;
  Dims out(in.begin(), in.begin() + 2);
  for (size_t i = 0; i < sp; ++i) {
    const int64_t x = in[i + 2];
    int64_t window = 0;
    if (k[i] <= 0 || d[i] <= 0 || s[i] <= 0 || __builtin_mul_overflow(k[i] - 1, d[i], &window) || x < 0 ||
        window > (int64_t(1) << 40) || x > (int64_t(1) << 40) || p[i] < 0 || p[i + sp] < 0 ||
        p[i] > (int64_t(1) << 40) || p[i + sp] > (int64_t(1) << 40))
      return std::nullopt;  // values from the file: not a pool
    ++window;
    int64_t o;
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
      o = (x + s[i] - 1) / s[i];
    else if (autoPad == "VALID")
      o = x >= window ? (x - window) / s[i] + 1 : 0;
    else {
      const int64_t span = x + p[i] + p[i + sp] - window;
      if (span < 0) return std::nullopt;
      o = (ceil ? (span + s[i] - 1) / s[i] : span / s[i]) + 1;
      if (ceil && (o - 1) * s[i] >= x + p[i]) --o;
    }
    out.push_back(o);
  }
  return out;
}

std::optional<Dims> dft(const ir::Node& n, const Dims& in, const ValuesOf& valuesOf) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (rank < 2) return std::nullopt;
  int64_t axis = -2;
  if (n.input(2)) {
    const auto* a = valuesOf(n.input(2));
    if (!a || a->size() != 1) return std::nullopt;
    axis = (*a)[0];
  }
  axis = axisIn(axis, rank);
  if (!validAxis(axis, rank - 1)) return std::nullopt;
  Dims out = in;
  int64_t len = in[static_cast<size_t>(axis)];
  if (n.input(1)) {
    const auto* l = valuesOf(n.input(1));
    if (!l || l->size() != 1) return std::nullopt;
    len = (*l)[0];
  }
  const bool inverse = n.attrInt("inverse", 0) != 0, onesided = n.attrInt("onesided", 0) != 0;
  if (onesided && inverse) return std::nullopt;
  out[static_cast<size_t>(axis)] = onesided ? len / 2 + 1 : len;
  out.back() = 2;
  return out;
}

// Attention-23..25: Y (and the KV cache's present_key/present_value) for 4-D [B, heads, seq, head] or 3-D
// [B, seq, heads * head] inputs.
Shapes attention(const ir::Node& n, const DimsOf& dimsOf) {
  Shapes out(n.outputs().size());
  auto q = dimsOf(n.input(0)), k = dimsOf(n.input(1)), v = dimsOf(n.input(2));
  if (!q || !k || !v || q->size() != k->size() || q->size() != v->size()) return out;
  auto sane = [](const Dims& d) {
    return std::all_of(d.begin(), d.end(), [](int64_t x) { return x >= 0 && x < (int64_t(1) << 31); });
  };
  if (!sane(*q) || !sane(*k) || !sane(*v)) return out;  // values from the file: keep the arithmetic below in range
  const int64_t past = [&]() -> int64_t {
    auto pk = n.input(4) ? dimsOf(n.input(4)) : std::nullopt;
    return pk && pk->size() == 4 && (*pk)[2] >= 0 && (*pk)[2] < (int64_t(1) << 31) ? (*pk)[2] : (n.input(4) ? -1 : 0);
  }();
  if (q->size() == 4) {
    out[0] = Dims{(*q)[0], (*q)[1], (*q)[2], (*v)[3]};
    if (past >= 0 && out.size() > 2) {
      out[1] = Dims{(*k)[0], (*k)[1], past + (*k)[2], (*k)[3]};
      out[2] = Dims{(*v)[0], (*v)[1], past + (*v)[2], (*v)[3]};
    }
    return out;
  }
  if (q->size() != 3) return out;
  const int64_t qh = n.attrInt("q_num_heads", 0), kvh = n.attrInt("kv_num_heads", 0);
  if (qh <= 0 || kvh <= 0 || qh > (int64_t(1) << 20) || (*v)[2] % kvh != 0 || (*k)[2] % kvh != 0) return out;
  out[0] = Dims{(*q)[0], (*q)[1], qh * ((*v)[2] / kvh)};
  if (past >= 0 && out.size() > 2) {
    out[1] = Dims{(*k)[0], kvh, past + (*k)[1], (*k)[2] / kvh};
    out[2] = Dims{(*v)[0], kvh, past + (*v)[1], (*v)[2] / kvh};
  }
  return out;
}

bool isOneOf(const std::string& op, std::initializer_list<const char*> ops) {
  for (const char* o : ops)
    if (op == o) return true;
  return false;
}

}  // namespace

std::vector<std::optional<Dims>> staticOutputShapes(const ir::Node& n, int64_t opset, const DimsOf& dimsOf,
                                                    const ValuesOf& valuesOf) {
  if (!n.isDefaultDomain() || !schemaFact(n.opType, opset) || n.inputs().empty()) return {};
  const std::string& op = n.opType;
  Shapes out(n.outputs().size());
  if (op == "Attention") return attention(n, dimsOf);
  if (op == "OptionalHasElement") {
    out[0] = Dims{};
    return out;
  }
  auto in0 = dimsOf(n.input(0));
  if (isOneOf(op, {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "Equal"})) {
    auto b = dimsOf(n.input(1));
    if (in0 && b) out[0] = broadcastDims({*in0, *b});
    return out;
  }
  if (!in0 || in0->size() > 64) return out;
  const Dims& in = *in0;
  if (isOneOf(op, {"Mish",
                   "Gelu",
                   "Swish",
                   "GroupNormalization",
                   "RMSNormalization",
                   "RotaryEmbedding",
                   "BitwiseNot",
                   "CumProd",
                   "Cast",
                   "CastLike",
                   "QuantizeLinear",
                   "DequantizeLinear",
                   "ScatterElements",
                   "ScatterND",
                   "TensorScatter",
                   "OptionalGetElement",
                   "Identity",
                   "IsInf",
                   "IsNaN",
                   "Dropout",
                   "Elu",
                   "Selu",
                   "HardSigmoid",
                   "HardSwish",
                   "Softplus",
                   "Softsign",
                   "ThresholdedRelu",
                   "Round",
                   "Acos",
                   "Acosh",
                   "Asin",
                   "Asinh",
                   "Atan",
                   "Atanh",
                   "Cos",
                   "Cosh",
                   "Sin",
                   "Sinh",
                   "Tan",
                   "LpNormalization",
                   "InstanceNormalization"})) {
    out[0] = in;
    if (op == "Dropout" && out.size() > 1) out[1] = in;
  } else if (op.rfind("Reduce", 0) == 0) {
    out[0] = reduce(n, in, valuesOf);
  } else if (op == "Split") {
    return split(n, in, valuesOf);
  } else if (op == "Pad") {
    out[0] = pad(n, in, valuesOf);
  } else if (op == "CenterCropPad") {
    out[0] = centerCropPad(n, in, valuesOf);
  } else if (op == "Resize") {
    out[0] = resize(n, in, valuesOf);
  } else if (op == "AveragePool" || op == "LpPool" || op == "MaxPool") {
    out[0] = pool(n, in);
  } else if (op == "DFT") {
    out[0] = dft(n, in, valuesOf);
  } else if (op == "GridSample") {
    auto grid = dimsOf(n.input(1));
    if (grid && grid->size() == in.size() && in.size() >= 3) {
      Dims d{in[0], in[1]};
      d.insert(d.end(), grid->begin() + 1, grid->end() - 1);
      out[0] = d;
    }
  } else if (op == "AffineGrid") {
    const auto* size = valuesOf(n.input(1));
    if (size && (size->size() == 4 || size->size() == 5)) {
      Dims d{(*size)[0]};
      d.insert(d.end(), size->begin() + 2, size->end());
      d.push_back(static_cast<int64_t>(size->size()) - 2);
      out[0] = d;
    }
  } else if (op == "Col2Im") {
    const auto* image = valuesOf(n.input(1));
    const auto* block = valuesOf(n.input(2));
    if (image && block && in.size() == 3) {
      int64_t per = 1;
      for (int64_t b : *block)
        if (b <= 0 || __builtin_mul_overflow(per, b, &per)) return out;
      if (per > 0 && in[1] % per == 0) {
        Dims d{in[0], in[1] / per};
        d.insert(d.end(), image->begin(), image->end());
        out[0] = d;
      }
    }
  } else if (isOneOf(op, {"Flatten", "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Shape", "Size", "Conv",
                          "ConvTranspose", "TopK"})) {
    return {};  // the opset-17 arithmetic (static_shapes.cpp) or libonnx's schema of the same shape rule
  }
  return out;
}

ir::DataType outputElemType(const ir::Node& n, size_t i, const ElemTypeOf& typeOf) {
  const std::string& op = n.opType;
  auto attrType = [&](const char* name) { return static_cast<ir::DataType>(n.attrInt(name, 0)); };
  if (op == "Cast" || op == "BitCast") return attrType("to");
  if (op == "CastLike") return typeOf(n.input(1));
  if (op == "QuantizeLinear") {
    if (n.input(2)) return typeOf(n.input(2));
    return n.attrInt("output_dtype", 0) ? attrType("output_dtype") : ir::DataType::UInt8;
  }
  if (op == "DequantizeLinear") return n.attrInt("output_dtype", 0) ? attrType("output_dtype") : typeOf(n.input(1));
  if (op == "OptionalHasElement" || op == "Equal" || op == "IsInf" || op == "IsNaN" || op == "RegexFullMatch" ||
      (op == "Dropout" && i == 1))
    return ir::DataType::Bool;
  if (op == "Attention") return typeOf(n.input(i == 2 ? 2 : 0));
  if (op == "StringSplit") return i == 0 ? ir::DataType::String : ir::DataType::Int64;
  if (op == "TopK" && i == 1) return ir::DataType::Int64;
  return typeOf(n.input(0));
}

}  // namespace fb::schema::opsets_18_26
