// Pad (constant, reflect, edge, wrap; negative pads crop) and CenterCropPad, which is a centred Pad with zeros.
// Each axis gets a map from output position to input position (or "the constant"); the last axis's map is cut into
// runs, so the input's rows move by memcpy and only reflected elements go one by one.
#include <algorithm>

#include "eval/kernels/shape_parts.h"

namespace fb::eval::shape {

namespace {

enum class PadMode { Constant, Reflect, Edge, Wrap };

PadMode padMode(const KernelContext& c) {
  const std::string m = c.node.attrString("mode", "constant");
  if (m == "constant") return PadMode::Constant;
  if (m == "reflect") return PadMode::Reflect;
  if (m == "edge") return PadMode::Edge;
  if (m == "wrap" && c.opset >= 19) return PadMode::Wrap;
  badInput("Pad's mode '" + m + "' is not one of constant, reflect, edge" + (c.opset >= 19 ? ", wrap" : ""));
}

// The input position output position j of an axis reads (-1: the constant), for an axis of d padded by `before`.
int64_t sourceIndex(int64_t j, int64_t before, int64_t d, PadMode mode) {
  int64_t i = j - before;
  if (i >= 0 && i < d) return i;
  switch (mode) {
    case PadMode::Constant:
      return -1;
    case PadMode::Edge:
      return i < 0 ? 0 : d - 1;
    case PadMode::Wrap:
      return ((i % d) + d) % d;
    case PadMode::Reflect: {
      if (d == 1) return 0;
      const int64_t period = 2 * (d - 1);
      i = ((i % period) + period) % period;
      return i < d ? i : period - i;
    }
  }
  return -1;
}

// A run of the last axis: `length` outputs from `out`, read from `src` on (or the constant when src is -1).
struct Run {
  int64_t out, length, src;
};

Tensor padTensor(const Tensor& x, const std::vector<int64_t>& before, const std::vector<int64_t>& after, PadMode mode,
                 const Tensor& constant, int threads, const char* op) {
  const size_t rank = x.rank();
  std::vector<int64_t> dims(rank);
  for (size_t a = 0; a < rank; ++a) {
    dims[a] = checkedAdd(checkedAdd(x.dim(a), before[a]), after[a]);
    if (dims[a] < 0) badInput(std::string(op) + " crops axis " + std::to_string(a) + " of " + describe(x) + " below 0");
    if (mode != PadMode::Constant && x.dim(a) == 0 && dims[a] > 0)
      badInput(std::string(op) + " cannot pad the empty axis " + std::to_string(a) + " of " + describe(x) +
               " except with a constant");
  }
  Tensor out = Tensor::empty(x.dtype(), dims);
  if (out.size() == 0) return out;
  if (rank == 0) {
    ElementMover(x, out, op).copy(0, 0, 1);
    return out;
  }
  // Each output dim is at most out.size() here, so these maps are bounded by the output itself.
  std::vector<std::vector<int64_t>> maps(rank);
  for (size_t a = 0; a < rank; ++a) {
    maps[a].resize(dims[a]);
    for (int64_t j = 0; j < dims[a]; ++j) maps[a][j] = sourceIndex(j, before[a], x.dim(a), mode);
  }
  std::vector<Run> runs;
  for (int64_t j = 0; j < dims[rank - 1]; ++j) {
    const int64_t s = maps[rank - 1][j];
    if (!runs.empty()) {
      Run& r = runs.back();
      const bool continues = s < 0 ? r.src < 0 : r.src >= 0 && s == r.src + r.length;
      if (continues) {
        ++r.length;
        continue;
      }
    }
    runs.push_back({j, 1, s});
  }
  const ElementMover mover(x, out, op);
  const std::vector<int64_t> inStrides = stridesOf(x.dims());
  const int64_t width = dims[rank - 1], rows = out.size() / width;
  const size_t outer = rank - 1;
  const bool parallel = threads > 1 && rows > 1 && out.size() > (int64_t{1} << 16);
  const int64_t chunks = parallel ? std::min<int64_t>(rows, threads * 8) : 1;
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t r0 = rows * c / chunks, r1 = rows * (c + 1) / chunks;
    std::vector<int64_t> idx(outer);
    int64_t rest = r0;
    for (size_t a = outer; a-- > 0;) {
      idx[a] = rest % dims[a];
      rest /= dims[a];
    }
    for (int64_t r = r0; r < r1; ++r) {
      int64_t from = 0;
      bool constantRow = false;
      for (size_t a = 0; a < outer; ++a) {
        const int64_t s = maps[a][idx[a]];
        if (s < 0) constantRow = true;
        from += s * inStrides[a];
      }
      if (constantRow) {
        mover.fill(r * width, width, constant);
      } else {
        for (const Run& run : runs) {
          if (run.src < 0)
            mover.fill(r * width + run.out, run.length, constant);
          else
            mover.copy(r * width + run.out, from + run.src, run.length);
        }
      }
      for (size_t a = outer; a-- > 0;) {
        if (++idx[a] < dims[a]) break;
        idx[a] = 0;
      }
    }
  }
  return out;
}

std::vector<Value> pad(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  const PadMode mode = padMode(c);
  std::vector<int64_t> pads;
  Tensor constant;
  if (c.opset < 11) {
    pads = c.node.attrInts(c.opset < 2 ? "paddings" : "pads");
    constant = Tensor::scalar(x.dtype(), c.node.attrFloat("value", 0.f));
  } else {
    pads = indexValues(c.input(1), "Pad's pads");
    const Tensor* v = c.optionalInput(2);
    if (v && v->size() != 1) badInput("Pad's constant_value is " + describe(*v) + " where one value is expected");
    if (v && v->dtype() != x.dtype()) badInput("Pad's constant_value " + describe(*v) + " is not of " + describe(x));
    constant = v ? *v : Tensor::zeros(x.dtype(), {});
  }
  std::vector<int64_t> axes(rank);
  for (int64_t a = 0; a < rank; ++a) axes[a] = a;
  if (c.opset >= 18)
    if (const Tensor* t = c.optionalInput(3)) {
      axes = indexValues(*t, "Pad's axes");
      normalizeAxes(axes, rank, "Pad's axis");  // refuses repeats
      for (int64_t& a : axes) a = normalizeAxis(a, rank, "Pad's axis");
    }
  const size_t n = axes.size();
  if (pads.size() != 2 * n)
    badInput("Pad has " + std::to_string(pads.size()) + " pads for " + std::to_string(n) + " axes of " + describe(x));
  std::vector<int64_t> before(rank, 0), after(rank, 0);
  for (size_t k = 0; k < n; ++k) {
    before[axes[k]] = pads[k];
    after[axes[k]] = pads[k + n];
  }
  if (std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; })) return {x};
  if (isPacked(x.dtype()))
    return {packCodes(padTensor(unpackCodes(x), before, after, mode, unpackCodes(constant), c.threads(), "Pad"),
                      x.dtype())};
  return {padTensor(x, before, after, mode, constant, c.threads(), "Pad")};
}

std::vector<Value> centerCropPad(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const int64_t rank = static_cast<int64_t>(x.rank());
  const std::vector<int64_t> shape = indexValues(c.input(1), "CenterCropPad's shape");
  std::vector<int64_t> axes(rank);
  for (int64_t a = 0; a < rank; ++a) axes[a] = a;
  if (c.node.hasAttr("axes")) {
    axes = c.node.attrInts("axes");
    normalizeAxes(axes, rank, "CenterCropPad's axis");
    for (int64_t& a : axes) a = normalizeAxis(a, rank, "CenterCropPad's axis");
  }
  if (shape.size() != axes.size())
    badInput("CenterCropPad has " + std::to_string(shape.size()) + " sizes for " + std::to_string(axes.size()) +
             " axes");
  std::vector<int64_t> before(rank, 0), after(rank, 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int64_t d = x.dim(axes[k]), want = shape[k];
    if (want < 0) badInput("CenterCropPad's shape has a negative size");
    // Cropping starts at (d - want) / 2; padding puts (want - d) / 2 in front: either way the odd one goes last.
    const int64_t front = want >= d ? (want - d) / 2 : -((d - want) / 2);
    before[axes[k]] = front;
    after[axes[k]] = want - d - front;
  }
  return {padTensor(x, before, after, PadMode::Constant, Tensor::zeros(x.dtype(), {}), c.threads(), "CenterCropPad")};
}

}  // namespace

void registerPadKernels(KernelRegistry& r) {
  const auto asIs = HalfTypes::AsIs;
  r.add("Pad", 1, pad, asIs);   // paddings attribute
  r.add("Pad", 2, pad, asIs);   // pads attribute
  r.add("Pad", 11, pad, asIs);  // pads and constant_value inputs
  r.add("Pad", 18, pad, asIs);  // axes input
  r.add("Pad", 19, pad, asIs);  // wrap mode
  r.add("CenterCropPad", 18, centerCropPad, asIs);
}

}  // namespace fb::eval::shape
