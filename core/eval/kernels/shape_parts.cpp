#include "eval/kernels/shape_parts.h"

#include <algorithm>
#include <cstring>

#include "ir/packed_types.h"

namespace fb::eval::shape {

int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    badInput(what + " " + std::to_string(axis) + " is outside [" + std::to_string(-rank) + ", " +
             std::to_string(rank - 1) + "]");
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> normalizeAxes(const std::vector<int64_t>& axes, int64_t rank, const std::string& what) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (int64_t a : axes) out.push_back(normalizeAxis(a, rank, what));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) badInput(what + " names an axis twice");
  return out;
}

std::vector<int64_t> indexValues(const Tensor& t, const std::string& what) {
  if (t.dtype() != ir::DataType::Int64 && t.dtype() != ir::DataType::Int32)
    badInput(what + " is " + describe(t) + " where int32 or int64 is expected");
  std::vector<int64_t> v(static_cast<size_t>(t.size()));
  if (t.dtype() == ir::DataType::Int64) {
    if (!v.empty()) std::memcpy(v.data(), t.data<int64_t>(), v.size() * 8);
  } else {
    const int32_t* p = t.data<int32_t>();
    for (size_t k = 0; k < v.size(); ++k) v[k] = p[k];
  }
  return v;
}

int64_t scalarIndex(const Tensor& t, const std::string& what) {
  if (t.size() != 1) badInput(what + " is " + describe(t) + " where one value is expected");
  return indexValues(t, what)[0];
}

std::vector<int64_t> intsFromAttrOrInput(const KernelContext& c, const char* name, size_t k, int64_t inputSince,
                                         bool* present) {
  if (c.opset >= inputSince) {
    const Tensor* t = c.optionalInput(k);
    if (present) *present = t != nullptr;
    return t ? indexValues(*t, std::string("input '") + name + "'") : std::vector<int64_t>{};
  }
  const ir::Attribute* a = c.node.attr(name);
  if (present) *present = a != nullptr;
  return a ? a->ints : std::vector<int64_t>{};
}

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) badInput("a size overflows int64");
  return r;
}

int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) badInput("a size overflows int64");
  return r;
}

std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size());
  int64_t acc = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    s[k] = acc;
    acc *= dims[k];
  }
  return s;
}

bool isPacked(ir::DataType t) { return t != ir::DataType::String && ir::elementBits(t) % 8 != 0; }

Tensor unpackCodes(const Tensor& t) {
  const size_t bits = ir::elementBits(t.dtype());
  Tensor codes = Tensor::empty(ir::DataType::UInt8, t.dims());
  const auto* packed = reinterpret_cast<const uint8_t*>(t.bytes().data());
  uint8_t* c = codes.mutableData<uint8_t>();
  const unsigned mask = (1u << bits) - 1;
  for (int64_t k = 0; k < t.size(); ++k) {
    const size_t bit = static_cast<size_t>(k) * bits;
    c[k] = static_cast<uint8_t>((packed[bit / 8] >> (bit % 8)) & mask);
  }
  return codes;
}

Tensor packCodes(const Tensor& codes, ir::DataType t) {
  const size_t bits = ir::elementBits(t);
  Tensor out = Tensor::zeros(t, codes.dims());  // the padding bits of the last byte stay 0
  uint8_t* packed = out.mutableData<uint8_t>();
  const uint8_t* c = codes.data<uint8_t>();
  const unsigned mask = (1u << bits) - 1;
  for (int64_t k = 0; k < codes.size(); ++k) {
    const size_t bit = static_cast<size_t>(k) * bits;
    packed[bit / 8] = static_cast<uint8_t>(packed[bit / 8] | ((c[k] & mask) << (bit % 8)));
  }
  return out;
}

size_t movableElementSize(ir::DataType t, const char* op) {
  if (t == ir::DataType::String) return 0;
  if (ir::elementBits(t) % 8 != 0)
    unsupported(std::string(op) + " of " + std::string(ir::dataTypeName(t)) +
                ": its elements are packed several to a byte and cannot be moved one by one");
  const size_t es = ir::elementSize(t);
  if (es != 1 && es != 2 && es != 4 && es != 8 && es != 16)
    unsupported(std::string(op) + " of element type " + std::string(ir::dataTypeName(t)));
  return es;
}

ElementMover::ElementMover(const Tensor& src, Tensor& dst, const char* op) : es_(movableElementSize(dst.dtype(), op)) {
  if (src.dtype() != dst.dtype())
    badInput(std::string(op) + ": " + describe(src) + " and " + describe(dst) + " are of different types");
  if (dst.isString()) {
    srcStrings_ = src.stringValues().data();
    dstStrings_ = dst.mutableStrings().data();
  } else {
    src_ = src.bytes().data();
    dst_ = dst.mutableData<std::byte>();
  }
}

void ElementMover::copy(int64_t dstIndex, int64_t srcIndex, int64_t count) const {
  if (count <= 0) return;
  if (dstStrings_) {
    std::copy_n(srcStrings_ + srcIndex, count, dstStrings_ + dstIndex);
    return;
  }
  std::memcpy(dst_ + dstIndex * es_, src_ + srcIndex * es_, static_cast<size_t>(count) * es_);
}

void ElementMover::copyStrided(int64_t dstIndex, int64_t srcIndex, int64_t count, int64_t srcStride) const {
  if (count <= 0) return;
  if (dstStrings_) {
    for (int64_t k = 0; k < count; ++k) dstStrings_[dstIndex + k] = srcStrings_[srcIndex + k * srcStride];
    return;
  }
  withElementBytes(es_, [&]<typename E>() {
    const E* s = reinterpret_cast<const E*>(src_) + srcIndex;
    E* d = reinterpret_cast<E*>(dst_) + dstIndex;
    for (int64_t k = 0; k < count; ++k) d[k] = s[k * srcStride];
  });
}

void ElementMover::fill(int64_t dstIndex, int64_t count, const Tensor& value, int64_t at) const {
  if (count <= 0) return;
  if (dstStrings_) {
    std::fill_n(dstStrings_ + dstIndex, count, value.stringValues()[at]);
    return;
  }
  withElementBytes(es_, [&]<typename E>() {
    const E v = reinterpret_cast<const E*>(value.bytes().data())[at];
    std::fill_n(reinterpret_cast<E*>(dst_) + dstIndex, count, v);
  });
}

namespace {

// A transpose whose output rows read the input with a stride, done in strips: dim `a` of the output is contiguous
// in the input, the last dim `b` is contiguous in the output, and a strip of kTile output columns is filled for
// every i along a, so the kTile input lines it reads stay in cache while each serves kTile elements. Without this
// a 4096 x 4096 transpose reads a new cache line (and often a new page) for every element.
template <typename E>
void copyTiles(const E* src, E* dst, int64_t base, const std::vector<int64_t>& dims,
               const std::vector<int64_t>& strides, size_t a, int threads, bool parallel) {
  constexpr int64_t kTile = 32;
  const size_t b = dims.size() - 1;
  const std::vector<int64_t> outStrides = stridesOf(dims);
  const int64_t tilesB = (dims[b] + kTile - 1) / kTile;
  int64_t others = 1;
  for (size_t k = 0; k < b; ++k)
    if (k != a) others *= dims[k];
  const int64_t units = others * tilesB;
  const int64_t readStride = strides[b], writeStride = outStrides[a];
#pragma omp parallel for num_threads(threads) if (parallel && units > 1) schedule(static)
  for (int64_t u = 0; u < units; ++u) {
    const int64_t b0 = (u % tilesB) * kTile, countB = std::min(dims[b], b0 + kTile) - b0;
    int64_t rest = u / tilesB, from = base + b0 * readStride, to = b0;
    for (size_t k = b; k-- > 0;) {
      if (k == a) continue;
      const int64_t i = rest % dims[k];
      rest /= dims[k];
      from += i * strides[k];
      to += i * outStrides[k];
    }
    // Each input line read here (kTile elements along b) is reused while it is in cache for the next i.
    for (int64_t i = 0; i < dims[a]; ++i) {
      const E* s = src + from + i;
      E* d = dst + to + i * writeStride;
      for (int64_t j = 0; j < countB; ++j) d[j] = s[j * readStride];
    }
  }
}

// Calls row(r, from) for every row r of `dims` but the last, `from` being the row's first source element, the rows
// split into chunks across threads (each chunk walks its rows with an odometer, no division per row).
template <typename RowFn>
void forEachRow(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, int64_t base, int threads,
                bool parallel, RowFn row) {
  const size_t outer = dims.size() - 1;
  int64_t rows = 1;
  for (size_t k = 0; k < outer; ++k) rows *= dims[k];
  const int64_t chunks = parallel ? std::min<int64_t>(rows, threads * 8) : 1;
#pragma omp parallel for num_threads(threads) if (parallel && chunks > 1) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t r0 = rows * c / chunks, r1 = rows * (c + 1) / chunks;
    std::vector<int64_t> idx(outer, 0);
    int64_t from = base, rest = r0;
    for (size_t k = outer; k-- > 0;) {
      idx[k] = rest % dims[k];
      rest /= dims[k];
      from += idx[k] * strides[k];
    }
    for (int64_t r = r0; r < r1; ++r) {
      row(r, from);
      for (size_t k = outer; k-- > 0;) {
        from += strides[k];
        if (++idx[k] < dims[k]) break;
        from -= idx[k] * strides[k];
        idx[k] = 0;
      }
    }
  }
}

template <typename E>
void copyTyped(const E* src, E* dst, int64_t base, const std::vector<int64_t>& dims,
               const std::vector<int64_t>& strides, int threads, bool parallel) {
  const int64_t inner = dims.back(), innerStride = strides.back();
  if (innerStride != 0 && innerStride != 1) {
    const auto a = std::find(strides.begin(), strides.end() - 1, int64_t{1});
    if (a != strides.end() - 1) {
      copyTiles(src, dst, base, dims, strides, static_cast<size_t>(a - strides.begin()), threads, parallel);
      return;
    }
  }
  forEachRow(dims, strides, base, threads, parallel, [&](int64_t r, int64_t from) {
    E* d = dst + r * inner;
    const E* s = src + from;
    if (innerStride == 1)
      std::memcpy(d, s, static_cast<size_t>(inner) * sizeof(E));
    else if (innerStride == 0)
      std::fill_n(d, inner, *s);
    else
      for (int64_t j = 0; j < inner; ++j) d[j] = s[j * innerStride];
  });
}

}  // namespace

void stridedCopy(const Tensor& src, int64_t base, const std::vector<int64_t>& viewDims,
                 const std::vector<int64_t>& srcStrides, Tensor& out, int threads, const char* op) {
  const int64_t n = out.size();
  if (n == 0) return;
  const ElementMover mover(src, out, op);
  // Dims of 1 move nothing; neighbours whose source runs continue each other are one dim.
  std::vector<int64_t> dims, strides;
  for (size_t k = 0; k < viewDims.size(); ++k) {
    const int64_t d = viewDims[k];
    if (d == 1) continue;
    if (!dims.empty() && strides.back() == srcStrides[k] * d) {
      dims.back() *= d;
      strides.back() = srcStrides[k];
    } else {
      dims.push_back(d);
      strides.push_back(srcStrides[k]);
    }
  }
  if (dims.empty()) {
    mover.copy(0, base, 1);
    return;
  }
  size_t es = mover.elementSize();
  const bool parallel = threads > 1 && n * static_cast<int64_t>(std::max<size_t>(es, 8)) > (int64_t{1} << 18);
  if (out.isString()) {
    const int64_t inner = dims.back(), innerStride = strides.back();
    forEachRow(dims, strides, base, threads, parallel,
               [&](int64_t r, int64_t from) { mover.copyStrided(r * inner, from, inner, innerStride); });
    return;
  }
  // A short contiguous run (the 2 floats of a [..., 2] moved as a whole) is one wider element when every offset
  // is a whole number of runs: the rows then move in one typed loop, or in tiles, instead of a memcpy call each.
  const int64_t run = dims.back();
  if (dims.size() > 1 && strides.back() == 1 && base % run == 0 &&
      (es * run == 2 || es * run == 4 || es * run == 8 || es * run == 16)) {
    const bool whole = std::all_of(strides.begin(), strides.end() - 1, [run](int64_t s) { return s % run == 0; });
    if (whole) {
      dims.pop_back();
      strides.pop_back();
      for (int64_t& s : strides) s /= run;
      base /= run;
      es *= static_cast<size_t>(run);
    }
  }
  withElementBytes(es, [&]<typename E>() {
    copyTyped(reinterpret_cast<const E*>(src.bytes().data()), out.mutableData<E>(), base, dims, strides, threads,
              parallel);
  });
}

}  // namespace fb::eval::shape
