// Shape ops, indexing, reductions and constants. Shapes are read from tensors at run time (`x.shape`), so
// dynamic dimensions stay dynamic; only true constants of the model become literals.
#include <limits>

#include "codegen/dead_code.h"
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"
#include "codegen/slice_forms.h"

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

// A Python int for a one-element input: the literal when it is a constant, else `int(x)` at run time.
std::string intScalar(PyNode& p, size_t i) {
  if (auto v = p.constInts(i); v && v->size() == 1) return pyInt((*v)[0]);
  if (auto s = p.staticScalar(i)) return *s;
  return "int(" + p.in(i) + ")";
}

// A Python number for a one-element input (its exact literal when constant), else `x.item()`.
std::string numberScalar(PyNode& p, size_t i) {
  if (auto lit = p.scalarLiteral(i)) return *lit;
  if (auto s = p.staticScalar(i)) return *s;
  return p.in(i) + ".item()";
}

void registerConstants(convert::HandlerRegistry& r) {
  addPy(r, "Constant", 1, "a buffer (or a literal) where it is used", [](PyNode& p) {
    if (!p.mb.constantTensor(p.node.output(0)))
      p.unsupported("Constant of a kind other than a dense tensor or numbers");
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
  addPy(r, "Size", 1, "the element count as an int64 scalar",
        [](PyNode& p) { p.assign("T.tensor(" + p.in(0) + ".numel(), dtype=T.int64)"); });
  addPy(r, "ConstantOfShape", 9, "T.full(shape, value, dtype)", [](PyNode& p) {
    // `value` is a one-element tensor; absent it is float32 0.
    ir::DataType t = ir::DataType::Float;
    std::string value = "0.0";
    if (const ir::Attribute* a = p.attr("value"); a && !a->tensors.empty()) {
      const ir::Tensor& v = a->tensors[0];
      if (v.numElements() != 1) p.unsupported("value is not a one-element tensor");
      t = v.dtype;
      if (t == ir::DataType::Bool)
        value = pyBool(v.asInt64()[0] != 0);
      else if (ir::isFloatingPoint(t))
        value = pyFloat(v.asDouble()[0], t == ir::DataType::Double ? t : ir::DataType::Float);
      else if (t == ir::DataType::String)
        p.unsupported("string tensors");
      else
        value = pyInt(v.asInt64()[0]);
    }
    const std::string device = p.staticInts(0) ? p.deviceHint() : std::string();
    p.assign("T.full(" + p.intList(0) + ", " + value + ", dtype=" + p.dtypeExpr(t) +
             (device.empty() ? "" : ", device=" + device) + ")");
  });
  addPy(r, "EyeLike", 9, "ones on diagonal k of a matrix shaped like x", [](PyNode& p) {
    std::string x = p.in(0);
    ir::DataType t = p.hasAttr("dtype") ? static_cast<ir::DataType>(p.attrInt("dtype", 1)) : p.dtype(0);
    if (t == ir::DataType::Undefined) p.unsupported("unknown element type");
    std::string dt = p.dtypeExpr(t);
    int64_t k = p.attrInt("k", 0);
    if (k == 0) return p.assign("T.eye(" + x + ".shape[0], " + x + ".shape[1], dtype=" + dt + ")");
    // Ones kept only on diagonal k: the upper triangle from k intersected with the lower one up to k.
    p.assign("T.ones(" + x + ".shape[0], " + x + ".shape[1], dtype=" + dt + ").triu(" + pyInt(k) + ").tril(" +
             pyInt(k) + ")");
  });
  // Random generators are refused rather than written with T.rand*: ONNX's `seed` cannot be honoured (the
  // libraries' generators draw other numbers), so the converted model could not reproduce the source's values
  // and no test could check more than shapes.
  for (const char* op :
       {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Bernoulli", "Multinomial"})
    addPy(r, op, 1, "refused: random",
          [](PyNode& p) { p.unsupported("random numbers: the source's draws (and its seed) cannot be reproduced"); });
  // ONNX string tensors have no PyTorch/OneFlow counterpart.
  for (const char* op : {"StringNormalizer", "RegexFullMatch", "StringConcat", "StringSplit"})
    addPy(r, op, 1, "refused: string tensors",
          [](PyNode& p) { p.unsupported("tensors of strings do not exist in PyTorch or OneFlow"); });
  addPy(r, "TfIdfVectorizer", 9, "refused", [](PyNode& p) {
    if (p.dtype(0) == ir::DataType::String) p.unsupported("tensors of strings do not exist in PyTorch or OneFlow");
    p.unsupported("n-gram counting over integer tokens is not written yet");
  });
  addPy(r, "Range", 11, "T.arange(start, limit, delta) in the inputs' type", [](PyNode& p) {
    ir::DataType t = p.dtype(0);
    if (t == ir::DataType::Undefined) p.unsupported("unknown element type");
    std::string args = numberScalar(p, 0) + ", " + numberScalar(p, 1) + ", " + numberScalar(p, 2);
    // Bounds read from shapes: the range goes where those tensors are.
    const bool fromShapes = p.staticScalar(0) || p.staticScalar(1) || p.staticScalar(2);
    const std::string device = fromShapes ? p.deviceHint() : std::string();
    p.assign("T.arange(" + args + ", dtype=" + p.dtypeExpr(t) + (device.empty() ? "" : ", device=" + device) + ")");
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
    if (!shape)
      if (auto ints = p.staticInts(1)) {
        // Python ints (static_values.h): a 0 copies x's dim unless allowzero; ints computed at run time are sizes,
        // which exporters never leave 0 for "copy".
        std::string args;
        for (size_t i = 0; i < ints->size(); ++i)
          args += (i ? ", " : "") +
                  ((*ints)[i] == "0" && !allowzero ? x + ".shape[" + std::to_string(i) + "]" : (*ints)[i]);
        return p.assign(x + ".reshape(" + (ints->empty() ? std::string("()") : args) + ")");
      }
    if (!shape)
      return p.assign(p.helper("_onnx_reshape") + "(" + x + ", " + p.in(1) + ".tolist()" + (allowzero ? ", True" : "") +
                      ")");
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
      if (!rank) {
        // The split point counts from the end: read the rank at run time.
        std::string at = x + ".dim() - " + pyInt(-axis);
        return p.assign(x + ".reshape(int(T.tensor(" + x + ".shape[:" + at + "]).prod()), -1)");
      }
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
  HelperLibrary::instance().add(
      Helper{"_onnx_unsqueeze",
             "def _onnx_unsqueeze(x, axes):\n"
             "    # ONNX Unsqueeze: negative axes count in the output's rank; insert in ascending order.\n"
             "    rank = x.dim() + len(axes)\n"
             "    for axis in sorted(int(a) % rank for a in axes):\n"
             "        x = x.unsqueeze(axis)\n"
             "    return x\n",
             {}});
  HelperLibrary::instance().add(
      Helper{"_onnx_squeeze",
             "def _onnx_squeeze(x, axes):\n"
             "    # ONNX Squeeze: negative axes count from the end; remove in descending order.\n"
             "    for axis in sorted((int(a) % x.dim() for a in axes), reverse=True):\n"
             "        x = x.squeeze(axis)\n"
             "    return x\n",
             {}});
  addPy(r, "Unsqueeze", 1, "x.unsqueeze(a) per axis, in ascending order", [](PyNode& p) {
    if (p.opset >= 13 && p.has(1) && !p.constInts(1))
      return p.assign(p.helper("_onnx_unsqueeze") + "(" + p.in(0) + ", " + p.in(1) + ".tolist())");
    auto axes = axesOf(p, 1, 13);
    if (!axes) p.unsupported("Unsqueeze without axes");
    std::vector<int64_t> a = *axes;
    bool negative = false;
    for (auto v : a) negative = negative || v < 0;
    if (negative) {
      auto rank = p.rank(0);
      if (!rank) return p.assign(p.helper("_onnx_unsqueeze") + "(" + p.in(0) + ", " + pyIntList(a) + ")");
      for (auto& v : a)
        if (v < 0) v += *rank + static_cast<int64_t>(a.size());
    }
    std::sort(a.begin(), a.end());
    std::string e = p.in(0);
    for (auto v : a) e += ".unsqueeze(" + std::to_string(v) + ")";
    p.assign(e);
  });
  addPy(r, "Squeeze", 1, "x.squeeze(a) per axis, in descending order", [](PyNode& p) {
    if (p.opset >= 13 && p.has(1) && !p.constInts(1))
      return p.assign(p.helper("_onnx_squeeze") + "(" + p.in(0) + ", " + p.in(1) + ".tolist())");
    auto axes = axesOf(p, 1, 13);
    std::string e = p.in(0);
    if (!axes || axes->empty()) return p.assign(e + ".squeeze()");
    std::vector<int64_t> a = *axes;
    bool negative = false;
    for (auto v : a) negative = negative || v < 0;
    if (negative) {
      auto rank = p.rank(0);
      if (!rank) return p.assign(p.helper("_onnx_squeeze") + "(" + e + ", " + pyIntList(a) + ")");
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

// x[a:b] for bounds that are Python ints (static_values.h) with constant positive steps on known axes; Python
// slicing counts negative bounds from the end and clamps, as ONNX Slice does for positive steps.
std::optional<std::string> staticSlice(PyNode& p, const std::string& x, const std::optional<std::vector<int64_t>>& axes,
                                       const std::optional<std::vector<int64_t>>& steps) {
  auto starts = p.staticInts(1), ends = p.staticInts(2);
  if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
  std::vector<int64_t> ax = axes ? *axes : std::vector<int64_t>{};
  if (!axes)
    for (size_t i = 0; i < starts->size(); ++i) ax.push_back(static_cast<int64_t>(i));
  if (ax.size() != starts->size() || (steps && steps->size() != ax.size())) return std::nullopt;
  auto rank = p.rank(0);
  std::vector<std::string> parts;
  for (size_t i = 0; i < ax.size(); ++i) {
    int64_t a = ax[i];
    if (a < 0 && rank) a += *rank;
    if (a < 0 || a > 64 || (steps && (*steps)[i] <= 0)) return std::nullopt;
    if (parts.size() <= static_cast<size_t>(a)) parts.resize(static_cast<size_t>(a) + 1, ":");
    if (parts[static_cast<size_t>(a)] != ":") return std::nullopt;  // the same axis twice
    std::string t = ((*starts)[i] == "0" ? "" : (*starts)[i]) + ":" + (*ends)[i];
    if (steps && (*steps)[i] != 1) t += ":" + pyInt((*steps)[i]);
    parts[static_cast<size_t>(a)] = t;
  }
  std::string sel;
  for (size_t i = 0; i < parts.size(); ++i) sel += (i ? ", " : "") + parts[i];
  return x + "[" + sel + "]";
}

void registerIndexing(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(
      Helper{"_onnx_gather",
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

  HelperLibrary::instance().add(
      Helper{"_onnx_slice",
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
      if ((!starts || !ends) && !(p.has(3) && !axes) && !(p.has(4) && !steps))
        if (auto sliced = staticSlice(p, x, axes, steps)) return p.assign(*sliced);
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
    // Reversing whole axes is a flip; a slice that keeps everything is its input (no `x[:]`).
    if (auto dims = flippedAxes(*starts, *ends, ax, steps))
      return p.assign(x + ".flip(" + (dims->size() == 1 ? pyInt((*dims)[0]) : pyIntList(*dims)) + ")");
    if (keepsEverything(*starts, *ends, steps)) return noStatement(p, x, "the slice keeps every element");
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

void registerCopyingOps(convert::HandlerRegistry& r) {
  addPy(r, "Tile", 6, "x.repeat(repeats)", [](PyNode& p) {
    if (auto reps = p.constInts(1)) {
      std::string args;
      for (size_t i = 0; i < reps->size(); ++i) args += (i ? ", " : "") + pyInt((*reps)[i]);
      return p.assign(p.in(0) + ".repeat(" + args + ")");
    }
    if (auto reps = p.staticInts(1)) {
      std::string args;
      for (size_t i = 0; i < reps->size(); ++i) args += (i ? ", " : "") + (*reps)[i];
      return p.assign(p.in(0) + ".repeat(" + args + ")");
    }
    p.assign(p.in(0) + ".repeat(*" + p.in(1) + ".tolist())");
  });
  addPy(r, "Split", 1, "T.split(x, sizes, dim=axis)", [](PyNode& p) {
    std::string x = p.in(0);
    int64_t axis = p.attrInt("axis", 0);
    const std::string dim = pyInt(axis);
    std::string sizes;
    if (p.opset >= 13 || (p.opset < 2 && p.has(1))) {
      if (p.has(1)) sizes = p.intList(1);
    } else if (p.hasAttr("split")) {
      sizes = pyIntList(p.attrInts("split"));
    }
    if (sizes.empty()) {
      const std::string n = pyInt(static_cast<int64_t>(p.outputCount()));
      if (p.opset >= 18) {
        if (!p.hasAttr("num_outputs")) p.unsupported("neither split nor num_outputs");
        if (p.attrInt("num_outputs", 0) != static_cast<int64_t>(p.outputCount()))
          p.unsupported("num_outputs differs from the outputs");
        // Chunks of ceil(dim / n); the last one is smaller when the dim does not divide evenly.
        sizes = "-(" + x + ".shape[" + dim + "] // -" + n + ")";
      } else {
        sizes = x + ".shape[" + dim + "] // " + n;  // equal parts (ONNX requires the dim to divide)
      }
    }
    std::string lhs = p.outTuple();
    if (p.outputCount() == 1) lhs += ",";
    p.line(lhs + " = T.split(" + x + ", " + sizes + ", dim=" + dim + ")");
  });
  addPy(r, "Trilu", 14, "T.triu / T.tril with diagonal k", [](PyNode& p) {
    const bool upper = p.attrInt("upper", 1) != 0;
    std::string k = p.has(1) ? intScalar(p, 1) : "";
    p.assign(std::string(upper ? "T.triu(" : "T.tril(") + p.in(0) + (k.empty() || k == "0" ? "" : ", " + k) + ")");
  });

  HelperLibrary::instance().add(
      Helper{"_onnx_cumsum",
             "def _onnx_cumsum(x, axis, exclusive=False, reverse=False):\n"
             "    # ONNX CumSum: `exclusive` leaves each element out of its own sum, `reverse` sums from the end.\n"
             "    if reverse:\n"
             "        x = x.flip(axis)\n"
             "    out = T.cumsum(x, dim=axis, dtype=x.dtype)\n"
             "    if exclusive:\n"
             "        first = T.zeros_like(out.narrow(axis, 0, 1))\n"
             "        out = T.cat([first, out.narrow(axis, 0, out.shape[axis] - 1)], dim=axis)\n"
             "    if reverse:\n"
             "        out = out.flip(axis)\n"
             "    return out\n",
             {}});
  addPy(r, "CumSum", 11, "T.cumsum(x, dim=axis) in x's type", [](PyNode& p) {
    std::string x = p.in(0);
    std::string axis = intScalar(p, 1);
    const bool exclusive = p.attrInt("exclusive", 0) != 0, reverse = p.attrInt("reverse", 0) != 0;
    if (exclusive || reverse)
      return p.assign(p.helper("_onnx_cumsum") + "(" + x + ", " + axis + (exclusive ? ", exclusive=True" : "") +
                      (reverse ? ", reverse=True" : "") + ")");
    // PyTorch sums small integer types as int64: keep the input's type.
    const ir::DataType t = p.dtype(0);
    const bool keeps = t == ir::DataType::Float || t == ir::DataType::Double || t == ir::DataType::Int64;
    p.assign("T.cumsum(" + x + ", dim=" + axis + (keeps ? "" : ", dtype=" + x + ".dtype") + ")");
  });

  HelperLibrary::instance().add(
      Helper{"_onnx_pad",
             "def _onnx_pad(x, pads, mode='constant', value=0, axes=None):\n"
             "    # ONNX Pad: pads = [begin of each axis..., end of each axis...]; negative pads crop.\n"
             "    axes = list(range(x.dim())) if axes is None else [int(a) % x.dim() for a in axes]\n"
             "    pads = [int(v) for v in pads]\n"
             "    for i, axis in enumerate(axes):\n"
             "        begin, end = pads[i], pads[i + len(axes)]\n"
             "        dim = x.shape[axis]\n"
             "        if begin < 0 or end < 0:\n"
             "            x = x.narrow(axis, max(-begin, 0), dim - max(-begin, 0) - max(-end, 0))\n"
             "            begin, end, dim = max(begin, 0), max(end, 0), x.shape[axis]\n"
             "        if begin == 0 and end == 0:\n"
             "            continue\n"
             "        if mode == 'constant':\n"
             "            shape = list(x.shape)\n"
             "            parts = []\n"
             "            for n in (begin, end):\n"
             "                shape[axis] = n\n"
             "                parts.append(T.full(shape, value, dtype=x.dtype))\n"
             "            x = T.cat([parts[0], x, parts[1]], dim=axis)\n"
             "            continue\n"
             "        # Source position of every output position along the axis.\n"
             "        index = T.arange(-begin, dim + end)\n"
             "        if mode == 'edge':\n"
             "            index = index.clamp(0, dim - 1)\n"
             "        elif mode == 'wrap':\n"
             "            index = index % dim\n"
             "        else:  # reflect: mirror without repeating the border\n"
             "            period = 2 * (dim - 1)\n"
             "            index = index.abs() % period if period > 0 else index * 0\n"
             "            index = T.where(index >= dim, period - index, index)\n"
             "        x = T.index_select(x, axis, index)\n"
             "    return x\n",
             {}});
  addPy(r, "Pad", 2, "F.pad (constant) or _onnx_pad (reflect, edge, wrap)", [](PyNode& p) {
    std::string x = p.in(0);
    const std::string mode = p.attrString("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
      p.unsupported("mode '" + mode + "'");
    std::optional<std::vector<int64_t>> pads, axes;
    std::string padsExpr, valueExpr, axesExpr;
    if (p.opset < 11) {
      pads = p.attrInts(p.hasAttr("pads") ? "pads" : "paddings");
      padsExpr = pyIntList(*pads);
      float v = p.attrFloat("value", 0.0f);
      valueExpr = ir::isFloatingPoint(p.dtype(0)) ? pyFloat(v, ir::DataType::Float) : pyInt(static_cast<int64_t>(v));
    } else {
      pads = p.constInts(1);
      padsExpr = p.intList(1);
      if (p.has(2)) valueExpr = numberScalar(p, 2);
      if (p.opset >= 18 && p.has(3)) {
        axes = p.constInts(3);
        axesExpr = p.intList(3);
      }
    }
    const bool zeroValue = valueExpr.empty() || valueExpr == "0" || valueExpr == "0.0";
    // Constant padding with known pads, all >= 0, over all axes: one F.pad call (last axis first).
    bool simple = mode == "constant" && pads && axesExpr.empty() && p.rank(0) &&
                  static_cast<int64_t>(pads->size()) == 2 * *p.rank(0);
    if (simple)
      for (auto v : *pads) simple = simple && v >= 0;
    if (simple) {
      const size_t n = pads->size() / 2;
      std::vector<int64_t> torchPads;
      for (size_t a = n; a-- > 0;) {
        torchPads.push_back((*pads)[a]);
        torchPads.push_back((*pads)[a + n]);
      }
      while (torchPads.size() > 2 && torchPads[torchPads.size() - 1] == 0 && torchPads[torchPads.size() - 2] == 0)
        torchPads.resize(torchPads.size() - 2);
      return p.assign("F.pad(" + x + ", " + pyIntList(torchPads) + (zeroValue ? "" : ", value=" + valueExpr) + ")");
    }
    std::string args = x + ", " + padsExpr;
    if (mode != "constant") args += ", mode=" + pyStringLiteral(mode);
    if (!zeroValue && mode == "constant") args += ", value=" + valueExpr;
    if (!axesExpr.empty()) args += ", axes=" + axesExpr;
    p.assign(p.helper("_onnx_pad") + "(" + args + ")");
  });
}

}  // namespace

void registerTensorCode(convert::HandlerRegistry& r) {
  registerConstants(r);
  registerReshaping(r);
  registerIndexing(r);
  registerCopyingOps(r);
}

}  // namespace fb::codegen
