// Ops that write elements at places chosen by data: Scatter, ScatterElements, ScatterND (replacing, or combining with
// add, mul, max, min in the element type; float16 and bfloat16 through float, one rounding per update), and Col2Im,
// which sums overlapping blocks back into an image. Updates are applied in index order, so a repeated index ends
// with the last update (or every update combined), the same with any thread count.
#include <algorithm>

#include "eval/kernels/shape_parts.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/half.h"

namespace fb::eval::shape {

namespace {

enum class Reduction { None, Add, Mul, Max, Min };

Reduction reductionOf(const KernelContext& c) {
  if (c.opset < 16) return Reduction::None;
  const std::string r = c.node.attrString("reduction", "none");
  if (r == "none") return Reduction::None;
  if (r == "add") return Reduction::Add;
  if (r == "mul") return Reduction::Mul;
  if (c.opset >= 18 && r == "max") return Reduction::Max;
  if (c.opset >= 18 && r == "min") return Reduction::Min;
  badInput("reduction '" + r + "' is not known at opset " + std::to_string(c.opset));
}

template <typename T>
T combine(Reduction r, T a, T b) {
  switch (r) {
    case Reduction::Add:
      return static_cast<T>(a + b);
    case Reduction::Mul:
      return static_cast<T>(a * b);
    case Reduction::Max:
      return std::max(a, b);
    case Reduction::Min:
      return std::min(a, b);
    case Reduction::None:
      break;
  }
  return b;
}

// Writes updates[from .. from+count) into out[to ..), replacing or combining.
class UpdateWriter {
 public:
  UpdateWriter(const Tensor& updates, Tensor& out, Reduction r, const char* op)
      : updates_(updates), out_(out), r_(r), mover_(updates, out, op) {
    if (r != Reduction::None && out.isString()) unsupported(std::string(op) + " combining strings");
  }
  void write(int64_t to, int64_t from, int64_t count) const {
    if (r_ == Reduction::None) {
      mover_.copy(to, from, count);
      return;
    }
    const ir::DataType t = out_.dtype();
    if (t == ir::DataType::Float16 || t == ir::DataType::BFloat16) {
      const bool h = t == ir::DataType::Float16;
      const uint16_t* u = updates_.data<uint16_t>() + from;
      uint16_t* o = out_.mutableData<uint16_t>() + to;
      for (int64_t k = 0; k < count; ++k) {
        const float a = h ? halfBitsToFloat(o[k]) : bfloat16BitsToFloat(o[k]);
        const float b = h ? halfBitsToFloat(u[k]) : bfloat16BitsToFloat(u[k]);
        const float v = combine(r_, a, b);
        o[k] = h ? floatToHalfBits(v) : floatToBfloat16Bits(v);
      }
      return;
    }
    visitNumeric(t, [&]<typename T>() {
      const T* u = updates_.data<T>() + from;
      T* o = out_.mutableData<T>() + to;
      for (int64_t k = 0; k < count; ++k) o[k] = combine(r_, o[k], u[k]);
    });
  }

 private:
  const Tensor& updates_;
  Tensor& out_;
  Reduction r_;
  ElementMover mover_;
};

std::vector<Value> scatterElements(const KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& indices = c.input(1);
  const Tensor& updates = c.input(2);
  const int64_t rank = static_cast<int64_t>(data.rank());
  if (indices.dims() != updates.dims() || indices.rank() != data.rank())
    badInput("Scatter of " + describe(updates) + " at " + describe(indices) + " into " + describe(data));
  const int64_t axis = normalizeAxis(c.node.attrInt("axis", 0), rank, "Scatter's axis");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.dim(d) > data.dim(d))
      badInput("Scatter of " + describe(updates) + " at " + describe(indices) + " into " + describe(data));
  const int64_t dim = data.dim(axis);
  std::vector<int64_t> idx = indexValues(indices, "Scatter's indices");
  for (int64_t& i : idx) {
    if (i < -dim || i >= dim)
      badInput("Scatter's index " + std::to_string(i) + " is outside an axis of " + std::to_string(dim));
    if (i < 0) i += dim;
  }
  Tensor out = data.copy();
  if (updates.size() == 0) return {out};
  const UpdateWriter writer(updates, out, reductionOf(c), "ScatterElements");
  const std::vector<int64_t> strides = stridesOf(data.dims());
  std::vector<int64_t> pos(rank, 0);
  int64_t base = 0;  // offset of pos in data, the axis's term left out
  for (int64_t k = 0; k < updates.size(); ++k) {
    writer.write(base + idx[k] * strides[axis], k, 1);
    for (int64_t d = rank; d-- > 0;) {
      if (d != axis) base += strides[d];
      if (++pos[d] < indices.dim(d)) break;
      if (d != axis) base -= pos[d] * strides[d];
      pos[d] = 0;
    }
  }
  return {out};
}

std::vector<Value> scatterND(const KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& indices = c.input(1);
  const Tensor& updates = c.input(2);
  const int64_t r = static_cast<int64_t>(data.rank()), q = static_cast<int64_t>(indices.rank());
  if (q < 1) badInput("ScatterND's indices are a scalar");
  const int64_t m = indices.dim(q - 1);
  if (m > r) badInput("ScatterND's index tuples of " + std::to_string(m) + " do not fit " + describe(data));
  std::vector<int64_t> want(indices.dims().begin(), indices.dims().end() - 1);
  want.insert(want.end(), data.dims().begin() + m, data.dims().end());
  if (updates.dims() != want)
    badInput("ScatterND of " + describe(updates) + " at " + describe(indices) + " into " + describe(data));
  Tensor out = data.copy();
  if (updates.size() == 0) return {out};
  const std::vector<int64_t> idx = indexValues(indices, "ScatterND's indices");
  const std::vector<int64_t> strides = stridesOf(data.dims());
  int64_t slice = 1;
  for (int64_t d = m; d < r; ++d) slice *= data.dim(d);
  const int64_t tuples = m == 0 ? updates.size() / std::max<int64_t>(slice, 1) : indices.size() / m;
  const UpdateWriter writer(updates, out, reductionOf(c), "ScatterND");
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t to = 0;
    for (int64_t k = 0; k < m; ++k) {
      const int64_t dim = data.dim(k);
      int64_t i = idx[t * m + k];
      if (i < -dim || i >= dim)
        badInput("ScatterND's index " + std::to_string(i) + " is outside an axis of " + std::to_string(dim));
      if (i < 0) i += dim;
      to += i * strides[k];
    }
    writer.write(to, t * slice, slice);
  }
  return {out};
}

std::vector<Value> col2Im(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const std::vector<int64_t> image = indexValues(c.input(1), "Col2Im's image_shape");
  const std::vector<int64_t> block = indexValues(c.input(2), "Col2Im's block_shape");
  const size_t n = image.size();
  if (x.rank() != 3) badInput("Col2Im of " + describe(x) + ": the input must be [N, C * block, L]");
  if (block.size() != n || n == 0) badInput("Col2Im's image_shape and block_shape differ in length");
  auto attrOr = [&](const char* name, size_t count, int64_t def) {
    std::vector<int64_t> v = c.node.attrInts(name);
    if (!c.node.hasAttr(name)) v.assign(count, def);
    if (v.size() != count) badInput(std::string("Col2Im's ") + name + " has " + std::to_string(v.size()) + " entries");
    return v;
  };
  const std::vector<int64_t> dilations = attrOr("dilations", n, 1), strides = attrOr("strides", n, 1);
  const std::vector<int64_t> pads = attrOr("pads", 2 * n, 0);
  int64_t blockSize = 1, blocks = 1;
  std::vector<int64_t> counts(n);
  for (size_t d = 0; d < n; ++d) {
    if (block[d] <= 0 || image[d] < 0 || dilations[d] <= 0 || strides[d] <= 0 || pads[d] < 0 || pads[d + n] < 0)
      badInput("Col2Im's shapes, dilations, strides and pads must be positive");
    blockSize = checkedMul(blockSize, block[d]);
    const int64_t span = checkedAdd(checkedMul(dilations[d], block[d] - 1), 1);
    const int64_t room = checkedAdd(checkedAdd(image[d], pads[d]), pads[d + n]) - span;
    counts[d] = room < 0 ? 0 : room / strides[d] + 1;
    blocks = checkedMul(blocks, counts[d]);
  }
  if (x.dim(1) % blockSize != 0 || x.dim(2) != blocks)
    badInput("Col2Im of " + describe(x) + ": it does not hold blocks of " + std::to_string(blockSize) + " at " +
             std::to_string(blocks) + " places");
  const int64_t batch = x.dim(0), channels = x.dim(1) / blockSize;
  std::vector<int64_t> dims{batch, channels};
  dims.insert(dims.end(), image.begin(), image.end());
  Tensor out = Tensor::zeros(x.dtype(), dims);
  if (x.size() == 0) return {out};
  const int64_t imageSize = out.size() / std::max<int64_t>(1, batch * channels);
  const std::vector<int64_t> imageStrides = stridesOf(image);
  visitNumeric(x.dtype(), [&]<typename T>() {
    const T* in = x.data<T>();
    T* o = out.mutableData<T>();
    std::vector<int64_t> kpos(n), lpos(n);
    for (int64_t bc = 0; bc < batch * channels; ++bc) {
      T* img = o + bc * imageSize;
      for (int64_t kIndex = 0; kIndex < blockSize; ++kIndex) {
        int64_t rest = kIndex;
        for (size_t d = n; d-- > 0;) {
          kpos[d] = rest % block[d];
          rest /= block[d];
        }
        const T* col = in + (bc * blockSize + kIndex) * blocks;
        for (int64_t l = 0; l < blocks; ++l) {
          rest = l;
          int64_t at = 0;
          bool inside = true;
          for (size_t d = n; d-- > 0;) {
            lpos[d] = rest % counts[d];
            rest /= counts[d];
            const int64_t p = lpos[d] * strides[d] - pads[d] + kpos[d] * dilations[d];
            inside = inside && p >= 0 && p < image[d];
            at += p * imageStrides[d];
          }
          if (inside) img[at] = static_cast<T>(img[at] + col[l]);
        }
      }
    }
  });
  return {out};
}

}  // namespace

void registerScatterKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Scatter", 9, scatterElements, asIs);  // ScatterElements' older name (deprecated from 11)
  r.add("ScatterElements", 11, scatterElements, asIs);
  r.add("ScatterElements", 16, scatterElements, asIs);  // reduction add, mul
  r.add("ScatterElements", 18, scatterElements, asIs);  // reduction max, min
  r.add("ScatterND", 11, scatterND, asIs);
  r.add("ScatterND", 16, scatterND, asIs);
  r.add("ScatterND", 18, scatterND, asIs);
  r.add("Col2Im", 18, col2Im);  // sums: float16 and bfloat16 through float
}

}  // namespace fb::eval::shape
