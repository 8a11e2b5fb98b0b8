// Kernels that move elements by index tensors or repeat them. Element values are copied, never converted,
// so every supported element type works alike.
#include <algorithm>

#include "eval/kernel_table.h"

namespace fb::eval {
namespace {

using Dims = std::vector<int64_t>;

[[noreturn]] void unsupported(const ir::Node& n, const std::string& why) { throw Unsupported(n.opType + ": " + why); }

const Array& input(const ir::Node& n, const std::vector<const Array*>& ins, size_t k) {
  if (k >= ins.size() || !ins[k]) unsupported(n, "input " + std::to_string(k) + " missing");
  return *ins[k];
}
bool present(const std::vector<const Array*>& ins, size_t k) { return k < ins.size() && ins[k]; }

Dims stridesOf(const Dims& d) {
  Dims s(d.size(), 1);
  for (int64_t k = static_cast<int64_t>(d.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * d[k + 1];
  return s;
}

void copyElement(Array& dst, size_t di, const Array& src, size_t si) {
  if (dst.isFloat())
    dst.f[di] = src.f[si];
  else
    dst.i[di] = src.i[si];
}

int64_t axisOf(const ir::Node& n, int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) unsupported(n, "axis out of range");
  return axis < 0 ? axis + r : axis;
}

// An index into a dim of size `dim`, negative counting from the end, as the runtimes accept it.
int64_t indexInto(const ir::Node& n, int64_t ix, int64_t dim) {
  if (ix < -dim || ix >= dim) unsupported(n, "index out of range");
  return ix < 0 ? ix + dim : ix;
}

// Only plain replacement: reductions (add, mul, max, min) combine values and are left to the runtime.
void requireNoReduction(const ir::Node& n) {
  if (n.attrString("reduction", "none") != "none") unsupported(n, "reduction");
}

Array scatterND(const ir::Node& n, const std::vector<const Array*>& ins) {
  requireNoReduction(n);
  const Array &data = input(n, ins, 0), &indices = input(n, ins, 1), &updates = input(n, ins, 2);
  if (indices.isFloat() || indices.dims.empty() || updates.dtype != data.dtype) unsupported(n, "input types");
  const size_t k = static_cast<size_t>(indices.dims.back());
  if (k > data.dims.size()) unsupported(n, "index tuples longer than the data's rank");
  const Dims dataStrides = stridesOf(data.dims);
  const int64_t sliceSize = elementCount(Dims(data.dims.begin() + k, data.dims.end()));
  const int64_t tuples = elementCount(Dims(indices.dims.begin(), indices.dims.end() - 1));
  if (static_cast<int64_t>(updates.size()) != tuples * sliceSize) unsupported(n, "updates do not match the indices");
  Array r = data.copy();
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (size_t d = 0; d < k; ++d) offset += indexInto(n, indices.i[t * k + d], data.dims[d]) * dataStrides[d];
    for (int64_t q = 0; q < sliceSize; ++q) copyElement(r, offset + q, updates, t * sliceSize + q);
  }
  return r;
}

// Visits every position of `dims` with its multi-index and flat offset.
template <typename F>
void forEachIndex(const Dims& dims, F f) {
  const int64_t total = elementCount(dims);
  Dims idx(dims.size(), 0);
  for (int64_t e = 0; e < total; ++e) {
    f(idx, e);
    for (int64_t k = static_cast<int64_t>(dims.size()) - 1; k >= 0; --k) {
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
    }
  }
}

// ScatterElements and GatherElements: the offset in `data` of the element at `idx` (a position in the indices)
// with its coordinate on `axis` replaced by the index found there.
int64_t elementOffset(const ir::Node& n, const Dims& dims, const Dims& strides, const Dims& idx, int64_t axis,
                      int64_t index) {
  int64_t offset = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    const int64_t at = static_cast<int64_t>(d) == axis ? indexInto(n, index, dims[d]) : idx[d];
    if (at >= dims[d]) unsupported(n, "index out of range");
    offset += at * strides[d];
  }
  return offset;
}

Array scatterElements(const ir::Node& n, const std::vector<const Array*>& ins) {
  requireNoReduction(n);
  const Array &data = input(n, ins, 0), &indices = input(n, ins, 1), &updates = input(n, ins, 2);
  if (indices.isFloat() || updates.dtype != data.dtype || indices.dims != updates.dims ||
      indices.dims.size() != data.dims.size())
    unsupported(n, "input types or shapes");
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), data.dims.size());
  const Dims strides = stridesOf(data.dims);
  Array r = data.copy();
  forEachIndex(indices.dims, [&](const Dims& idx, int64_t e) {
    const int64_t offset = elementOffset(n, data.dims, strides, idx, axis, indices.i[e]);
    copyElement(r, offset, updates, e);
  });
  return r;
}

Array gatherElements(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &data = input(n, ins, 0), &indices = input(n, ins, 1);
  if (indices.isFloat() || indices.dims.size() != data.dims.size()) unsupported(n, "input types or shapes");
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), data.dims.size());
  const Dims strides = stridesOf(data.dims);
  Array r = Array::zeros(data.dtype, indices.dims);
  forEachIndex(indices.dims, [&](const Dims& idx, int64_t e) {
    const int64_t offset = elementOffset(n, data.dims, strides, idx, axis, indices.i[e]);
    copyElement(r, e, data, offset);
  });
  return r;
}

Array gatherND(const ir::Node& n, const std::vector<const Array*>& ins) {
  if (n.attrInt("batch_dims", 0) != 0) unsupported(n, "batch_dims");
  const Array &data = input(n, ins, 0), &indices = input(n, ins, 1);
  if (indices.isFloat() || indices.dims.empty()) unsupported(n, "index type");
  const size_t k = static_cast<size_t>(indices.dims.back());
  if (k > data.dims.size()) unsupported(n, "index tuples longer than the data's rank");
  Dims out(indices.dims.begin(), indices.dims.end() - 1);
  out.insert(out.end(), data.dims.begin() + k, data.dims.end());
  const Dims strides = stridesOf(data.dims);
  const int64_t sliceSize = elementCount(Dims(data.dims.begin() + k, data.dims.end()));
  const int64_t tuples = elementCount(Dims(indices.dims.begin(), indices.dims.end() - 1));
  Array r = Array::zeros(data.dtype, out);
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t offset = 0;
    for (size_t d = 0; d < k; ++d) offset += indexInto(n, indices.i[t * k + d], data.dims[d]) * strides[d];
    for (int64_t q = 0; q < sliceSize; ++q) copyElement(r, t * sliceSize + q, data, offset + q);
  }
  return r;
}

Array tile(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array &data = input(n, ins, 0), &repeats = input(n, ins, 1);
  if (repeats.isFloat() || repeats.size() != data.dims.size()) unsupported(n, "repeats");
  Dims out = data.dims;
  for (size_t d = 0; d < out.size(); ++d) {
    if (repeats.i[d] < 0 || __builtin_mul_overflow(out[d], repeats.i[d], &out[d])) unsupported(n, "repeats");
  }
  const Dims strides = stridesOf(data.dims);
  Array r = Array::zeros(data.dtype, out);
  forEachIndex(out, [&](const Dims& idx, int64_t e) {
    int64_t offset = 0;
    for (size_t d = 0; d < idx.size(); ++d) offset += (idx[d] % data.dims[d]) * strides[d];
    copyElement(r, e, data, offset);
  });
  return r;
}

std::vector<Array> split(const ir::Node& n, const std::vector<const Array*>& ins, int64_t opset) {
  const Array& data = input(n, ins, 0);
  const int64_t axis = axisOf(n, n.attrInt("axis", 0), data.dims.size());
  const int64_t dim = data.dims[axis];
  const int64_t outputs = static_cast<int64_t>(n.outputs().size());
  Dims sizes;
  if (opset >= 13 && present(ins, 1)) {
    for (size_t k = 0; k < ins[1]->size(); ++k) sizes.push_back(ins[1]->getI(k));
  } else if (opset < 13) {
    sizes = n.attrInts("split");
  }
  if (sizes.empty()) {
    // Equal parts; from opset 18 (num_outputs) the last may be smaller, before it they must divide evenly.
    const int64_t parts = opset >= 18 ? n.attrInt("num_outputs", outputs) : outputs;
    if (parts <= 0 || parts != outputs) unsupported(n, "output count");
    const int64_t each = opset >= 18 ? (dim + parts - 1) / parts : dim / parts;
    if (opset < 18 && dim % parts) unsupported(n, "dim does not split evenly");
    for (int64_t k = 0; k < parts; ++k) sizes.push_back(std::max<int64_t>(0, std::min(each, dim - k * each)));
  }
  int64_t sum = 0;
  for (auto s : sizes) {
    if (s < 0 || __builtin_add_overflow(sum, s, &sum)) unsupported(n, "split sizes");
  }
  if (sum != dim || static_cast<int64_t>(sizes.size()) != outputs) unsupported(n, "split sizes do not match");
  const int64_t outer = elementCount(Dims(data.dims.begin(), data.dims.begin() + axis));
  const int64_t inner = elementCount(Dims(data.dims.begin() + axis + 1, data.dims.end()));
  std::vector<Array> out;
  int64_t start = 0;
  for (auto s : sizes) {
    Dims d = data.dims;
    d[axis] = s;
    Array r = Array::zeros(data.dtype, d);
    size_t w = 0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t q = 0; q < s * inner; ++q) copyElement(r, w++, data, (o * dim + start) * inner + q);
    out.push_back(std::move(r));
    start += s;
  }
  return out;
}

Array trilu(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array& data = input(n, ins, 0);
  if (data.dims.size() < 2) unsupported(n, "rank below 2");
  if (present(ins, 1) && ins[1]->size() != 1) unsupported(n, "k");
  const int64_t k = present(ins, 1) ? ins[1]->getI(0) : 0;
  const bool upper = n.attrInt("upper", 1) != 0;
  const int64_t rows = data.dims[data.dims.size() - 2], cols = data.dims.back();
  Array r = data.copy();
  for (size_t e = 0; e < r.size(); ++e) {
    const int64_t j = static_cast<int64_t>(e) % cols, i = (static_cast<int64_t>(e) / cols) % rows;
    const bool keep = upper ? j - i >= k : j - i <= k;
    if (keep) continue;
    if (r.isFloat())
      r.f[e] = 0;
    else
      r.i[e] = 0;
  }
  return r;
}

Array cumSum(const ir::Node& n, const std::vector<const Array*>& ins) {
  const Array& data = input(n, ins, 0);
  if (input(n, ins, 1).size() != 1) unsupported(n, "axis");
  const int64_t axis = axisOf(n, ins[1]->getI(0), data.dims.size());
  const bool exclusive = n.attrInt("exclusive", 0) != 0, reverse = n.attrInt("reverse", 0) != 0;
  if (data.dtype == ir::DataType::Bool) unsupported(n, "bool input");
  const int64_t len = data.dims[axis];
  const int64_t outer = elementCount(Dims(data.dims.begin(), data.dims.begin() + axis));
  const int64_t inner = elementCount(Dims(data.dims.begin() + axis + 1, data.dims.end()));
  Array r = data.copy();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t q = 0; q < inner; ++q) {
      double accD = 0;
      int64_t accI = 0;
      for (int64_t s = 0; s < len; ++s) {
        const int64_t at = (o * len + (reverse ? len - 1 - s : s)) * inner + q;
        if (r.isFloat()) {
          const double v = data.f[at];
          r.f[at] = exclusive ? accD : accD + v;
          accD += v;
        } else {
          const int64_t v = data.i[at];
          // Wrapping as a runtime's sum does: signed overflow would be undefined here.
          const int64_t next = static_cast<int64_t>(static_cast<uint64_t>(accI) + static_cast<uint64_t>(v));
          r.i[at] = exclusive ? accI : next;
          accI = next;
        }
      }
    }
  // float32 sums are rounded at every step by a runtime; only exact (integer) sums are folded.
  if (r.dtype == ir::DataType::Float) unsupported(n, "float32 sums");
  if (r.dtype != ir::DataType::Int64 && r.dtype != ir::DataType::Int32 && r.dtype != ir::DataType::Double)
    unsupported(n, "element type");
  if (r.dtype == ir::DataType::Int32)
    for (auto& v : r.i) v = static_cast<int32_t>(v);
  return r;
}

template <typename F>
Kernel single(F f) {
  return
      [f](const ir::Node& n, const std::vector<const Array*>& ins, int64_t) { return std::vector<Array>{f(n, ins)}; };
}

}  // namespace

void addIndexingKernels(KernelTable& t) {
  t["ScatterND"] = single(scatterND);
  t["ScatterElements"] = single(scatterElements);
  t["Scatter"] = single(scatterElements);  // opset 9-10 name of ScatterElements
  t["GatherElements"] = single(gatherElements);
  t["GatherND"] = single(gatherND);
  t["Tile"] = single(tile);
  t["Split"] = split;
  t["Trilu"] = single(trilu);
  t["CumSum"] = single(cumSum);
}

}  // namespace fb::eval
