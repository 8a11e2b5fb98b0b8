// MatMul and Gemm (float through oneDNN's matmul, with Gemm's alpha as an output scale and beta * C summed into
// the destination; double and the integer types through a plain loop, oneDNN having no f64 or int64 matmul),
// MatMulInteger and QLinearMatMul (plain loops accumulating in int32: oneDNN's int8 matmul takes no per-row and
// per-column zero points).
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

#include "eval/kernels/broadcast.h"
#include "eval/kernels/neural_families.h"
#include "eval/kernels/neural_onednn.h"
#include "eval/kernels/neural_quant.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

using dnnl::memory;

// A batched product [batch..., M, K] x [batch..., K, N] with numpy's rules: a 1-D A is a row, a 1-D B a column
// (dropped from the result), batch dims broadcast.
struct MatMulShape {
  int64_t m = 0, k = 0, n = 0;
  std::vector<int64_t> batch, aBatch, bBatch;  // aBatch/bBatch padded with leading 1s to batch's rank
  std::vector<int64_t> outDims;
  int64_t batchCount() const {
    int64_t p = 1;
    for (int64_t d : batch) p *= d;
    return p;
  }
};

MatMulShape matmulShape(const Tensor& a, const Tensor& b, const char* op) {
  if (a.rank() == 0 || b.rank() == 0) badInput(std::string(op) + " of a 0-d tensor");
  MatMulShape s;
  std::vector<int64_t> ad = a.dims(), bd = b.dims();
  const bool rowA = ad.size() == 1, colB = bd.size() == 1;
  if (rowA) ad.insert(ad.begin(), 1);
  if (colB) bd.push_back(1);
  s.m = ad[ad.size() - 2];
  s.k = ad.back();
  s.n = bd.back();
  if (bd[bd.size() - 2] != s.k)
    badInput(std::string(op) + " of " + describe(a) + " and " + describe(b) + ": inner dims differ");
  std::vector<int64_t> ab(ad.begin(), ad.end() - 2), bb(bd.begin(), bd.end() - 2);
  s.batch = broadcastDims({&ab, &bb});
  s.aBatch.assign(s.batch.size() - ab.size(), 1);
  s.aBatch.insert(s.aBatch.end(), ab.begin(), ab.end());
  s.bBatch.assign(s.batch.size() - bb.size(), 1);
  s.bBatch.insert(s.bBatch.end(), bb.begin(), bb.end());
  s.outDims = s.batch;
  if (!rowA) s.outDims.push_back(s.m);
  if (!colB) s.outDims.push_back(s.n);
  return s;
}

// Calls f(batch, aMatrix, bMatrix) for every batch position, with the matrix offsets each operand broadcasts from.
template <typename F>
void forEachBatch(const MatMulShape& s, F f) {
  BroadcastWalk<2> w(s.batch, {&s.aBatch, &s.bBatch});
  const int64_t count = s.batchCount();
  for (int64_t b = 0; b < count; ++b, w.next()) f(b, static_cast<int64_t>(w.at(0)), static_cast<int64_t>(w.at(1)));
}

// y[i, j] (+)= sum_k a(i, k) * b(k, j) over a row-major MxN destination, accumulating in Acc.
template <typename Acc, typename AAt, typename BAt, typename Store>
void productLoop(int64_t m, int64_t n, int64_t k, AAt a, BAt b, Store store) {
  std::vector<Acc> row(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), Acc{});
    for (int64_t p = 0; p < k; ++p) {
      const Acc av = a(i, p);
      for (int64_t j = 0; j < n; ++j) row[static_cast<size_t>(j)] += av * b(p, j);
    }
    for (int64_t j = 0; j < n; ++j) store(i, j, row[static_cast<size_t>(j)]);
  }
}

// oneDNN matmul primitives by problem (dims, transposes, alpha, C summed), kept per thread and reused: making the
// primitive descriptor walks oneDNN's implementation list every call otherwise.
template <typename Make>
const dnnl::matmul& cachedMatMul(const std::string& key, Make make) {
  thread_local std::unordered_map<std::string, dnnl::matmul> primitives;
  if (auto it = primitives.find(key); it != primitives.end()) return it->second;
  if (primitives.size() >= 1024) primitives.clear();  // a bound for models with very many distinct products
  return primitives.emplace(key, dnnl::matmul(make())).first->second;
}

std::string dimsKey(std::initializer_list<const std::vector<int64_t>*> parts) {
  std::string key;
  for (const auto* v : parts) {
    for (int64_t d : *v) key += std::to_string(d) + ",";
    key += ";";
  }
  return key;
}

// When B is one matrix for every batch (a Linear layer's weights), A's batch rows are rows of one product: one
// [batch * M, K] x [K, N] GEMM instead of many small ones (a [1, 14, 14, 1536] activation would otherwise be 14
// products of 14 rows each, at a fifth of the speed).
MatMulShape foldedBatch(const MatMulShape& s) {
  for (int64_t d : s.bBatch)
    if (d != 1) return s;
  MatMulShape f = s;
  f.m = s.m * s.batchCount();
  f.batch.clear();
  f.aBatch.clear();
  f.bBatch.clear();
  return f;
}

void matmulFloat(const MatMulShape& shape, const Tensor& a, const Tensor& b, Tensor& y) {
  const MatMulShape s = foldedBatch(shape);
  std::vector<int64_t> ad = s.aBatch, bd = s.bBatch, yd = s.batch;
  ad.insert(ad.end(), {s.m, s.k});
  bd.insert(bd.end(), {s.k, s.n});
  yd.insert(yd.end(), {s.m, s.n});
  onednn::guarded("matmul", [&] {
    const memory::desc ad_ = onednn::plainDesc(ad), bd_ = onednn::plainDesc(bd), yd_ = onednn::plainDesc(yd);
    const dnnl::matmul& p = cachedMatMul("matmul " + dimsKey({&ad, &bd}), [&] {
      return dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad_, bd_, yd_), onednn::strictAttr(), onednn::cpuEngine());
    });
    onednn::execute("matmul", p,
                    {{DNNL_ARG_SRC, onednn::wrap(ad_, a.data<float>())},
                     {DNNL_ARG_WEIGHTS, onednn::wrap(bd_, b.data<float>())},
                     {DNNL_ARG_DST, onednn::wrap(yd_, y.mutableData<float>())}});
  });
}

template <typename T>
void matmulLoop(const MatMulShape& s, const Tensor& a, const Tensor& b, Tensor& y) {
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* py = y.mutableData<T>();
  forEachBatch(s, [&](int64_t batch, int64_t am, int64_t bm) {
    const T* ma = pa + am * s.m * s.k;
    const T* mb = pb + bm * s.k * s.n;
    T* my = py + batch * s.m * s.n;
    productLoop<T>(
        s.m, s.n, s.k, [&](int64_t i, int64_t p) { return ma[i * s.k + p]; },
        [&](int64_t p, int64_t j) { return mb[p * s.n + j]; }, [&](int64_t i, int64_t j, T v) { my[i * s.n + j] = v; });
  });
}

bool fitsOneDnn(const MatMulShape& s) { return s.batch.size() + 2 <= DNNL_MAX_NDIMS; }

std::vector<Value> matmul(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  if (a.dtype() != b.dtype()) badInput("MatMul of " + describe(a) + " and " + describe(b));
  const MatMulShape s = matmulShape(a, b, "MatMul");
  Tensor y = Tensor::empty(a.dtype(), s.outDims);
  if (y.size() == 0) return {y};
  if (s.k == 0) return {Tensor::zeros(a.dtype(), s.outDims)};
  if (a.dtype() == ir::DataType::Float && fitsOneDnn(s)) {
    matmulFloat(s, a, b, y);
  } else {
    visitNumeric(a.dtype(), [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool> || sizeof(T) < 4)
        unsupported("MatMul of " + describe(a) + ": the type is not one ONNX allows");
      else
        matmulLoop<T>(s, a, b, y);
    });
  }
  return {y};
}

// Gemm's C (absent: nothing added) broadcast to [M, N] into y, times beta. Before opset 7 a C of another shape
// needs broadcast=1.
template <typename T>
bool fillWithC(const KernelContext& c, const Tensor* cT, double beta, int64_t m, int64_t n, Tensor& y) {
  if (!cT || beta == 0) return false;
  const std::vector<int64_t> want{m, n};
  if (c.opset < 7 && c.node.attrInt("broadcast", 0) == 0 && cT->dims() != want)
    badInput("C " + describe(*cT) + " is not [M, N] and broadcast is 0");
  if (cT->rank() > 2) badInput("C " + describe(*cT) + " has rank above 2");
  if (broadcastDims({&cT->dims(), &want}) != want) badInput("C " + describe(*cT) + " does not broadcast to [M, N]");
  BroadcastWalk<1> w(want, {&cT->dims()});
  const T* pc = cT->data<T>();
  T* py = y.mutableData<T>();
  const T tb = static_cast<T>(beta);
  for (int64_t k = 0; k < m * n; ++k, w.next()) py[k] = static_cast<T>(tb * pc[w.at(0)]);
  return true;
}

void gemmFloat(int64_t m, int64_t n, int64_t k, bool transA, bool transB, float alpha, bool addToY, const Tensor& a,
               const Tensor& b, Tensor& y) {
  onednn::guarded("matmul", [&] {
    const memory::desc ad =
        onednn::stridedDesc({m, k}, transA ? std::vector<int64_t>{1, m} : std::vector<int64_t>{k, 1});
    const memory::desc bd =
        onednn::stridedDesc({k, n}, transB ? std::vector<int64_t>{1, k} : std::vector<int64_t>{n, 1});
    const memory::desc yd = onednn::plainDesc({m, n});
    char scale[32];
    std::snprintf(scale, sizeof scale, "%a", static_cast<double>(alpha));
    const std::string key = "gemm " + std::to_string(m) + "," + std::to_string(n) + "," + std::to_string(k) + "," +
                            std::to_string(transA) + std::to_string(transB) + std::to_string(addToY) + "," + scale;
    const dnnl::matmul& p = cachedMatMul(key, [&] {
      dnnl::primitive_attr attr = onednn::strictAttr();
      if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
      if (addToY) {
        dnnl::post_ops ops;
        ops.append_sum(1.0f);
        attr.set_post_ops(ops);
      }
      return dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad, bd, yd), attr, onednn::cpuEngine());
    });
    onednn::execute("matmul", p,
                    {{DNNL_ARG_SRC, onednn::wrap(ad, a.data<float>())},
                     {DNNL_ARG_WEIGHTS, onednn::wrap(bd, b.data<float>())},
                     {DNNL_ARG_DST, onednn::wrap(yd, y.mutableData<float>())}});
  });
}

std::vector<Value> gemm(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  const Tensor* cT = c.optionalInput(2);
  if (a.dtype() != b.dtype() || (cT && cT->dtype() != a.dtype()))
    badInput("Gemm of " + describe(a) + " and " + describe(b) + (cT ? " with C " + describe(*cT) : ""));
  if (a.rank() != 2 || b.rank() != 2) badInput("Gemm takes 2-D A and B, given " + describe(a) + ", " + describe(b));
  const bool transA = c.node.attrInt("transA", 0) != 0, transB = c.node.attrInt("transB", 0) != 0;
  const float alpha = c.node.attrFloat("alpha", 1.0f), beta = c.node.attrFloat("beta", 1.0f);
  const int64_t m = transA ? a.dim(1) : a.dim(0), k = transA ? a.dim(0) : a.dim(1);
  const int64_t n = transB ? b.dim(0) : b.dim(1), kb = transB ? b.dim(1) : b.dim(0);
  if (k != kb) badInput("Gemm of " + describe(a) + " and " + describe(b) + ": inner dims differ");
  Tensor y = Tensor::empty(a.dtype(), {m, n});
  if (y.size() == 0) return {y};
  visitNumeric(a.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool> || sizeof(T) < 4) {
      unsupported("Gemm of " + describe(a) + ": the type is not one ONNX allows");
    } else {
      const bool added = fillWithC<T>(c, cT, beta, m, n, y);
      if constexpr (std::is_same_v<T, float>) {
        if (k > 0) {
          gemmFloat(m, n, k, transA, transB, alpha, added, a, b, y);
        } else if (!added) {
          std::memset(y.mutableData<float>(), 0, y.byteSize());
        }
      } else {
        const T* pa = a.data<T>();
        const T* pb = b.data<T>();
        T* py = y.mutableData<T>();
        const T ta = static_cast<T>(alpha);
        productLoop<T>(
            m, n, k, [&](int64_t i, int64_t p) { return transA ? pa[p * m + i] : pa[i * k + p]; },
            [&](int64_t p, int64_t j) { return transB ? pb[j * k + p] : pb[p * n + j]; },
            [&](int64_t i, int64_t j, T v) {
              py[i * n + j] = static_cast<T>(ta * v + (added ? py[i * n + j] : T{0}));
            });
      }
    }
  });
  return {y};
}

// An int8/uint8 tensor's element k as int32.
int32_t intAt(const Tensor& t, int64_t k) {
  return t.dtype() == ir::DataType::Int8 ? t.data<int8_t>()[k] : t.data<uint8_t>()[k];
}

// Zero points (or scales) of A (one per row: [M] or [batch..., M, 1]) or of B (one per column: [N] or
// [batch..., 1, N]), as a value per row/column of each matrix, batch-invariant when given per matrix only.
std::vector<double> perRowOrColumn(const Tensor* t, int64_t count, const char* what, double fallback = 0) {
  if (!t) return std::vector<double>(static_cast<size_t>(count), fallback);
  if (t->size() == 1) return std::vector<double>(static_cast<size_t>(count), t->doubleAt(0));
  if (t->size() != count) unsupported(std::string(what) + " " + describe(*t) + ": only per-tensor or per-row/column");
  return t->toDoubles();
}

// sum((a - aZero[row]) * (b - bZero[col])) for every output element, in int32.
std::vector<int32_t> integerProduct(const MatMulShape& s, const Tensor& a, const Tensor& b,
                                    const std::vector<double>& aZero, const std::vector<double>& bZero) {
  std::vector<int32_t> out(static_cast<size_t>(s.batchCount() * s.m * s.n));
  forEachBatch(s, [&](int64_t batch, int64_t am, int64_t bm) {
    const int64_t aBase = am * s.m * s.k, bBase = bm * s.k * s.n, yBase = batch * s.m * s.n;
    productLoop<int32_t>(
        s.m, s.n, s.k,
        [&](int64_t i, int64_t p) {
          return intAt(a, aBase + i * s.k + p) - static_cast<int32_t>(aZero[static_cast<size_t>(i)]);
        },
        [&](int64_t p, int64_t j) {
          return intAt(b, bBase + p * s.n + j) - static_cast<int32_t>(bZero[static_cast<size_t>(j)]);
        },
        [&](int64_t i, int64_t j, int32_t v) { out[static_cast<size_t>(yBase + i * s.n + j)] = v; });
  });
  return out;
}

void checkInt8(const Tensor& t, const char* what) {
  if (!isInt8Like(t.dtype())) unsupported(std::string(what) + " " + describe(t) + ": only int8 and uint8 are handled");
}

std::vector<Value> matmulInteger(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  checkInt8(a, "MatMulInteger A");
  checkInt8(b, "MatMulInteger B");
  const MatMulShape s = matmulShape(a, b, "MatMulInteger");
  const auto aZero = perRowOrColumn(c.optionalInput(2), s.m, "a_zero_point");
  const auto bZero = perRowOrColumn(c.optionalInput(3), s.n, "b_zero_point");
  Tensor y = Tensor::empty(ir::DataType::Int32, s.outDims);
  const std::vector<int32_t> acc = integerProduct(s, a, b, aZero, bZero);
  if (!acc.empty()) std::memcpy(y.mutableData<int32_t>(), acc.data(), acc.size() * sizeof(int32_t));
  return {y};
}

std::vector<Value> qlinearMatMul(const KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(3);
  checkInt8(a, "QLinearMatMul A");
  checkInt8(b, "QLinearMatMul B");
  const MatMulShape s = matmulShape(a, b, "QLinearMatMul");
  const auto aScale = perRowOrColumn(&c.input(1), s.m, "a_scale");
  const auto aZero = perRowOrColumn(c.optionalInput(2), s.m, "a_zero_point");
  const auto bScale = perRowOrColumn(&c.input(4), s.n, "b_scale");
  const auto bZero = perRowOrColumn(c.optionalInput(5), s.n, "b_zero_point");
  const Tensor& yScale = c.input(6);
  const Tensor* yZeroT = c.optionalInput(7);
  if (yScale.size() != 1) unsupported("y_scale " + describe(yScale) + ": only a per-tensor scale");
  const double yZero = yZeroT ? yZeroT->doubleAt(0) : 0;
  const ir::DataType outType = yZeroT ? yZeroT->dtype() : a.dtype();
  if (!isInt8Like(outType)) unsupported("QLinearMatMul output type must be int8 or uint8");
  Tensor y = Tensor::empty(outType, s.outDims);
  const std::vector<int32_t> acc = integerProduct(s, a, b, aZero, bZero);
  const float ys = static_cast<float>(yScale.doubleAt(0));
  for (int64_t e = 0; e < y.size(); ++e) {
    const int64_t i = (e / s.n) % s.m, j = e % s.n;
    const float scale =
        static_cast<float>(aScale[static_cast<size_t>(i)]) * static_cast<float>(bScale[static_cast<size_t>(j)]) / ys;
    const double v = static_cast<double>(static_cast<float>(acc[static_cast<size_t>(e)]) * scale);
    if (outType == ir::DataType::Int8)
      y.mutableData<int8_t>()[e] = requantize<int8_t>(v, yZero);
    else
      y.mutableData<uint8_t>()[e] = requantize<uint8_t>(v, yZero);
  }
  return {y};
}

}  // namespace

void registerMatMulKernels(KernelRegistry& r) {
  r.add("MatMul", 1, matmul);
  r.add("Gemm", 1, gemm);
  r.add("MatMulInteger", 10, matmulInteger);
  r.add("QLinearMatMul", 10, qlinearMatMul);
}

}  // namespace fb::eval
