// Ops that move elements in blocks: Transpose, Concat, Split, Slice, Expand, Tile, DepthToSpace, SpaceToDepth. Each
// is stated as a strided view of its input (stridedCopy) or as runs of whole rows, so contiguous runs move by memcpy
// whatever the element type; these run in every transformer and must not go element by element.
#include <algorithm>
#include <numeric>

#include "eval/kernels/broadcast.h"
#include "eval/kernels/shape_parts.h"

namespace fb::eval::shape {

namespace {

std::vector<Value> transpose(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  std::vector<int64_t> perm = c.node.attrInts("perm");
  if (!c.node.hasAttr("perm")) {
    perm.resize(rank);
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  if (static_cast<int64_t>(perm.size()) != rank)
    badInput("Transpose's perm has " + std::to_string(perm.size()) + " entries for " + describe(x));
  for (int64_t& p : perm) p = normalizeAxis(p, rank, "Transpose's perm entry");
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) badInput("Transpose's perm repeats an axis");
  bool unchanged = true;
  for (int64_t k = 0; k < rank; ++k) unchanged = unchanged && (perm[k] == k || x.dim(perm[k]) == 1);
  const std::vector<int64_t> inStrides = stridesOf(x.dims());
  std::vector<int64_t> dims(rank), strides(rank);
  for (int64_t k = 0; k < rank; ++k) {
    dims[k] = x.dim(perm[k]);
    strides[k] = inStrides[perm[k]];
  }
  if (unchanged) return {x.reshaped(dims)};  // only dims of 1 move: the same bytes
  if (isPacked(x.dtype())) {
    const Tensor codes = unpackCodes(x);
    Tensor out = Tensor::empty(codes.dtype(), dims);
    stridedCopy(codes, 0, dims, strides, out, c.threads(), "Transpose");
    return {packCodes(out, x.dtype())};
  }
  Tensor out = Tensor::empty(x.dtype(), dims);
  stridedCopy(x, 0, dims, strides, out, c.threads(), "Transpose");
  return {out};
}

std::vector<Value> concat(const KernelContext& c) {
  if (c.inputCount() == 0) badInput("Concat has no inputs");
  const Tensor& first = c.input(0);
  const int64_t rank = static_cast<int64_t>(first.rank());
  if (rank == 0) badInput("Concat of scalars");
  if (c.opset >= 4 && !c.node.hasAttr("axis")) badInput("Concat needs an axis");
  int64_t axis = c.node.attrInt("axis", 1);
  if (axis < 0 && c.opset < 11) badInput("Concat's axis is negative before opset 11");
  axis = normalizeAxis(axis, rank, "Concat's axis");
  std::vector<int64_t> dims = first.dims();
  dims[axis] = 0;
  for (size_t k = 0; k < c.inputCount(); ++k) {
    const Tensor& t = c.input(k);
    if (t.dtype() != first.dtype() || t.rank() != first.rank())
      badInput("Concat of " + describe(first) + " and " + describe(t));
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.dim(d) != first.dim(d)) badInput("Concat of " + describe(first) + " and " + describe(t));
    dims[axis] = checkedAdd(dims[axis], t.dim(axis));
  }
  if (c.inputCount() == 1) return {first};
  Tensor out = Tensor::empty(first.dtype(), dims);
  if (out.size() == 0) return {out};
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= dims[d];
  const int64_t outRow = dims[axis] * inner;
  std::vector<ElementMover> movers;
  std::vector<int64_t> rowOf, startOf;
  int64_t start = 0;
  for (size_t k = 0; k < c.inputCount(); ++k) {
    const Tensor& t = c.input(k);
    movers.emplace_back(t, out, "Concat");
    rowOf.push_back(t.dim(axis) * inner);
    startOf.push_back(start);
    start += rowOf.back();
  }
  const bool parallel = c.threads() > 1 && outer > 1 && out.size() > (int64_t{1} << 16);
#pragma omp parallel for num_threads(c.threads()) if (parallel) schedule(static)
  for (int64_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < movers.size(); ++k) movers[k].copy(o * outRow + startOf[k], o * rowOf[k], rowOf[k]);
  return {out};
}

std::vector<Value> split(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  const int64_t axis = normalizeAxis(c.node.attrInt("axis", 0), rank, "Split's axis");
  const int64_t dim = x.dim(axis);
  const int64_t outputs = static_cast<int64_t>(c.node.outputs().size());
  bool given = false;
  std::vector<int64_t> sizes;
  if (c.opset < 2 && c.optionalInput(1)) {  // Split-1 took the sizes as an input as well as an attribute
    sizes = indexValues(*c.optionalInput(1), "Split's split");
    given = true;
  } else {
    sizes = intsFromAttrOrInput(c, "split", 1, 13, &given);
  }
  if (given) {
    if (static_cast<int64_t>(sizes.size()) != outputs)
      badInput("Split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(outputs) + " outputs");
    int64_t sum = 0;
    for (int64_t s : sizes) {
      if (s < 0) badInput("Split has a negative size");
      sum = checkedAdd(sum, s);
    }
    if (sum != dim) badInput("Split's sizes add up to " + std::to_string(sum) + ", not " + std::to_string(dim));
  } else {
    const int64_t parts = c.opset >= 18 && c.node.hasAttr("num_outputs") ? c.node.attrInt("num_outputs", 0) : outputs;
    if (parts <= 0 || parts != outputs)
      badInput("Split into " + std::to_string(parts) + " parts with " + std::to_string(outputs) + " outputs");
    if (dim % parts != 0 && c.opset < 18)
      badInput("Split of " + std::to_string(dim) + " into " + std::to_string(parts) + " equal parts");
    const int64_t chunk = (dim + parts - 1) / parts;  // from opset 18 the last part is the smaller one
    for (int64_t k = 0; k < parts; ++k) sizes.push_back(std::clamp<int64_t>(dim - k * chunk, 0, chunk));
  }
  const std::vector<int64_t> strides = stridesOf(x.dims());
  std::vector<Value> out;
  int64_t offset = 0;
  for (int64_t s : sizes) {
    std::vector<int64_t> dims = x.dims();
    dims[axis] = s;
    Tensor part = Tensor::empty(x.dtype(), dims);
    stridedCopy(x, offset * strides[axis], dims, strides, part, c.threads(), "Split");
    out.emplace_back(std::move(part));
    offset += s;
  }
  return out;
}

std::vector<Value> slice(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  std::vector<int64_t> starts, ends, axes, steps;
  bool hasAxes = false, hasSteps = false;
  if (c.opset < 10) {
    starts = c.node.attrInts("starts");
    ends = c.node.attrInts("ends");
    hasAxes = c.node.hasAttr("axes");
    axes = c.node.attrInts("axes");
  } else {
    starts = indexValues(c.input(1), "Slice's starts");
    ends = indexValues(c.input(2), "Slice's ends");
    if (const Tensor* a = c.optionalInput(3)) {
      axes = indexValues(*a, "Slice's axes");
      hasAxes = true;
    }
    if (const Tensor* s = c.optionalInput(4)) {
      steps = indexValues(*s, "Slice's steps");
      hasSteps = true;
    }
  }
  const size_t n = starts.size();
  if (ends.size() != n)
    badInput("Slice has " + std::to_string(n) + " starts and " + std::to_string(ends.size()) + " ends");
  if (!hasAxes) {
    axes.resize(n);
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (!hasSteps) steps.assign(n, 1);
  if (axes.size() != n || steps.size() != n) badInput("Slice's starts, ends, axes and steps differ in length");
  std::vector<int64_t> dims = x.dims(), first(rank, 0), step(rank, 1);
  std::vector<bool> seen(rank, false);
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = normalizeAxis(axes[k], rank, "Slice's axis");
    if (seen[a]) badInput("Slice names axis " + std::to_string(a) + " twice");
    seen[a] = true;
    const int64_t d = x.dim(a);
    if (steps[k] == 0) badInput("Slice's step is 0");
    // A step longer than the axis takes one element at most; shortening it keeps the strides below from overflowing.
    const int64_t st = std::clamp<int64_t>(steps[k], -std::max<int64_t>(d, 1), std::max<int64_t>(d, 1));
    int64_t b = starts[k], e = ends[k];
    if (b < 0) b += d;
    if (e < 0) e += d;
    int64_t count;
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      count = e > b ? (e - b - 1) / st + 1 : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      count = b > e ? (b - e - 1) / (-st) + 1 : 0;
    }
    dims[a] = count;
    first[a] = count > 0 ? b : 0;
    step[a] = st;
  }
  const std::vector<int64_t> inStrides = stridesOf(x.dims());
  std::vector<int64_t> strides(rank);
  int64_t base = 0;
  for (int64_t a = 0; a < rank; ++a) {
    base += first[a] * inStrides[a];
    strides[a] = inStrides[a] * step[a];
  }
  if (dims == x.dims() && base == 0 && std::all_of(step.begin(), step.end(), [](int64_t s) { return s == 1; }))
    return {x};
  Tensor out = Tensor::empty(x.dtype(), dims);
  stridedCopy(x, base, dims, strides, out, c.threads(), "Slice");
  return {out};
}

// Strides that read `x` as if broadcast to `dims` (aligned to the right; 0 where x's dim is 1 or missing).
std::vector<int64_t> broadcastStrides(const Tensor& x, const std::vector<int64_t>& dims) {
  const std::vector<int64_t> in = stridesOf(x.dims());
  const size_t shift = dims.size() - x.rank();
  std::vector<int64_t> s(dims.size(), 0);
  for (size_t k = 0; k < x.rank(); ++k) s[k + shift] = x.dim(k) == 1 && dims[k + shift] != 1 ? 0 : in[k];
  return s;
}

std::vector<Value> expand(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const std::vector<int64_t> shape = indexValues(c.input(1), "Expand's shape");
  const std::vector<int64_t> dims = broadcastDims({&x.dims(), &shape});
  if (dims == x.dims()) return {x};
  Tensor out = Tensor::empty(x.dtype(), dims);
  stridedCopy(x, 0, dims, broadcastStrides(x, dims), out, c.threads(), "Expand");
  return {out};
}

// Tile as a strided view: each axis d becomes the pair (repeat, d), the repeat read with stride 0.
std::vector<Value> tileBy(const KernelContext& c, const Tensor& x, const std::vector<int64_t>& repeats) {
  const std::vector<int64_t> inStrides = stridesOf(x.dims());
  std::vector<int64_t> dims, view, strides;
  for (size_t k = 0; k < x.rank(); ++k) {
    if (repeats[k] < 0) badInput("Tile's repeats are negative");
    dims.push_back(checkedMul(x.dim(k), repeats[k]));
    view.insert(view.end(), {repeats[k], x.dim(k)});
    strides.insert(strides.end(), {0, inStrides[k]});
  }
  if (dims == x.dims()) return {x};
  Tensor out = Tensor::empty(x.dtype(), dims);
  stridedCopy(x, 0, view, strides, out, c.threads(), "Tile");
  return {out};
}

std::vector<Value> tile(const KernelContext& c) {
  const Tensor& x = c.input(0);
  if (c.opset < 6) {  // Tile-1: one count of copies along one axis
    std::vector<int64_t> repeats(x.rank(), 1);
    const int64_t axis = normalizeAxis(scalarIndex(c.input(2), "Tile's axis"), x.rank(), "Tile's axis");
    repeats[axis] = scalarIndex(c.input(1), "Tile's tiles");
    return tileBy(c, x, repeats);
  }
  const std::vector<int64_t> repeats = indexValues(c.input(1), "Tile's repeats");
  if (repeats.size() != x.rank())
    badInput("Tile has " + std::to_string(repeats.size()) + " repeats for " + describe(x));
  return tileBy(c, x, repeats);
}

int64_t blockSize(const KernelContext& c) {
  const int64_t b = c.node.attrInt("blocksize", 0);
  if (b <= 0) badInput("blocksize " + std::to_string(b) + " is not positive");
  return b;
}

std::vector<Value> depthToSpace(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t b = blockSize(c);
  if (x.rank() != 4) badInput("DepthToSpace of " + describe(x) + ": the input must be 4-D");
  const int64_t n = x.dim(0), ch = x.dim(1), h = x.dim(2), w = x.dim(3);
  const int64_t bb = checkedMul(b, b);
  if (ch % bb != 0) badInput("DepthToSpace of " + describe(x) + ": channels not divisible by blocksize^2");
  const int64_t oc = ch / bb;
  const std::string mode = c.opset >= 11 ? c.node.attrString("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD") badInput("DepthToSpace's mode '" + mode + "' is neither DCR nor CRD");
  // Output seen as [n, oc, h, b, w, b]; DCR reads the input as [n, b, b, oc, h, w], CRD as [n, oc, b, b, h, w].
  const std::vector<int64_t> view{n, oc, h, b, w, b};
  const int64_t hw = h * w;
  const std::vector<int64_t> strides = mode == "DCR" ? std::vector<int64_t>{ch * hw, hw, w, b * oc * hw, 1, oc * hw}
                                                     : std::vector<int64_t>{ch * hw, bb * hw, w, b * hw, 1, hw};
  Tensor out = Tensor::empty(x.dtype(), {n, oc, checkedMul(h, b), checkedMul(w, b)});
  stridedCopy(x, 0, view, strides, out, c.threads(), "DepthToSpace");
  return {out};
}

std::vector<Value> spaceToDepth(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t b = blockSize(c);
  if (x.rank() != 4) badInput("SpaceToDepth of " + describe(x) + ": the input must be 4-D");
  const int64_t n = x.dim(0), ch = x.dim(1), h = x.dim(2), w = x.dim(3);
  if (h % b != 0 || w % b != 0) badInput("SpaceToDepth of " + describe(x) + ": H and W not divisible by blocksize");
  const int64_t oh = h / b, ow = w / b;
  // Output seen as [n, b, b, ch, oh, ow], each block offset read from the input's rows and columns.
  const std::vector<int64_t> view{n, b, b, ch, oh, ow};
  const std::vector<int64_t> strides{ch * h * w, w, 1, h * w, b * w, b};
  Tensor out = Tensor::empty(x.dtype(), {n, checkedMul(ch, checkedMul(b, b)), oh, ow});
  stridedCopy(x, 0, view, strides, out, c.threads(), "SpaceToDepth");
  return {out};
}

}  // namespace

void registerCopyKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Transpose", 1, transpose, asIs);
  r.add("Concat", 1, concat, asIs);  // axis optional (1) before 4; negative from 11
  r.add("Concat", 4, concat, asIs);
  r.add("Concat", 11, concat, asIs);
  r.add("Split", 1, split, asIs);  // sizes as input or attribute at 1, attribute 2-12, input from 13
  r.add("Split", 2, split, asIs);
  r.add("Split", 13, split, asIs);
  r.add("Split", 18, split, asIs);  // num_outputs; uneven parts
  r.add("Slice", 1, slice, asIs);   // attributes before 10, inputs (and steps) from 10
  r.add("Slice", 10, slice, asIs);
  r.add("Expand", 8, expand, asIs);
  r.add("Tile", 1, tile, asIs);  // tiles and axis inputs before 6, repeats from 6
  r.add("Tile", 6, tile, asIs);
  r.add("DepthToSpace", 1, depthToSpace, asIs);  // mode from 11
  r.add("DepthToSpace", 11, depthToSpace, asIs);
  r.add("SpaceToDepth", 1, spaceToDepth, asIs);
}

}  // namespace fb::eval::shape
