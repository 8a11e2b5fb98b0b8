// Shape ops, indexing, reductions and constants. Shapes are read from tensors at run time (`x.shape`), so
// dynamic dimensions stay dynamic; only true constants of the model become literals.
#include <limits>

#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// Axes from the attribute (older opsets) or the input `inputIndex` (newer ones); nullopt when absent.
std::optional<std::vector<int64_t>> axesOf(PyNode& p, size_t inputIndex, int64_t inputSince) {
  if (p.opset >= inputSince) {
    if (!p.has(inputIndex)) return std::nullopt;
    auto v = p.constInts(inputIndex);
    if (!v) p.unsupported("axes are computed at run time");
    return v;
  }
  if (!p.hasAttr("axes")) return std::nullopt;
  return p.attrInts("axes");
}

std::string dimTuple(const std::vector<int64_t>& axes) { return axes.size() == 1 ? std::to_string(axes[0]) : pyIntTuple(axes); }

void registerConstants(convert::HandlerRegistry& r) {
  addPy(r, "Constant", 1, "a buffer (or a literal) where it is used", [](PyNode& p) {
    if (!p.mb.constantTensor(p.node.output(0))) p.unsupported("Constant of a kind other than a dense tensor or numbers");
    p.note("constant: a buffer or literal where it is used");
  });
  addPy(r, "Shape", 1, "the shape as an int64 tensor", [](PyNode& p) {
    std::string x = p.in(0);
    std::string range;
    if (p.opset >= 15 && (p.hasAttr("start") || p.hasAttr("end"))) {
      int64_t start = p.attrInt("start", 0);
      range = "[" + std::to_string(start) + ":" + (p.hasAttr("end") ? std::to_string(p.attrInt("end", 0)) : "") + "]";
    }
    p.assign("T.tensor(" + x + ".shape" + range + ", dtype=T.int64)");
  });
}

void registerReshaping(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(Helper{"_onnx_reshape",
                                       "def _onnx_reshape(x, shape, allowzero=False):\n"
                                       "    # ONNX Reshape: a 0 copies the input's dim unless allowzero is set.\n"
                                       "    shape = [int(d) for d in shape]\n"
                                       "    if not allowzero:\n"
                                       "        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]\n"
                                       "    return x.reshape(shape)\n",
                                       {}});
  addPy(r, "Reshape", 5, "x.reshape(...), 0-dims read from x.shape", [](PyNode& p) {
    std::string x = p.in(0);
    const bool allowzero = p.opset >= 14 && p.attrInt("allowzero", 0) != 0;
    auto shape = p.constInts(1);
    if (!shape) return p.assign(p.helper("_onnx_reshape") + "(" + x + ", " + p.in(1) + ".tolist()" + (allowzero ? ", True" : "") + ")");
    std::string args;
    for (size_t i = 0; i < shape->size(); ++i) {
      int64_t d = (*shape)[i];
      args += (i ? ", " : "") + (d == 0 && !allowzero ? x + ".shape[" + std::to_string(i) + "]" : std::to_string(d));
    }
    p.assign(x + ".reshape(" + (shape->empty() ? std::string("()") : args) + ")");
  });
  addPy(r, "Flatten", 1, "2-D [prod(dims before axis), prod(dims from axis)]", [](PyNode& p) {
    std::string x = p.in(0);
    int64_t axis = p.attrInt("axis", 1);
    if (axis < 0) {
      auto rank = p.rank(0);
      if (!rank) p.unsupported("negative axis with an unknown rank");
      axis += *rank;
    }
    if (axis == 0) return p.assign(x + ".reshape(1, -1)");
    if (axis == 1) return p.assign(x + ".flatten(1)");
    p.assign(x + ".flatten(" + std::to_string(axis) + ").flatten(0, " + std::to_string(axis - 1) + ")");
  });
  addPy(r, "Transpose", 1, "x.permute(...)", [](PyNode& p) {
    std::string x = p.in(0);
    auto perm = p.attrInts("perm");
    if (perm.empty()) {
      auto rank = p.rank(0);
      if (!rank) return p.assign(x + ".permute(*reversed(range(" + x + ".dim())))");
      for (int64_t i = *rank - 1; i >= 0; --i) perm.push_back(i);
    }
    std::string args;
    for (size_t i = 0; i < perm.size(); ++i) args += (i ? ", " : "") + std::to_string(perm[i]);
    p.assign(x + ".permute(" + args + ")");
  });
  addPy(r, "Unsqueeze", 1, "x.unsqueeze(a) per axis, in ascending order", [](PyNode& p) {
    auto axes = axesOf(p, 1, 13);
    if (!axes) p.unsupported("Unsqueeze without axes");
    std::vector<int64_t> a = *axes;
    bool negative = false;
    for (auto v : a) negative = negative || v < 0;
    if (negative) {
      auto rank = p.rank(0);
      if (!rank) p.unsupported("negative axes with an unknown rank");
      for (auto& v : a)
        if (v < 0) v += *rank + static_cast<int64_t>(a.size());
    }
    std::sort(a.begin(), a.end());
    std::string e = p.in(0);
    for (auto v : a) e += ".unsqueeze(" + std::to_string(v) + ")";
    p.assign(e);
  });
  addPy(r, "Squeeze", 1, "x.squeeze(a) per axis, in descending order", [](PyNode& p) {
    auto axes = axesOf(p, 1, 13);
    std::string e = p.in(0);
    if (!axes || axes->empty()) return p.assign(e + ".squeeze()");
    std::vector<int64_t> a = *axes;
    bool negative = false;
    for (auto v : a) negative = negative || v < 0;
    if (negative) {
      auto rank = p.rank(0);
      if (!rank) p.unsupported("negative axes with an unknown rank");
      for (auto& v : a)
        if (v < 0) v += *rank;
    }
    std::sort(a.rbegin(), a.rend());
    for (auto v : a) e += ".squeeze(" + std::to_string(v) + ")";
    p.assign(e);
  });
  addPy(r, "Concat", 1, "T.cat([...], dim=axis)", [](PyNode& p) {
    std::string list;
    for (size_t i = 0; i < p.inputCount(); ++i) list += (i ? ", " : "") + p.in(i);
    p.assign("T.cat([" + list + "], dim=" + std::to_string(p.attrInt("axis", 1)) + ")");
  });
}

void registerIndexing(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(Helper{"_onnx_gather",
                                       "def _onnx_gather(x, indices, axis):\n"
                                       "    # ONNX Gather: negative indices count from the end; indices' dims replace dim `axis`.\n"
                                       "    axis = axis % x.dim()\n"
                                       "    idx = T.where(indices < 0, indices + x.shape[axis], indices).long()\n"
                                       "    out = T.index_select(x, axis, idx.reshape(-1))\n"
                                       "    return out.reshape(tuple(x.shape[:axis]) + tuple(indices.shape) + tuple(x.shape[axis + 1:]))\n",
                                       {}});
  addPy(r, "Gather", 1, "x[..., i] for a constant index, else index_select", [](PyNode& p) {
    std::string x = p.in(0);
    int64_t axis = p.attrInt("axis", 0);
    const ir::Tensor* idx = p.constant(1);
    if (idx && idx->dims.empty() && axis >= 0) {
      std::string sel;
      for (int64_t i = 0; i < axis; ++i) sel += ":, ";
      return p.assign(x + "[" + sel + std::to_string(idx->asInt64()[0]) + "]");
    }
    p.assign(p.helper("_onnx_gather") + "(" + x + ", " + p.in(1) + ", " + std::to_string(axis) + ")");
  });

  HelperLibrary::instance().add(Helper{"_onnx_slice",
                                       "def _onnx_slice(x, starts, ends, axes=None, steps=None):\n"
                                       "    # ONNX Slice: bounds are clamped to each dim; a negative step walks backwards.\n"
                                       "    starts, ends = [int(v) for v in starts], [int(v) for v in ends]\n"
                                       "    axes = list(range(len(starts))) if axes is None else [int(a) % x.dim() for a in axes]\n"
                                       "    steps = [1] * len(starts) if steps is None else [int(s) for s in steps]\n"
                                       "    for start, end, axis, step in zip(starts, ends, axes, steps):\n"
                                       "        dim = x.shape[axis]\n"
                                       "        start = start + dim if start < 0 else start\n"
                                       "        end = end + dim if end < 0 else end\n"
                                       "        index = [slice(None)] * x.dim()\n"
                                       "        if step > 0:\n"
                                       "            index[axis] = slice(min(max(start, 0), dim), min(max(end, 0), dim), step)\n"
                                       "            x = x[tuple(index)]\n"
                                       "        else:\n"
                                       "            start, end = min(max(start, -1), dim - 1), min(max(end, -1), dim - 1)\n"
                                       "            index[axis] = slice(dim - 1 - start, dim - 1 - end, -step)\n"
                                       "            x = x.flip(axis)[tuple(index)]\n"
                                       "    return x\n",
                                       {}});
  addPy(r, "Slice", 1, "Python slicing (constant bounds) or _onnx_slice", [](PyNode& p) {
    std::string x = p.in(0);
    std::optional<std::vector<int64_t>> starts, ends, axes, steps;
    if (p.opset < 10) {
      starts = p.attrInts("starts");
      ends = p.attrInts("ends");
      if (p.hasAttr("axes")) axes = p.attrInts("axes");
    } else {
      starts = p.constInts(1);
      ends = p.constInts(2);
      if (p.has(3)) axes = p.constInts(3);
      if (p.has(4)) steps = p.constInts(4);
      if (!starts || !ends || (p.has(3) && !axes) || (p.has(4) && !steps)) {
        std::string args = x + ", " + p.in(1) + ".tolist(), " + p.in(2) + ".tolist()";
        args += ", " + (p.has(3) ? p.in(3) + ".tolist()" : std::string("None"));
        args += ", " + (p.has(4) ? p.in(4) + ".tolist()" : std::string("None"));
        return p.assign(p.helper("_onnx_slice") + "(" + args + ")");
      }
    }
    if (starts->size() != ends->size()) p.unsupported("starts and ends differ in length");
    std::vector<int64_t> ax = axes ? *axes : std::vector<int64_t>{};
    if (!axes)
      for (size_t i = 0; i < starts->size(); ++i) ax.push_back(static_cast<int64_t>(i));
    bool simple = true;
    for (auto a : ax) simple = simple && a >= 0;
    if (steps)
      for (auto s : *steps) simple = simple && s > 0;
    if (!simple) {
      std::string args = x + ", " + pyIntList(*starts) + ", " + pyIntList(*ends) + ", " + pyIntList(ax);
      if (steps) args += ", " + pyIntList(*steps);
      return p.assign(p.helper("_onnx_slice") + "(" + args + ")");
    }
    // Python slicing clamps bounds and counts negative ones from the end, as ONNX does for positive steps.
    int64_t maxAxis = 0;
    for (auto a : ax) maxAxis = std::max(maxAxis, a);
    std::vector<std::string> parts(static_cast<size_t>(maxAxis + 1), ":");
    const int64_t big = std::numeric_limits<int32_t>::max();
    for (size_t i = 0; i < ax.size(); ++i) {
      int64_t s = (*starts)[i], e = (*ends)[i], st = steps ? (*steps)[i] : 1;
      std::string t = (s == 0 || s <= -big ? "" : std::to_string(s)) + ":" + (e >= big ? "" : std::to_string(e));
      if (st != 1) t += ":" + std::to_string(st);
      parts[static_cast<size_t>(ax[i])] = t;
    }
    std::string sel;
    for (size_t i = 0; i < parts.size(); ++i) sel += (i ? ", " : "") + parts[i];
    p.assign(x + "[" + sel + "]");
  });
}

void registerReductions(convert::HandlerRegistry& r) {
  struct Reduce { const char* op; const char* method; int64_t axesInputSince; };
  for (const Reduce& red : {Reduce{"ReduceMean", "mean", 18}, Reduce{"ReduceSum", "sum", 13}}) {
    std::string method = red.method;
    int64_t since = red.axesInputSince;
    addPy(r, red.op, 1, std::string("x.") + red.method + "(dim=axes, keepdim=keepdims)", [method, since](PyNode& p) {
      std::string x = p.in(0);
      bool keep = p.attrInt("keepdims", 1) != 0;
      auto axes = axesOf(p, 1, since);
      if (!axes || axes->empty()) {
        if (p.opset >= since && p.attrInt("noop_with_empty_axes", 0) != 0) return p.alias(0, x);
        if (!keep) return p.assign(x + "." + method + "()");
        return p.assign(x + "." + method + "(dim=tuple(range(" + x + ".dim())), keepdim=True)");
      }
      p.assign(x + "." + method + "(dim=" + dimTuple(*axes) + (keep ? ", keepdim=True" : "") + ")");
    });
  }
}

}  // namespace

void registerTensorCode(convert::HandlerRegistry& r) {
  registerConstants(r);
  registerReshaping(r);
  registerIndexing(r);
  registerReductions(r);
}

}  // namespace fb::codegen
