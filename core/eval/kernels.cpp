#include "eval/kernels.h"

#include "eval/broadcast_walk.h"
#include "eval/eval_budget.h"
#include "eval/kernel_table.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace fb::eval {
namespace {

using D = ir::DataType;
using Dims = std::vector<int64_t>;

[[noreturn]] void unsupported(const ir::Node& n, const std::string& why) { throw Unsupported(n.opType + ": " + why); }

// Rounds or wraps every element to what the element type can hold, as a runtime computing in it would.
void normalize(Array& a) {
  switch (a.dtype) {
    case D::Float:
      for (auto& v : a.f) v = static_cast<float>(v);
      break;
    case D::Int8:
      for (auto& v : a.i) v = static_cast<int8_t>(v);
      break;
    case D::Int16:
      for (auto& v : a.i) v = static_cast<int16_t>(v);
      break;
    case D::Int32:
      for (auto& v : a.i) v = static_cast<int32_t>(v);
      break;
    case D::UInt8:
      for (auto& v : a.i) v = static_cast<uint8_t>(v);
      break;
    case D::UInt16:
      for (auto& v : a.i) v = static_cast<uint16_t>(v);
      break;
    case D::UInt32:
      for (auto& v : a.i) v = static_cast<uint32_t>(v);
      break;
    case D::Bool:
      for (auto& v : a.i) v = v != 0;
      break;
    default:
      break;
  }
}

const Array& in(const ir::Node& n, const std::vector<const Array*>& ins, size_t k) {
  if (k >= ins.size() || !ins[k]) unsupported(n, "input " + std::to_string(k) + " missing");
  return *ins[k];
}
bool has(const std::vector<const Array*>& ins, size_t k) { return k < ins.size() && ins[k]; }

std::vector<int64_t> intsOf(const Array& a) {
  std::vector<int64_t> out(a.size());
  for (size_t k = 0; k < out.size(); ++k) out[k] = a.getI(k);
  return out;
}

int64_t normAxis(const ir::Node& n, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) unsupported(n, "axis out of range");
  return axis < 0 ? axis + rank : axis;
}

Dims stridesOf(const Dims& d) {
  Dims s(d.size(), 1);
  for (int64_t k = static_cast<int64_t>(d.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * d[k + 1];
  return s;
}

// Charged to the budget before it is allocated (Array::zeros).
Array makeLike(D dtype, Dims dims) { return Array::zeros(dtype, std::move(dims)); }

// a + b for dims and offsets read from a file, where an overflow means the node is not evaluated.
int64_t checkedAdd(const ir::Node& n, int64_t a, int64_t b) {
  int64_t s = 0;
  if (__builtin_add_overflow(a, b, &s)) unsupported(n, "sizes overflow");
  return s;
}

// A scalar operand's value; an empty tensor where a scalar belongs is not evaluated.
double scalarOf(const ir::Node& n, const Array& a) {
  if (a.size() < 1) unsupported(n, "empty scalar operand");
  return a.getD(0);
}

// The window of a 2-D MaxPool or AveragePool with explicit pads and strides, checked: attributes come from the
// file, and a short `strides` or a zero stride would read past the vector or divide by zero.
struct PoolWindow {
  Dims k, st, pads;
  int64_t H = 0, W = 0, OH = 0, OW = 0;
};

PoolWindow poolWindow(const ir::Node& n, const Array& x) {
  if (!x.isFloat() || x.dims.size() != 4) unsupported(n, "float 4-D input");
  if (n.attrInt("ceil_mode", 0) || n.attrString("auto_pad", "NOTSET") != "NOTSET" || n.hasAttr("dilations"))
    unsupported(n, "only explicit pads and strides");
  PoolWindow p{n.attrInts("kernel_shape"), n.attrInts("strides"), n.attrInts("pads")};
  if (p.st.empty()) p.st = {1, 1};
  if (p.pads.empty()) p.pads = {0, 0, 0, 0};
  if (p.k.size() != 2 || p.st.size() != 2 || p.pads.size() != 4) unsupported(n, "kernel_shape, strides or pads");
  for (size_t i = 0; i < 2; ++i)
    if (p.k[i] <= 0 || p.st[i] <= 0 || p.pads[i] < 0 || p.pads[i + 2] < 0 || p.k[i] > (int64_t{1} << 20) ||
        p.pads[i] > (int64_t{1} << 20) || p.pads[i + 2] > (int64_t{1} << 20))
      unsupported(n, "kernel_shape, strides or pads out of range");
  p.H = x.dims[2];
  p.W = x.dims[3];
  p.OH = (p.H + p.pads[0] + p.pads[2] - p.k[0]) / p.st[0] + 1;
  p.OW = (p.W + p.pads[1] + p.pads[3] - p.k[1]) / p.st[1] + 1;
  if (p.OH <= 0 || p.OW <= 0) unsupported(n, "the window is larger than the padded input");
  return p;
}

void set(Array& a, size_t k, double v) {
  if (a.isFloat())
    a.f[k] = v;
  else
    a.i[k] = checkedInt64(v);
}

// Integer arithmetic wraps around as a runtime's does (signed overflow would be undefined here); the narrower types
// are wrapped to their width by normalize().
int64_t wrappingAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrappingSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrappingMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// ---- elementwise

using Binary = std::function<double(double, double)>;
using BinaryI = std::function<int64_t(int64_t, int64_t)>;

Array binary(const ir::Node& n, const Array& a, const Array& b, D outType, const Binary& fd, const BinaryI& fi) {
  if (a.dtype != b.dtype) unsupported(n, "mixed element types");
  Dims out = broadcastShapes(a.dims, b.dims);
  Array r = makeLike(outType, out);  // charged first: nothing of the result's size exists before
  BroadcastWalk<2> w(out, {&a.dims, &b.dims});
  for (size_t k = 0; k < r.size(); ++k, w.next()) {
    if (a.isFloat())
      set(r, k, fd(a.f[w.at(0)], b.f[w.at(1)]));
    else if (r.isFloat())
      r.f[k] = fd(static_cast<double>(a.i[w.at(0)]), static_cast<double>(b.i[w.at(1)]));
    else
      r.i[k] = fi(a.i[w.at(0)], b.i[w.at(1)]);
  }
  normalize(r);
  return r;
}

Array unary(const ir::Node& n, const Array& a, const std::function<double(double)>& fd,
            const std::function<int64_t(int64_t)>& fi, bool floatOnly = false) {
  if (floatOnly && !a.isFloat()) unsupported(n, "integer input");
  Array r = a.copy();
  if (a.isFloat())
    for (auto& v : r.f) v = fd(v);
  else
    for (auto& v : r.i) v = fi(v);
  normalize(r);
  return r;
}

Array variadic(const ir::Node& n, const std::vector<const Array*>& ins, const Binary& fd, const BinaryI& fi) {
  Array acc = in(n, ins, 0).copy();
  for (size_t k = 1; k < ins.size(); ++k) acc = binary(n, acc, in(n, ins, k), acc.dtype, fd, fi);
  return acc;
}

// ---- shape ops

Array gather(const ir::Node& n, const Array& data, const Array& idx) {
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  const int64_t axis = normAxis(n, n.attrInt("axis", 0), rank);
  Dims out(data.dims.begin(), data.dims.begin() + axis);
  out.insert(out.end(), idx.dims.begin(), idx.dims.end());
  out.insert(out.end(), data.dims.begin() + axis + 1, data.dims.end());
  int64_t outer = elementCount(Dims(data.dims.begin(), data.dims.begin() + axis));
  int64_t inner = elementCount(Dims(data.dims.begin() + axis + 1, data.dims.end()));
  int64_t dim = data.dims[axis];
  Array r = makeLike(data.dtype, out);
  size_t w = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < idx.size(); ++j) {
      int64_t ix = idx.getI(j);
      if (ix < -dim || ix >= dim) unsupported(n, "index out of range");
      if (ix < 0) ix += dim;
      for (int64_t q = 0; q < inner; ++q, ++w) {
        size_t src = static_cast<size_t>((o * dim + ix) * inner + q);
        if (r.isFloat())
          r.f[w] = data.f[src];
        else
          r.i[w] = data.i[src];
      }
    }
  return r;
}

Array concat(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array& first = in(n, ins, 0);
  const int64_t rank = static_cast<int64_t>(first.dims.size());
  const int64_t axis = normAxis(n, n.attrInt("axis", 0), rank);
  Dims out = first.dims;
  out[axis] = 0;
  for (size_t k = 0; k < ins.size(); ++k) {
    const Array& a = in(n, ins, k);
    if (a.dtype != first.dtype || static_cast<int64_t>(a.dims.size()) != rank) unsupported(n, "mismatched inputs");
    out[axis] = checkedAdd(n, out[axis], a.dims[axis]);
  }
  int64_t outer = elementCount(Dims(out.begin(), out.begin() + axis));
  int64_t inner = elementCount(Dims(out.begin() + axis + 1, out.end()));
  Array r = makeLike(first.dtype, out);
  size_t w = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const Array* a : ins) {
      int64_t chunk = a->dims[axis] * inner;
      for (int64_t q = 0; q < chunk; ++q, ++w) {
        size_t src = static_cast<size_t>(o * chunk + q);
        if (r.isFloat())
          r.f[w] = a->f[src];
        else
          r.i[w] = a->i[src];
      }
    }
  return r;
}

Array slice(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& data = in(n, ins, 0);
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  Dims starts, ends, axes, steps;
  if (opset < 10) {
    starts = n.attrInts("starts");
    ends = n.attrInts("ends");
    axes = n.attrInts("axes");
  } else {
    starts = intsOf(in(n, ins, 1));
    ends = intsOf(in(n, ins, 2));
    if (has(ins, 3)) axes = intsOf(*ins[3]);
    if (has(ins, 4)) steps = intsOf(*ins[4]);
  }
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    unsupported(n, "inconsistent starts/ends/axes/steps");
  Dims st(rank, 0), sp(rank, 1), cnt = data.dims;
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t ax = normAxis(n, axes[k], rank), dim = data.dims[ax], step = steps[k];
    if (step == 0 || step == std::numeric_limits<int64_t>::min()) unsupported(n, "step");
    int64_t s = starts[k], e = ends[k];
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      cnt[ax] = e > s ? (e - s - 1) / step + 1 : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      cnt[ax] = s > e ? (s - e - 1) / (-step) + 1 : 0;
    }
    st[ax] = s;
    sp[ax] = step;
  }
  Array r = makeLike(data.dtype, cnt);
  Dims inStr = stridesOf(data.dims);
  const size_t total = r.size();
  Dims idx(rank, 0);
  for (size_t w = 0; w < total; ++w) {
    int64_t src = 0;
    for (int64_t k = 0; k < rank; ++k) src += (st[k] + idx[k] * sp[k]) * inStr[k];
    if (r.isFloat())
      r.f[w] = data.f[src];
    else
      r.i[w] = data.i[src];
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++idx[k] < cnt[k]) break;
      idx[k] = 0;
    }
  }
  return r;
}

Array reshapeTo(const ir::Node& n, const Array& data, const Dims& shape, bool allowZero) {
  auto out = resolveReshape(data.dims, shape, allowZero);
  if (!out) unsupported(n, "target shape does not fit the input");
  Array r = data.copy();
  r.dims = *out;
  return r;
}

Dims axesFrom(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset, int64_t inputSince) {
  if (opset >= inputSince) return has(ins, 1) ? intsOf(*ins[1]) : Dims{};
  return n.attrInts("axes");
}

Array squeeze(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& data = in(n, ins, 0);
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  Dims axes = axesFrom(n, ins, opset, 13);
  std::vector<bool> drop(rank, false);
  if (axes.empty()) {
    for (int64_t k = 0; k < rank; ++k) drop[k] = data.dims[k] == 1;
  } else {
    for (auto a : axes) {
      a = normAxis(n, a, rank);
      if (data.dims[a] != 1) unsupported(n, "squeezing a dim that is not 1");
      drop[a] = true;
    }
  }
  Array r = data.copy();
  r.dims.clear();
  for (int64_t k = 0; k < rank; ++k)
    if (!drop[k]) r.dims.push_back(data.dims[k]);
  return r;
}

Array unsqueeze(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& data = in(n, ins, 0);
  Dims axes = axesFrom(n, ins, opset, 13);
  const int64_t outRank = static_cast<int64_t>(data.dims.size() + axes.size());
  std::vector<bool> added(outRank, false);
  for (auto a : axes) {
    a = normAxis(n, a, outRank);
    if (added[a]) unsupported(n, "repeated axis");
    added[a] = true;
  }
  Array r = data.copy();
  r.dims.clear();
  size_t src = 0;
  for (int64_t k = 0; k < outRank; ++k) r.dims.push_back(added[k] ? 1 : data.dims[src++]);
  return r;
}

Array transpose(const ir::Node& n, const Array& data) {
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  Dims perm = n.attrInts("perm");
  if (perm.empty())
    for (int64_t k = rank - 1; k >= 0; --k) perm.push_back(k);
  if (static_cast<int64_t>(perm.size()) != rank) unsupported(n, "perm rank");
  Dims out(rank);
  std::vector<bool> used(static_cast<size_t>(rank), false);
  for (int64_t k = 0; k < rank; ++k) {
    perm[k] = normAxis(n, perm[k], rank);  // a perm from a file may hold anything: index only with normalized axes
    if (used[perm[k]]) unsupported(n, "perm repeats an axis");  // [0, 0] would read past the data
    used[perm[k]] = true;
    out[k] = data.dims[perm[k]];
  }
  Dims inStr = stridesOf(data.dims);
  Array r = makeLike(data.dtype, out);
  Dims idx(rank, 0);
  for (size_t w = 0; w < r.size(); ++w) {
    int64_t src = 0;
    for (int64_t k = 0; k < rank; ++k) src += idx[k] * inStr[perm[k]];
    if (r.isFloat())
      r.f[w] = data.f[src];
    else
      r.i[w] = data.i[src];
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++idx[k] < out[k]) break;
      idx[k] = 0;
    }
  }
  return r;
}

Array reduce(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& data = in(n, ins, 0);
  const int64_t rank = static_cast<int64_t>(data.dims.size());
  const bool axesInput = n.opType == "ReduceSum" ? opset >= 13 : opset >= 18;
  Dims axes = axesInput ? (has(ins, 1) ? intsOf(*ins[1]) : Dims{}) : n.attrInts("axes");
  const bool keep = n.attrInt("keepdims", 1) != 0;
  if (axes.empty() && axesInput && n.attrInt("noop_with_empty_axes", 0)) return data.copy();
  std::vector<bool> red(rank, axes.empty());
  for (auto a : axes) red[normAxis(n, a, rank)] = true;
  Dims outKeep(rank);
  for (int64_t k = 0; k < rank; ++k) outKeep[k] = red[k] ? 1 : data.dims[k];
  Array acc = makeLike(data.dtype, outKeep);
  const std::string& op = n.opType;
  auto start = op == "ReduceProd" ? 1.0 : op == "ReduceMax" ? -INFINITY : op == "ReduceMin" ? INFINITY : 0.0;
  chargeArray(acc.size());
  std::vector<double> v(acc.size(), start);
  BroadcastWalk<1> slot(data.dims, {&outKeep});  // every input element -> its output slot
  for (size_t e = 0; e < data.size(); ++e, slot.next()) {
    double x = data.getD(e);
    double& a = v[slot.at(0)];
    if (op == "ReduceProd")
      a *= x;
    else if (op == "ReduceMax")
      a = std::max(a, x);
    else if (op == "ReduceMin")
      a = std::min(a, x);
    else
      a += x;
  }
  if (op == "ReduceMean") {
    double cnt = static_cast<double>(data.size()) / static_cast<double>(std::max<size_t>(acc.size(), 1));
    for (auto& x : v) x /= cnt;
  }
  for (size_t k = 0; k < v.size(); ++k) set(acc, k, v[k]);
  normalize(acc);
  if (!keep) {
    Dims out;
    for (int64_t k = 0; k < rank; ++k)
      if (!red[k]) out.push_back(data.dims[k]);
    acc.dims = out;
  }
  return acc;
}

Array castTo(const Array& a, D to) {
  if (!isSupportedType(to)) throw Unsupported("Cast: target type not supported");
  Array r;
  r.dtype = to;
  r.dims = a.dims;
  chargeArray(a.size());
  if (r.isFloat()) {
    r.f.resize(a.size());
    for (size_t k = 0; k < a.size(); ++k) r.f[k] = a.getD(k);
  } else {
    r.i.resize(a.size());
    for (size_t k = 0; k < a.size(); ++k) {
      if (!a.isFloat())
        r.i[k] = a.i[k];
      else if (to == D::Bool)
        r.i[k] = a.f[k] != 0.0;
      else if (std::isnan(a.f[k]))
        throw Unsupported("Cast: NaN to integer");
      else
        r.i[k] = checkedInt64(a.f[k]);
    }
  }
  normalize(r);
  return r;
}

Array constantValue(const ir::Node& n) {
  if (auto* a = n.attr("value"); a && !a->tensors.empty()) return Array::fromTensor(a->tensors[0]);
  if (auto* a = n.attr("value_float")) return Array::floats({}, {a->f});
  if (auto* a = n.attr("value_floats"))
    return Array::floats({static_cast<int64_t>(a->floats.size())}, {a->floats.begin(), a->floats.end()});
  if (auto* a = n.attr("value_int")) return Array::ints({}, {a->i});
  if (auto* a = n.attr("value_ints")) return Array::ints({static_cast<int64_t>(a->ints.size())}, a->ints);
  unsupported(n, "no supported value attribute");
}

// ---- compute ops (used by the tests' reference interpreter; constant folding may meet them on weights)

Array matmul(const ir::Node& n, const Array& a, const Array& b) {
  if (!a.isFloat() || a.dtype != b.dtype || a.dims.empty() || b.dims.empty()) unsupported(n, "float inputs only");
  Dims ad = a.dims, bd = b.dims;
  const bool aVec = ad.size() == 1, bVec = bd.size() == 1;
  if (aVec) ad.insert(ad.begin(), 1);
  if (bVec) bd.push_back(1);
  const int64_t M = ad[ad.size() - 2], K = ad.back(), N = bd.back();
  if (bd[bd.size() - 2] != K) unsupported(n, "inner dims differ");
  Dims batchA(ad.begin(), ad.end() - 2), batchB(bd.begin(), bd.end() - 2);
  Dims batch = broadcastShapes(batchA, batchB);
  Dims out = batch;
  if (!aVec) out.push_back(M);
  if (!bVec) out.push_back(N);
  Array r = makeLike(a.dtype, out);
  chargeOperations(saturatingProduct(r.size(), static_cast<uint64_t>(K)));
  const int64_t batches = elementCount(batch);
  BroadcastWalk<2> w(batch, {&batchA, &batchB});
  for (int64_t bi = 0; bi < batches; ++bi, w.next()) {
    const int64_t ai = static_cast<int64_t>(w.at(0)), bj = static_cast<int64_t>(w.at(1));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += a.f[ai * M * K + i * K + k] * b.f[bj * K * N + k * N + j];
        r.f[bi * M * N + i * N + j] = acc;
      }
  }
  normalize(r);
  return r;
}

Array gemm(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &a0 = in(n, ins, 0), &b0 = in(n, ins, 1);
  if (a0.dims.size() != 2 || b0.dims.size() != 2) unsupported(n, "2-D only");
  ir::Node tr;
  tr.opType = "Transpose";
  Array a = n.attrInt("transA", 0) ? transpose(tr, a0) : a0.copy();
  Array b = n.attrInt("transB", 0) ? transpose(tr, b0) : b0.copy();
  Array r = matmul(n, a, b);
  const double alpha = n.attrFloat("alpha", 1.f), beta = n.attrFloat("beta", 1.f);
  for (auto& x : r.f) x *= alpha;
  if (has(ins, 2)) {
    const Array& c = *ins[2];
    if (c.dtype != r.dtype || broadcastShapes(r.dims, c.dims) != r.dims) unsupported(n, "C does not broadcast to A*B");
    BroadcastWalk<1> w(r.dims, {&c.dims});
    for (size_t k = 0; k < r.f.size(); ++k, w.next()) r.f[k] += beta * c.f[w.at(0)];
  }
  normalize(r);
  return r;
}

// Direct N-d convolution (NCHW...), with groups, strides, dilations and explicit pads.
Array conv(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &x = in(n, ins, 0), &w = in(n, ins, 1);
  if (!x.isFloat() || x.dims.size() < 3 || w.dims.size() != x.dims.size()) unsupported(n, "float N-d input");
  if (n.attrString("auto_pad", "NOTSET") != "NOTSET") unsupported(n, "auto_pad");
  const size_t sp = x.dims.size() - 2;
  Dims strides = n.attrInts("strides"), dil = n.attrInts("dilations"), pads = n.attrInts("pads");
  if (strides.empty()) strides.assign(sp, 1);
  if (dil.empty()) dil.assign(sp, 1);
  if (pads.empty()) pads.assign(2 * sp, 0);
  // Attributes come from the file: a short list, a zero stride or sizes that overflow are not evaluated.
  if (strides.size() != sp || dil.size() != sp || pads.size() != 2 * sp) unsupported(n, "strides, dilations or pads");
  constexpr int64_t kLargest = int64_t{1} << 30;
  for (size_t k = 0; k < sp; ++k)
    if (strides[k] <= 0 || strides[k] > kLargest || dil[k] <= 0 || dil[k] > kLargest || pads[k] < 0 ||
        pads[k] > kLargest || pads[sp + k] < 0 || pads[sp + k] > kLargest || x.dims[2 + k] > kLargest ||
        w.dims[2 + k] > kLargest)
      unsupported(n, "strides, dilations, pads or sizes out of range");
  const int64_t group = n.attrInt("group", 1), N = x.dims[0], C = x.dims[1], M = w.dims[0], Cg = w.dims[1];
  int64_t channels = 0;
  if (group <= 0 || group > C || __builtin_mul_overflow(Cg, group, &channels) || channels != C || M % group)
    unsupported(n, "group/channel mismatch");
  if (has(ins, 2) && (!ins[2]->isFloat() || static_cast<int64_t>(ins[2]->size()) != M)) unsupported(n, "bias");
  Dims out = {N, M};
  for (size_t k = 0; k < sp; ++k) {
    const int64_t span = x.dims[2 + k] + pads[k] + pads[sp + k] - dil[k] * (w.dims[2 + k] - 1) - 1;
    if (span < 0) unsupported(n, "the kernel is larger than the padded input");
    out.push_back(span / strides[k] + 1);
  }
  Array r = makeLike(x.dtype, out);
  chargeOperations(
      saturatingProduct(r.size(), static_cast<uint64_t>(elementCount(Dims(w.dims.begin() + 1, w.dims.end())))));
  Dims outSp(out.begin() + 2, out.end()), kSp(w.dims.begin() + 2, w.dims.end()), inSp(x.dims.begin() + 2, x.dims.end());
  const int64_t outPlane = elementCount(outSp), kPlane = elementCount(kSp), inPlane = elementCount(inSp);
  Dims oi(sp), ki(sp);
  for (int64_t b = 0; b < N; ++b)
    for (int64_t m = 0; m < M; ++m) {
      const int64_t g = m / (M / group);
      for (int64_t o = 0; o < outPlane; ++o) {
        for (int64_t t = o, k = static_cast<int64_t>(sp) - 1; k >= 0; --k) {
          oi[k] = t % outSp[k];
          t /= outSp[k];
        }
        double acc = has(ins, 2) ? ins[2]->f[m] : 0.0;
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t q = 0; q < kPlane; ++q) {
            for (int64_t t = q, k = static_cast<int64_t>(sp) - 1; k >= 0; --k) {
              ki[k] = t % kSp[k];
              t /= kSp[k];
            }
            int64_t pos = 0;
            bool inside = true;
            for (size_t k = 0; k < sp && inside; ++k) {
              int64_t p = oi[k] * strides[k] - pads[k] + ki[k] * dil[k];
              inside = p >= 0 && p < inSp[k];
              pos = pos * inSp[k] + p;
            }
            if (!inside) continue;
            acc += x.f[(b * C + g * Cg + c) * inPlane + pos] * w.f[(m * Cg + c) * kPlane + q];
          }
        r.f[(b * M + m) * outPlane + o] = acc;
      }
    }
  normalize(r);
  return r;
}

Array batchNorm(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &x = in(n, ins, 0), &sc = in(n, ins, 1), &bi = in(n, ins, 2), &mean = in(n, ins, 3), &var = in(n, ins, 4);
  if (!x.isFloat() || x.dims.size() < 2) unsupported(n, "float input");
  const double eps = n.attrFloat("epsilon", 1e-5f);
  const int64_t C = x.dims[1], inner = elementCount(Dims(x.dims.begin() + 2, x.dims.end()));
  for (const Array* p : {&sc, &bi, &mean, &var})
    if (!p->isFloat() || static_cast<int64_t>(p->size()) != C) unsupported(n, "parameters do not match the channels");
  Array r = x.copy();
  for (size_t k = 0; k < r.f.size(); ++k) {
    int64_t c = (static_cast<int64_t>(k) / inner) % C;
    r.f[k] = (x.f[k] - mean.f[c]) / std::sqrt(var.f[c] + eps) * sc.f[c] + bi.f[c];
  }
  normalize(r);
  return r;
}

Array pad(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& x = in(n, ins, 0);
  if (n.attrString("mode", "constant") != "constant") unsupported(n, "mode");
  Dims pads = opset < 11 ? n.attrInts("pads") : intsOf(in(n, ins, 1));
  double value = opset < 11 ? n.attrFloat("value", 0.f) : (has(ins, 2) ? scalarOf(n, *ins[2]) : 0.0);
  const size_t r = x.dims.size();
  if (pads.size() != 2 * r) unsupported(n, "pads size");
  Dims out(r);
  for (size_t k = 0; k < r; ++k) out[k] = checkedAdd(n, checkedAdd(n, x.dims[k], pads[k]), pads[r + k]);
  Array o = makeLike(x.dtype, out);
  for (size_t k = 0; k < o.size(); ++k) set(o, k, value);
  Dims idx(r, 0), outStr = stridesOf(out);
  for (size_t e = 0; e < x.size(); ++e) {
    int64_t dst = 0;
    bool inside = true;
    for (size_t k = 0; k < r; ++k) {
      int64_t p = idx[k] + pads[k];
      inside = inside && p >= 0 && p < out[k];
      dst += p * outStr[k];
    }
    if (inside) {
      if (o.isFloat())
        o.f[dst] = x.f[e];
      else
        o.i[dst] = x.i[e];
    }
    for (int64_t k = static_cast<int64_t>(r) - 1; k >= 0; --k) {
      if (++idx[k] < x.dims[k]) break;
      idx[k] = 0;
    }
  }
  return o;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// ---- kernels too long to read inline in the tables below

Array shapeOf(const ir::Node& n, const Array& a) {
  int64_t r = static_cast<int64_t>(a.dims.size());
  int64_t s = n.attrInt("start", 0), e = n.attrInt("end", r);
  if (s < 0) s += r;
  if (e < 0) e += r;
  s = std::clamp<int64_t>(s, 0, r);
  e = std::clamp<int64_t>(e, s, r);
  return Array::ints({e - s}, Dims(a.dims.begin() + s, a.dims.begin() + e));
}

Array flatten(const ir::Node& n, const Array& a) {
  int64_t r = static_cast<int64_t>(a.dims.size());
  int64_t axis = n.attrInt("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) unsupported(n, "axis out of range");
  Array o = a.copy();
  o.dims = {elementCount(Dims(a.dims.begin(), a.dims.begin() + axis)),
            elementCount(Dims(a.dims.begin() + axis, a.dims.end()))};
  return o;
}

Array range(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &s = in(n, ins, 0), &l = in(n, ins, 1), &d = in(n, ins, 2);
  if (s.size() != 1 || l.size() != 1 || d.size() != 1) unsupported(n, "non-scalar input");
  if (s.dtype != l.dtype || s.dtype != d.dtype) unsupported(n, "mixed element types");
  double st = s.getD(0), lim = l.getD(0), de = d.getD(0);
  if (de == 0) unsupported(n, "delta 0");
  // The count as a double first: converting a NaN, an infinity or 3e30 to int64 is undefined.
  const double count = std::ceil((lim - st) / de);
  if (!(count < 9.0e18)) unsupported(n, "the range's length is not a size");
  const int64_t cnt = count > 0 ? static_cast<int64_t>(count) : 0;
  Array r = makeLike(s.dtype, {cnt});
  for (int64_t k = 0; k < cnt; ++k) {
    if (r.isFloat())
      r.f[k] = st + static_cast<double>(k) * de;
    else if (__builtin_mul_overflow(k, d.i[0], &r.i[k]) || __builtin_add_overflow(r.i[k], s.i[0], &r.i[k]))
      unsupported(n, "values overflow");
  }
  normalize(r);
  return r;
}

Array constantOfShape(const ir::Node& n, const Array& shapeInput) {
  Dims shape = intsOf(shapeInput);
  Array fill = Array::floats({1}, {0.0});
  if (auto* a = n.attr("value"); a && !a->tensors.empty()) fill = Array::fromTensor(a->tensors[0]);
  if (fill.size() != 1) unsupported(n, "value is not one element");
  Array r = makeLike(fill.dtype, shape);
  for (size_t k = 0; k < r.size(); ++k) set(r, k, fill.getD(0));
  if (!r.isFloat())
    for (auto& v : r.i) v = fill.i[0];
  return r;
}

Array expand(const Array& a, const Array& shapeInput) {
  Dims out = broadcastShapes(a.dims, intsOf(shapeInput));
  Array r = makeLike(a.dtype, out);
  BroadcastWalk<1> w(out, {&a.dims});
  for (size_t k = 0; k < r.size(); ++k, w.next()) {
    if (r.isFloat())
      r.f[k] = a.f[w.at(0)];
    else
      r.i[k] = a.i[w.at(0)];
  }
  return r;
}

Array where(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &c = in(n, ins, 0), &x = in(n, ins, 1), &y = in(n, ins, 2);
  if (x.dtype != y.dtype) unsupported(n, "mixed element types");
  Dims out = broadcastShapes(broadcastShapes(c.dims, x.dims), y.dims);
  Array r = makeLike(x.dtype, out);
  BroadcastWalk<3> w(out, {&c.dims, &x.dims, &y.dims});
  for (size_t k = 0; k < r.size(); ++k, w.next()) {
    bool take = c.getI(w.at(0)) != 0;
    if (r.isFloat())
      r.f[k] = take ? x.f[w.at(1)] : y.f[w.at(2)];
    else
      r.i[k] = take ? x.i[w.at(1)] : y.i[w.at(2)];
  }
  return r;
}

Array maxPool(const ir::Node& n, const Array& x) {
  if (n.attrInt("storage_order", 0)) unsupported(n, "storage_order");
  const auto [k, st, pads, H, W, OH, OW] = poolWindow(n, x);
  Array r = makeLike(x.dtype, {x.dims[0], x.dims[1], OH, OW});
  chargeOperations(saturatingProduct(r.size(), static_cast<uint64_t>(k[0] * k[1])));
  for (int64_t c = 0; c < x.dims[0] * x.dims[1]; ++c)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        double m = -INFINITY;
        for (int64_t i = 0; i < k[0]; ++i)
          for (int64_t j = 0; j < k[1]; ++j) {
            int64_t h = oh * st[0] - pads[0] + i, w = ow * st[1] - pads[1] + j;
            if (h >= 0 && h < H && w >= 0 && w < W) m = std::max(m, x.f[(c * H + h) * W + w]);
          }
        r.f[(c * OH + oh) * OW + ow] = m;
      }
  return r;
}

Array averagePool(const ir::Node& n, const Array& x) {
  const auto [k, st, pads, H, W, OH, OW] = poolWindow(n, x);
  const bool countPads = n.attrInt("count_include_pad", 0) != 0;
  Array r = makeLike(x.dtype, {x.dims[0], x.dims[1], OH, OW});
  chargeOperations(saturatingProduct(r.size(), static_cast<uint64_t>(k[0] * k[1])));
  for (int64_t c = 0; c < x.dims[0] * x.dims[1]; ++c)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        double sum = 0;
        int64_t counted = 0;
        for (int64_t i = 0; i < k[0]; ++i)
          for (int64_t j = 0; j < k[1]; ++j) {
            int64_t h = oh * st[0] - pads[0] + i, w = ow * st[1] - pads[1] + j;
            // Windows never reach past the pads (no ceil_mode), so every position outside is a pad.
            if (h >= 0 && h < H && w >= 0 && w < W) {
              sum += x.f[(c * H + h) * W + w];
              ++counted;
            } else if (countPads) {
              ++counted;
            }
          }
        r.f[(c * OH + oh) * OW + ow] = counted ? sum / static_cast<double>(counted) : 0.0;
      }
  normalize(r);
  return r;
}

Array globalAveragePool(const ir::Node& n, const Array& x) {
  if (!x.isFloat() || x.dims.size() < 3) unsupported(n, "float N-d input");
  Dims out = {x.dims[0], x.dims[1]};
  out.resize(x.dims.size(), 1);
  const int64_t plane = elementCount(Dims(x.dims.begin() + 2, x.dims.end()));
  Array r = makeLike(x.dtype, out);
  for (size_t c = 0; c < r.f.size(); ++c) {
    double acc = 0;
    for (int64_t k = 0; k < plane; ++k) acc += x.f[c * plane + k];
    r.f[c] = acc / static_cast<double>(plane);
  }
  normalize(r);
  return r;
}

Array softmax(const ir::Node& n, const Array& x, int64_t opset) {
  if (!x.isFloat()) unsupported(n, "float input");
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  const int64_t axis = normAxis(n, n.attrInt("axis", opset < 13 ? 1 : -1), rank);
  // Before opset 13 the input is flattened to 2-D at `axis`; from 13 it is one axis.
  const int64_t inner = opset < 13 ? 1 : elementCount(Dims(x.dims.begin() + axis + 1, x.dims.end()));
  const int64_t len = opset < 13 ? elementCount(Dims(x.dims.begin() + axis, x.dims.end())) : x.dims[axis];
  if (x.size() == 0) return x.copy();
  const int64_t outer = static_cast<int64_t>(x.size()) / (len * inner);
  Array r = x.copy();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t q = 0; q < inner; ++q) {
      auto at = [&](int64_t k) { return static_cast<size_t>((o * len + k) * inner + q); };
      double mx = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; ++k) mx = std::max(mx, x.f[at(k)]);
      for (int64_t k = 0; k < len; ++k) sum += (r.f[at(k)] = std::exp(x.f[at(k)] - mx));
      for (int64_t k = 0; k < len; ++k) r.f[at(k)] /= sum;
    }
  normalize(r);
  return r;
}

// ---- the op table, one family at a time

template <typename F>
Kernel one(F f) {
  return [f](const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
    return std::vector<Array>{f(n, ins, opset)};
  };
}

Kernel bin(Binary fd, BinaryI fi, bool boolOut = false) {
  return one([=](const ir::Node& n, const std::vector<const Array*>& ins, int64_t) {
    const Array& a = in(n, ins, 0);
    return binary(n, a, in(n, ins, 1), boolOut ? D::Bool : a.dtype, fd, fi);
  });
}

Kernel un(std::function<double(double)> fd, std::function<int64_t(int64_t)> fi = nullptr) {
  return one([=](const ir::Node& n, const std::vector<const Array*>& ins, int64_t) {
    return unary(
        n, in(n, ins, 0), fd, fi ? fi : [](int64_t) -> int64_t { throw Unsupported("integer input"); }, !fi);
  });
}

// Shapes, layout and data movement: what shape computations are made of.
void addShapeKernels(KernelTable& t) {
  t["Identity"] = one([](auto& n, auto& ins, int64_t) { return in(n, ins, 0).copy(); });
  t["Constant"] = one([](auto& n, auto&, int64_t) { return constantValue(n); });
  t["Shape"] = one([](auto& n, auto& ins, int64_t) { return shapeOf(n, in(n, ins, 0)); });
  t["Size"] = one([](auto& n, auto& ins, int64_t) { return Array::ints({}, {elementCount(in(n, ins, 0).dims)}); });
  t["Gather"] = one([](auto& n, auto& ins, int64_t) { return gather(n, in(n, ins, 0), in(n, ins, 1)); });
  t["Concat"] = one([](auto& n, auto& ins, int64_t) { return concat(n, ins); });
  t["Slice"] = one([](auto& n, auto& ins, int64_t opset) { return slice(n, ins, opset); });
  t["Squeeze"] = one([](auto& n, auto& ins, int64_t opset) { return squeeze(n, ins, opset); });
  t["Unsqueeze"] = one([](auto& n, auto& ins, int64_t opset) { return unsqueeze(n, ins, opset); });
  t["Transpose"] = one([](auto& n, auto& ins, int64_t) { return transpose(n, in(n, ins, 0)); });
  t["Reshape"] = one([](auto& n, auto& ins, int64_t opset) {
    Dims shape = opset < 5 ? n.attrInts("shape") : intsOf(in(n, ins, 1));
    return reshapeTo(n, in(n, ins, 0), shape, n.attrInt("allowzero", 0) != 0);
  });
  t["Flatten"] = one([](auto& n, auto& ins, int64_t) { return flatten(n, in(n, ins, 0)); });
  t["Cast"] =
      one([](auto& n, auto& ins, int64_t) { return castTo(in(n, ins, 0), static_cast<D>(n.attrInt("to", 0))); });
  t["Range"] = one([](auto& n, auto& ins, int64_t) { return range(n, ins); });
  t["ConstantOfShape"] = one([](auto& n, auto& ins, int64_t) { return constantOfShape(n, in(n, ins, 0)); });
  t["Expand"] = one([](auto& n, auto& ins, int64_t) { return expand(in(n, ins, 0), in(n, ins, 1)); });
  t["Where"] = one([](auto& n, auto& ins, int64_t) { return where(n, ins); });
}

// Binary and variadic arithmetic, comparisons and logic, with numpy broadcasting.
void addBinaryKernels(KernelTable& t) {
  t["Add"] = bin(std::plus<double>(), wrappingAdd);
  t["Sub"] = bin(std::minus<double>(), wrappingSub);
  t["Mul"] = bin(std::multiplies<double>(), wrappingMul);
  t["Div"] = bin(std::divides<double>(), [](int64_t a, int64_t b) -> int64_t {
    if (b == 0) throw Unsupported("Div: integer division by zero");
    return b == -1 ? wrappingSub(0, a) : a / b;  // INT64_MIN / -1 traps
  });
  t["Pow"] = bin([](double a, double b) { return std::pow(a, b); },
                 [](int64_t a, int64_t b) { return checkedInt64(std::pow(double(a), double(b))); });
  t["Mod"] = one([](auto& n, auto& ins, int64_t) {
    const Array& a = in(n, ins, 0);
    bool fm = n.attrInt("fmod", 0) != 0;
    return binary(
        n, a, in(n, ins, 1), a.dtype, [](double x, double y) { return std::fmod(x, y); },
        [fm](int64_t x, int64_t y) -> int64_t {
          if (y == 0) throw Unsupported("Mod: by zero");
          if (y == -1) return 0;  // INT64_MIN % -1 traps
          int64_t r = x % y;
          if (!fm && r != 0 && ((r < 0) != (y < 0))) r += y;
          return r;
        });
  });
  t["Equal"] = bin([](double a, double b) { return double(a == b); },
                   [](int64_t a, int64_t b) { return int64_t(a == b); }, true);
  t["Less"] =
      bin([](double a, double b) { return double(a < b); }, [](int64_t a, int64_t b) { return int64_t(a < b); }, true);
  t["Greater"] =
      bin([](double a, double b) { return double(a > b); }, [](int64_t a, int64_t b) { return int64_t(a > b); }, true);
  t["LessOrEqual"] = bin([](double a, double b) { return double(a <= b); },
                         [](int64_t a, int64_t b) { return int64_t(a <= b); }, true);
  t["GreaterOrEqual"] = bin([](double a, double b) { return double(a >= b); },
                            [](int64_t a, int64_t b) { return int64_t(a >= b); }, true);
  t["And"] = bin([](double a, double b) { return double(a && b); },
                 [](int64_t a, int64_t b) { return int64_t(a && b); }, true);
  t["Or"] = bin([](double a, double b) { return double(a || b); }, [](int64_t a, int64_t b) { return int64_t(a || b); },
                true);
  t["Xor"] = bin([](double a, double b) { return double(bool(a) != bool(b)); },
                 [](int64_t a, int64_t b) { return int64_t(bool(a) != bool(b)); }, true);
  t["Max"] = one([](auto& n, auto& ins, int64_t) {
    return variadic(
        n, ins, [](double a, double b) { return std::max(a, b); }, [](int64_t a, int64_t b) { return std::max(a, b); });
  });
  t["Min"] = one([](auto& n, auto& ins, int64_t) {
    return variadic(
        n, ins, [](double a, double b) { return std::min(a, b); }, [](int64_t a, int64_t b) { return std::min(a, b); });
  });
  t["Sum"] = one([](auto& n, auto& ins, int64_t) { return variadic(n, ins, std::plus<double>(), wrappingAdd); });
}

// One input, one output, element by element; float-only unless an integer form is given.
void addUnaryKernels(KernelTable& t) {
  t["Not"] = un([](double) -> double { throw Unsupported("Not: float"); }, [](int64_t a) { return int64_t(!a); });
  t["Neg"] = un([](double a) { return -a; }, [](int64_t a) { return wrappingSub(0, a); });
  t["Abs"] = un([](double a) { return std::fabs(a); }, [](int64_t a) { return a < 0 ? wrappingSub(0, a) : a; });
  t["Sign"] =
      un([](double a) { return double((a > 0) - (a < 0)); }, [](int64_t a) { return int64_t((a > 0) - (a < 0)); });
  t["Sqrt"] = un([](double a) { return std::sqrt(a); });
  t["Exp"] = un([](double a) { return std::exp(a); });
  t["Log"] = un([](double a) { return std::log(a); });
  t["Reciprocal"] = un([](double a) { return 1.0 / a; });
  t["Floor"] = un([](double a) { return std::floor(a); });
  t["Ceil"] = un([](double a) { return std::ceil(a); });
  t["Round"] = un([](double a) { return std::nearbyint(a); });
  t["Relu"] = un([](double a) { return a > 0 ? a : 0.0; }, [](int64_t a) { return a > 0 ? a : int64_t{0}; });
  t["Sigmoid"] = un(sigmoid);
  t["Tanh"] = un([](double a) { return std::tanh(a); });
  t["Erf"] = un([](double a) { return std::erf(a); });
  t["LeakyRelu"] = one([](auto& n, auto& ins, int64_t) {
    const double alpha = n.attrFloat("alpha", 0.01f);
    return unary(
        n, in(n, ins, 0), [=](double a) { return a >= 0 ? a : alpha * a; }, nullptr, true);
  });
  t["HardSigmoid"] = one([](auto& n, auto& ins, int64_t) {
    const double alpha = n.attrFloat("alpha", 0.2f), beta = n.attrFloat("beta", 0.5f);
    return unary(
        n, in(n, ins, 0), [=](double a) { return std::max(0.0, std::min(1.0, alpha * a + beta)); }, nullptr, true);
  });
  t["Clip"] = one([](auto& n, auto& ins, int64_t opset) {
    double lo =
        opset < 11 ? n.attrFloat("min", -3.4028234663852886e38f) : (has(ins, 1) ? scalarOf(n, *ins[1]) : -INFINITY);
    double hi =
        opset < 11 ? n.attrFloat("max", 3.4028234663852886e38f) : (has(ins, 2) ? scalarOf(n, *ins[2]) : INFINITY);
    return unary(
        n, in(n, ins, 0), [=](double v) { return std::min(std::max(v, lo), hi); },
        [=](int64_t v) { return checkedInt64(std::min(std::max(double(v), lo), hi)); });
  });
}

// Layers: matrix products, convolution, normalization, pooling, softmax, and the reductions.
void addLayerKernels(KernelTable& t) {
  t["MatMul"] = one([](auto& n, auto& ins, int64_t) { return matmul(n, in(n, ins, 0), in(n, ins, 1)); });
  t["Gemm"] = one([](auto& n, auto& ins, int64_t) { return gemm(n, ins); });
  t["Conv"] = one([](auto& n, auto& ins, int64_t) { return conv(n, ins); });
  t["BatchNormalization"] = one([](auto& n, auto& ins, int64_t) {
    if (n.attrInt("training_mode", 0)) unsupported(n, "training mode");
    return batchNorm(n, ins);
  });
  t["Pad"] = one([](auto& n, auto& ins, int64_t opset) { return pad(n, ins, opset); });
  t["MaxPool"] = one([](auto& n, auto& ins, int64_t) { return maxPool(n, in(n, ins, 0)); });
  t["AveragePool"] = one([](auto& n, auto& ins, int64_t) { return averagePool(n, in(n, ins, 0)); });
  t["GlobalAveragePool"] = one([](auto& n, auto& ins, int64_t) { return globalAveragePool(n, in(n, ins, 0)); });
  t["Softmax"] = one([](auto& n, auto& ins, int64_t opset) { return softmax(n, in(n, ins, 0), opset); });
  t["Dropout"] = one([](auto& n, auto& ins, int64_t) { return in(n, ins, 0).copy(); });
  for (const char* r : {"ReduceProd", "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"})
    t[r] = one([](auto& n, auto& ins, int64_t opset) { return reduce(n, ins, opset); });
}

const KernelTable& kernels() {
  static const KernelTable table = [] {
    KernelTable t;
    addShapeKernels(t);
    addBinaryKernels(t);
    addUnaryKernels(t);
    addLayerKernels(t);
    addIndexingKernels(t);
    return t;
  }();
  return table;
}

}  // namespace

std::vector<int64_t> broadcastShapes(const Dims& a, const Dims& b) {
  const size_t r = std::max(a.size(), b.size());
  Dims out(r);
  for (size_t k = 0; k < r; ++k) {
    int64_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
    int64_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (x != y && x != 1 && y != 1) throw Unsupported("shapes do not broadcast");
    out[k] = x == 1 ? y : x;
  }
  return out;
}

std::optional<std::vector<int64_t>> resolveReshape(const Dims& in, Dims target, bool allowZero) {
  int64_t known = 1, inferAt = -1;
  for (size_t k = 0; k < target.size(); ++k) {
    if (target[k] == 0 && !allowZero) {
      if (k >= in.size()) return std::nullopt;
      target[k] = in[k];
    }
    if (target[k] == -1) {
      if (inferAt >= 0) return std::nullopt;
      inferAt = static_cast<int64_t>(k);
    } else if (target[k] < 0) {
      return std::nullopt;
    } else if (__builtin_mul_overflow(known, target[k], &known)) {
      return std::nullopt;  // a target shape from the file whose product does not fit: no shape
    }
  }
  const int64_t total = elementCount(in);
  if (inferAt >= 0) {
    if (known == 0 || total % known) return std::nullopt;
    target[inferAt] = total / known;
  }
  if (elementCount(target) != total) return std::nullopt;
  return target;
}

bool hasKernel(const std::string& opType) { return kernels().count(opType) != 0; }

std::vector<Array> evaluate(const ir::Node& n, const std::vector<const Array*>& inputs, int64_t opset) {
  if (!n.isDefaultDomain()) throw Unsupported(n.qualifiedOp() + ": not a default-domain op");
  auto it = kernels().find(n.opType);
  if (it == kernels().end()) throw Unsupported(n.opType + ": no kernel");
  for (const Array* a : inputs)
    if (a && static_cast<int64_t>(a->size()) != elementCount(a->dims))
      throw Unsupported(n.opType + ": malformed input");
  return it->second(n, inputs, opset);
}

}  // namespace fb::eval
