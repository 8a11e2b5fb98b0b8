// Ops that read elements chosen by data: Gather, GatherElements, GatherND, Compress, NonZero, ReverseSequence and
// Trilu. Every index is checked (negative ones count from the end, as ONNX allows) before anything is read, and
// whole inner blocks move by memcpy.
#include <algorithm>
#include "eval/kernels/shape_parts.h"

namespace fb::eval::shape {

namespace {

// Indices of `t` checked against an axis of `dim` elements, negatives counted from the end.
std::vector<int64_t> checkedIndices(const Tensor& t, int64_t dim, const std::string& what) {
  std::vector<int64_t> v = indexValues(t, what);
  for (int64_t& i : v) {
    if (i < -dim || i >= dim)
      badInput(what + " holds " + std::to_string(i) + ", outside [" + std::to_string(-dim) + ", " +
               std::to_string(dim - 1) + "]");
    if (i < 0) i += dim;
  }
  return v;
}

std::vector<Value> gather(const KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& indices = c.input(1);
  const int64_t rank = static_cast<int64_t>(data.rank());
  const int64_t axis = normalizeAxis(c.node.attrInt("axis", 0), rank, "Gather's axis");
  const int64_t axisDim = data.dim(axis);
  const std::vector<int64_t> idx = checkedIndices(indices, axisDim, "Gather's indices");
  std::vector<int64_t> dims(data.dims().begin(), data.dims().begin() + axis);
  dims.insert(dims.end(), indices.dims().begin(), indices.dims().end());
  dims.insert(dims.end(), data.dims().begin() + axis + 1, data.dims().end());
  Tensor out = Tensor::empty(data.dtype(), dims);
  if (out.size() == 0) return {out};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= data.dim(d);
  for (int64_t d = axis + 1; d < rank; ++d) inner *= data.dim(d);
  const int64_t n = static_cast<int64_t>(idx.size());
  const ElementMover mover(data, out, "Gather");
  const int64_t blocks = outer * n;
  const bool parallel = c.threads() > 1 && blocks > 1 && out.size() > (int64_t{1} << 16);
  const size_t blockBytes = mover.elementSize() * static_cast<size_t>(inner);
  if (blockBytes == 1 || blockBytes == 2 || blockBytes == 4 || blockBytes == 8 || blockBytes == 16) {
    // Small blocks (Gather along the last axis, shape arithmetic) as one typed element each, not a memcpy call.
    withElementBytes(blockBytes, [&]<typename E>() {
      const E* from = reinterpret_cast<const E*>(data.bytes().data());
      E* to = out.mutableData<E>();
#pragma omp parallel for num_threads(c.threads()) if (parallel) schedule(static)
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < n; ++j) to[o * n + j] = from[o * axisDim + idx[j]];
    });
    return {out};
  }
#pragma omp parallel for num_threads(c.threads()) if (parallel) schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t o = b / n, j = b % n;
    mover.copy(b * inner, (o * axisDim + idx[j]) * inner, inner);
  }
  return {out};
}

std::vector<Value> gatherElements(const KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& indices = c.input(1);
  const int64_t rank = static_cast<int64_t>(data.rank());
  if (indices.rank() != data.rank())
    badInput("GatherElements of " + describe(data) + " by " + describe(indices) + ": ranks differ");
  const int64_t axis = normalizeAxis(c.node.attrInt("axis", 0), rank, "GatherElements' axis");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.dim(d) > data.dim(d))
      badInput("GatherElements of " + describe(data) + " by " + describe(indices) + ": indices exceed the data");
  const std::vector<int64_t> idx = checkedIndices(indices, data.dim(axis), "GatherElements' indices");
  Tensor out = Tensor::empty(data.dtype(), indices.dims());
  if (out.size() == 0) return {out};
  const ElementMover mover(data, out, "GatherElements");
  const std::vector<int64_t> strides = stridesOf(data.dims());
  // Walks the indices' positions; `base` is the position's offset in data with the axis's term left out.
  auto forEachElement = [&](auto move) {
    std::vector<int64_t> pos(rank, 0);
    int64_t base = 0;
    for (int64_t k = 0; k < out.size(); ++k) {
      move(k, base + idx[k] * strides[axis]);
      for (int64_t d = rank; d-- > 0;) {
        if (d != axis) base += strides[d];
        if (++pos[d] < indices.dim(d)) break;
        if (d != axis) base -= pos[d] * strides[d];
        pos[d] = 0;
      }
    }
  };
  if (out.isString()) {
    forEachElement([&](int64_t k, int64_t from) { mover.copy(k, from, 1); });
  } else {
    withElementBytes(mover.elementSize(), [&]<typename E>() {
      const E* from = reinterpret_cast<const E*>(data.bytes().data());
      E* to = out.mutableData<E>();
      forEachElement([&](int64_t k, int64_t at) { to[k] = from[at]; });
    });
  }
  return {out};
}

std::vector<Value> gatherND(const KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& indices = c.input(1);
  const int64_t r = static_cast<int64_t>(data.rank()), q = static_cast<int64_t>(indices.rank());
  const int64_t b = c.opset >= 12 ? c.node.attrInt("batch_dims", 0) : 0;
  if (q < 1 || r < 1) badInput("GatherND of " + describe(data) + " by " + describe(indices));
  if (b < 0 || b >= std::min(q, r)) badInput("GatherND's batch_dims " + std::to_string(b) + " is out of range");
  for (int64_t d = 0; d < b; ++d)
    if (indices.dim(d) != data.dim(d))
      badInput("GatherND of " + describe(data) + " by " + describe(indices) + ": batch dims differ");
  const int64_t m = indices.dim(q - 1);
  if (m < 1 || m > r - b) badInput("GatherND's index tuples of " + std::to_string(m) + " do not fit " + describe(data));
  std::vector<int64_t> dims(indices.dims().begin(), indices.dims().end() - 1);
  dims.insert(dims.end(), data.dims().begin() + b + m, data.dims().end());
  Tensor out = Tensor::empty(data.dtype(), dims);
  if (out.size() == 0) return {out};
  const std::vector<int64_t> idx = indexValues(indices, "GatherND's indices");
  const std::vector<int64_t> strides = stridesOf(data.dims());
  int64_t batches = 1, slice = 1;
  for (int64_t d = 0; d < b; ++d) batches *= data.dim(d);
  for (int64_t d = b + m; d < r; ++d) slice *= data.dim(d);
  const int64_t tuples = indices.size() / m;
  const int64_t perBatch = tuples / batches;
  const int64_t batchStride = b > 0 ? strides[b - 1] : 0;
  const ElementMover mover(data, out, "GatherND");
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t from = (t / perBatch) * batchStride;
    for (int64_t k = 0; k < m; ++k) {
      const int64_t dim = data.dim(b + k);
      int64_t i = idx[t * m + k];
      if (i < -dim || i >= dim)
        badInput("GatherND's index " + std::to_string(i) + " is outside an axis of " + std::to_string(dim));
      if (i < 0) i += dim;
      from += i * strides[b + k];
    }
    mover.copy(t * slice, from, slice);
  }
  return {out};
}

std::vector<Value> compress(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& cond = c.input(1);
  if (cond.rank() != 1) badInput("Compress's condition is " + describe(cond) + " where 1-D is expected");
  const bool hasAxis = c.node.hasAttr("axis");
  const Tensor in = hasAxis ? x : x.reshaped({x.size()});
  const int64_t rank = static_cast<int64_t>(in.rank());
  const int64_t axis = hasAxis ? normalizeAxis(c.node.attrInt("axis", 0), rank, "Compress' axis") : 0;
  const int64_t dim = in.dim(axis);
  std::vector<int64_t> kept;
  for (int64_t k = 0; k < cond.size(); ++k) {
    if (cond.doubleAt(k) == 0) continue;
    if (k >= dim)
      badInput("Compress' condition selects element " + std::to_string(k) + " of an axis of " + std::to_string(dim));
    kept.push_back(k);
  }
  std::vector<int64_t> dims = in.dims();
  dims[axis] = static_cast<int64_t>(kept.size());
  Tensor out = Tensor::empty(x.dtype(), dims);
  if (out.size() == 0) return {out};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= in.dim(d);
  for (int64_t d = axis + 1; d < rank; ++d) inner *= in.dim(d);
  const ElementMover mover(in, out, "Compress");
  const int64_t n = static_cast<int64_t>(kept.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < n; ++j) mover.copy((o * n + j) * inner, (o * dim + kept[j]) * inner, inner);
  return {out};
}

// Whether element k is not zero: -0 is zero and NaN is not, as in numpy.
std::vector<bool> nonZeroFlags(const Tensor& x) {
  std::vector<bool> f(static_cast<size_t>(x.size()));
  const int64_t n = x.size();
  switch (x.dtype()) {
    case ir::DataType::String:
      for (int64_t k = 0; k < n; ++k) f[k] = !x.stringValues()[k].empty();
      break;
    case ir::DataType::Float16:
    case ir::DataType::BFloat16:
      for (int64_t k = 0; k < n; ++k) f[k] = (x.data<uint16_t>()[k] & 0x7fff) != 0;
      break;
    case ir::DataType::Float:
      for (int64_t k = 0; k < n; ++k) f[k] = x.data<float>()[k] != 0;
      break;
    case ir::DataType::Int64:
      for (int64_t k = 0; k < n; ++k) f[k] = x.data<int64_t>()[k] != 0;
      break;
    default:
      for (int64_t k = 0; k < n; ++k) f[k] = x.doubleAt(k) != 0;
  }
  return f;
}

std::vector<Value> nonZero(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const std::vector<bool> flags = nonZeroFlags(x);
  const int64_t nnz = std::count(flags.begin(), flags.end(), true);
  const std::vector<int64_t> dims = x.rank() == 0 ? std::vector<int64_t>{1} : x.dims();  // a scalar counts as [1]
  const int64_t rank = static_cast<int64_t>(dims.size());
  Tensor out = Tensor::empty(ir::DataType::Int64, {rank, nnz});
  int64_t* o = out.mutableData<int64_t>();
  std::vector<int64_t> pos(rank, 0);
  int64_t j = 0;
  for (int64_t k = 0; k < x.size(); ++k) {
    if (flags[k]) {
      for (int64_t d = 0; d < rank; ++d) o[d * nnz + j] = pos[d];
      ++j;
    }
    for (int64_t d = rank; d-- > 0;) {
      if (++pos[d] < dims[d]) break;
      pos[d] = 0;
    }
  }
  return {out};
}

std::vector<Value> reverseSequence(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& lensT = c.input(1);
  if (x.rank() < 2) badInput("ReverseSequence of " + describe(x) + ": the input needs 2 dims at least");
  const int64_t batchAxis = c.node.attrInt("batch_axis", 1), timeAxis = c.node.attrInt("time_axis", 0);
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    badInput("ReverseSequence's batch_axis and time_axis must be 0 and 1, one each");
  const int64_t batch = x.dim(batchAxis), time = x.dim(timeAxis);
  const std::vector<int64_t> lens = indexValues(lensT, "ReverseSequence's sequence_lens");
  if (static_cast<int64_t>(lens.size()) != batch)
    badInput("ReverseSequence has " + std::to_string(lens.size()) + " lengths for a batch of " + std::to_string(batch));
  for (int64_t l : lens)
    if (l < 0 || l > time)
      badInput("ReverseSequence's length " + std::to_string(l) + " is outside [0, " + std::to_string(time) + "]");
  Tensor out = Tensor::empty(x.dtype(), x.dims());
  if (out.size() == 0) return {out};
  const int64_t inner = x.size() / (batch * time);
  const ElementMover mover(x, out, "ReverseSequence");
  auto row = [&](int64_t b, int64_t t) { return (timeAxis == 0 ? t * batch + b : b * time + t) * inner; };
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t t = 0; t < time; ++t) mover.copy(row(b, t), row(b, t < lens[b] ? lens[b] - 1 - t : t), inner);
  return {out};
}

std::vector<Value> trilu(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (x.rank() < 2) badInput("Trilu of " + describe(x) + ": the input needs 2 dims at least");
  const bool upper = c.node.attrInt("upper", 1) != 0;
  const int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
  int64_t k = 0;
  if (const Tensor* kt = c.optionalInput(1)) k = scalarIndex(*kt, "Trilu's k");
  k = std::clamp<int64_t>(k, -rows - 1, cols + 1);  // beyond the matrix every k keeps all or nothing
  Tensor out = Tensor::empty(x.dtype(), x.dims());
  if (out.size() == 0) return {out};
  const Tensor zero = Tensor::zeros(x.dtype(), {});
  const ElementMover mover(x, out, "Trilu");
  const int64_t matrices = x.size() / (rows * cols);
  for (int64_t m = 0; m < matrices; ++m)
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t row = (m * rows + i) * cols;
      // Upper keeps columns j >= i + k, lower keeps j <= i + k.
      const int64_t from = upper ? std::clamp<int64_t>(i + k, 0, cols) : 0;
      const int64_t to = upper ? cols : std::clamp<int64_t>(i + k + 1, 0, cols);
      mover.fill(row, from, zero);
      mover.copy(row + from, row + from, to - from);
      mover.fill(row + std::max(from, to), cols - std::max(from, to), zero);
    }
  return {out};
}

}  // namespace

void registerGatherKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Gather", 1, gather, asIs);  // negative indices are read from the end at every opset
  r.add("GatherElements", 11, gatherElements, asIs);
  r.add("GatherND", 11, gatherND, asIs);  // batch_dims from 12
  r.add("GatherND", 12, gatherND, asIs);
  r.add("Compress", 9, compress, asIs);  // negative axis from 11
  r.add("NonZero", 9, nonZero, asIs);
  r.add("ReverseSequence", 10, reverseSequence, asIs);
  r.add("Trilu", 14, trilu, asIs);
}

}  // namespace fb::eval::shape
