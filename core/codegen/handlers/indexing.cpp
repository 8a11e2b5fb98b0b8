// Indexing by tensors: gathers and scatters by index tensors, one-hot, selections by masks, sorting (TopK,
// Unique), NonZero. ONNX allows negative indices everywhere (counted from the end of the dim); PyTorch's
// gather/scatter do not, so indices that are not known to be non-negative are wrapped at run time.
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// An int64 index tensor for dim `dim` of `x`: the constant itself when it is int64 and non-negative, else a
// line that wraps negative entries (and casts int32 to the int64 PyTorch wants).
std::string wrappedIndices(PyNode& p, size_t i, const std::string& x, const std::string& dim) {
  std::string idx = p.in(i);
  if (auto v = p.constInts(i); v && p.dtype(i) == ir::DataType::Int64) {
    bool nonNegative = true;
    for (auto e : *v) nonNegative = nonNegative && e >= 0;
    if (nonNegative) return idx;
  }
  std::string t = p.temp("index");
  p.line(t + " = T.where(" + idx + " < 0, " + idx + " + " + x + ".shape[" + dim + "], " + idx +
         ").long()  # negative indices count from the end");
  return t;
}

void registerGathers(convert::HandlerRegistry& r) {
  addPy(r, "GatherElements", 11, "T.gather(x, axis, indices)", [](PyNode& p) {
    std::string x = p.in(0);
    const std::string axis = pyInt(p.attrInt("axis", 0));
    std::string idx = wrappedIndices(p, 1, x, axis);
    p.assign("T.gather(" + x + ", " + axis + ", " + idx + ")");
  });

  HelperLibrary::instance().add(
      Helper{"_onnx_gather_nd",
             "def _onnx_gather_nd(x, indices, batch_dims=0):\n"
             "    # ONNX GatherND: after `batch_dims` shared leading dims, the last dim of `indices` addresses\n"
             "    # the leading dims of x; the result is indices.shape[:-1] + the dims of x not addressed.\n"
             "    depth = indices.shape[-1]\n"
             "    batch = 1\n"
             "    for d in x.shape[:batch_dims]:\n"
             "        batch *= d\n"
             "    data = x.reshape([batch] + list(x.shape[batch_dims:]))\n"
             "    index = indices.long().reshape(batch, -1, depth)\n"
             "    keys = [T.arange(batch).unsqueeze(1)]\n"
             "    for k in range(depth):\n"
             "        size = x.shape[batch_dims + k]\n"
             "        keys.append(T.where(index[:, :, k] < 0, index[:, :, k] + size, index[:, :, k]))\n"
             "    out = data[tuple(keys)]\n"
             "    return out.reshape(list(indices.shape[:-1]) + list(x.shape[batch_dims + depth:]))\n",
             {}});
  addPy(r, "GatherND", 11, "advanced indexing with the index tuples", [](PyNode& p) {
    const int64_t batchDims = p.opset >= 12 ? p.attrInt("batch_dims", 0) : 0;
    p.assign(p.helper("_onnx_gather_nd") + "(" + p.in(0) + ", " + p.in(1) +
             (batchDims ? ", batch_dims=" + pyInt(batchDims) : "") + ")");
  });
}

void scatterElements(PyNode& p, const std::string& reduction) {
  std::string x = p.in(0);
  const std::string axis = pyInt(p.attrInt("axis", 0));
  std::string idx = wrappedIndices(p, 1, x, axis);
  std::string u = p.in(2);
  const std::string args = x + ", " + axis + ", " + idx + ", " + u;
  if (reduction == "none") return p.assign("T.scatter(" + args + ")");
  if (reduction == "add") return p.assign("T.scatter_add(" + args + ")");
  if (p.oneflow()) {
    if (reduction == "mul") return p.assign("T.scatter(" + args + ", reduce='multiply')");
    p.unsupported("OneFlow has no scatter_reduce for reduction '" + reduction + "'");
  }
  const char* torchName = reduction == "mul"   ? "prod"
                          : reduction == "max" ? "amax"
                          : reduction == "min" ? "amin"
                                               : nullptr;
  if (!torchName) p.unsupported("reduction '" + reduction + "'");
  p.assign("T.scatter_reduce(" + args + ", reduce='" + torchName + "')");
}

void registerScatters(convert::HandlerRegistry& r) {
  addPy(r, "Scatter", 9, "T.scatter(x, axis, indices, updates)", [](PyNode& p) { scatterElements(p, "none"); });
  addPy(r, "ScatterElements", 11, "T.scatter / scatter_add / scatter_reduce",
        [](PyNode& p) { scatterElements(p, p.opset >= 16 ? p.attrString("reduction", "none") : "none"); });

  HelperLibrary::instance().add(
      Helper{"_onnx_scatter_nd",
             "def _onnx_scatter_nd(x, indices, updates, reduction='none'):\n"
             "    # ONNX ScatterND: each index tuple (last dim of `indices`) selects a slice of x that takes\n"
             "    # the matching slice of `updates`, combined by `reduction`, in order.\n"
             "    out = x.clone()\n"
             "    index = indices.long().reshape(-1, indices.shape[-1])\n"
             "    slices = updates.reshape([index.shape[0]] + list(updates.shape[indices.dim() - 1:]))\n"
             "    for i in range(index.shape[0]):\n"
             "        at = tuple(int(v) for v in index[i])\n"
             "        if reduction == 'add':\n"
             "            out[at] = out[at] + slices[i]\n"
             "        elif reduction == 'mul':\n"
             "            out[at] = out[at] * slices[i]\n"
             "        elif reduction == 'max':\n"
             "            out[at] = T.maximum(out[at], slices[i])\n"
             "        elif reduction == 'min':\n"
             "            out[at] = T.minimum(out[at], slices[i])\n"
             "        else:\n"
             "            out[at] = slices[i]\n"
             "    return out\n",
             {}});
  addPy(r, "ScatterND", 11, "_onnx_scatter_nd", [](PyNode& p) {
    const std::string reduction = p.opset >= 16 ? p.attrString("reduction", "none") : "none";
    if (reduction != "none" && reduction != "add" && reduction != "mul" && reduction != "max" && reduction != "min")
      p.unsupported("reduction '" + reduction + "'");
    p.assign(p.helper("_onnx_scatter_nd") + "(" + p.in(0) + ", " + p.in(1) + ", " + p.in(2) +
             (reduction == "none" ? "" : ", reduction=" + pyStringLiteral(reduction)) + ")");
  });
}

void registerSelections(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(
      Helper{"_onnx_one_hot",
             "def _onnx_one_hot(indices, depth, values, axis=-1):\n"
             "    # ONNX OneHot: values = [off, on]; negative indices count from `depth`, others out of\n"
             "    # range give an all-off row; the new dim of size depth goes at `axis`.\n"
             "    depth = int(depth)\n"
             "    index = indices.long()\n"
             "    index = T.where(index < 0, index + depth, index)\n"
             "    axis = axis % (indices.dim() + 1)\n"
             "    shape = [1] * (indices.dim() + 1)\n"
             "    shape[axis] = depth\n"
             "    hot = index.unsqueeze(axis) == T.arange(depth).reshape(shape)\n"
             "    return T.where(hot, values[1], values[0])\n",
             {}});
  addPy(r, "OneHot", 9, "_onnx_one_hot", [](PyNode& p) {
    const int64_t axis = p.attrInt("axis", -1);
    p.assign(p.helper("_onnx_one_hot") + "(" + p.in(0) + ", " + p.in(1) + ", " + p.in(2) +
             (axis == -1 ? "" : ", axis=" + pyInt(axis)) + ")");
  });
  addPy(r, "Compress", 9, "T.index_select(x, axis, positions where condition holds)", [](PyNode& p) {
    std::string x = p.in(0);
    std::string positions = "T.nonzero(" + p.in(1) + ").flatten()";
    if (!p.hasAttr("axis")) return p.assign("T.index_select(" + x + ".flatten(), 0, " + positions + ")");
    p.assign("T.index_select(" + x + ", " + pyInt(p.attrInt("axis", 0)) + ", " + positions + ")");
  });
  addPy(r, "NonZero", 9, "T.nonzero(x).T: one row per dim",
        [](PyNode& p) { p.assign("T.nonzero(" + p.in(0) + ").T"); });

  HelperLibrary::instance().add(
      Helper{"_onnx_reverse_sequence",
             "def _onnx_reverse_sequence(x, lengths, batch_axis=1, time_axis=0):\n"
             "    # ONNX ReverseSequence: the first lengths[b] steps of sequence b are reversed, the rest kept.\n"
             "    out = x.clone()\n"
             "    for b, n in enumerate(lengths.tolist()):\n"
             "        index = [slice(None)] * x.dim()\n"
             "        index[batch_axis] = slice(b, b + 1)\n"
             "        index[time_axis] = slice(0, int(n))\n"
             "        out[tuple(index)] = x[tuple(index)].flip(time_axis)\n"
             "    return out\n",
             {}});
  addPy(r, "ReverseSequence", 10, "_onnx_reverse_sequence", [](PyNode& p) {
    const int64_t batch = p.attrInt("batch_axis", 1), time = p.attrInt("time_axis", 0);
    std::string args = p.in(0) + ", " + p.in(1);
    if (batch != 1 || time != 0) args += ", batch_axis=" + pyInt(batch) + ", time_axis=" + pyInt(time);
    p.assign(p.helper("_onnx_reverse_sequence") + "(" + args + ")");
  });
}

void registerSorting(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(
      Helper{"_onnx_topk",
             "def _onnx_topk(x, k, axis=-1, largest=True):\n"
             "    # ONNX TopK: of equal values the one with the lower index comes first, which a stable sort keeps.\n"
             "    values, indices = T.sort(x, dim=axis, descending=largest, stable=True)\n"
             "    return values.narrow(axis, 0, k), indices.narrow(axis, 0, k)\n",
             {}});
  addPy(r, "TopK", 1, "the first k of a stable sort along axis", [](PyNode& p) {
    std::string x = p.in(0);
    std::string k;
    if (p.opset < 10)
      k = pyInt(p.attrInt("k", 0));
    else if (auto v = p.constInts(1); v && v->size() == 1)
      k = pyInt((*v)[0]);
    else
      k = "int(" + p.in(1) + ")";
    const int64_t axis = p.attrInt("axis", -1);
    const bool largest = p.opset < 11 || p.attrInt("largest", 1) != 0;
    if (p.oneflow()) {
      // OneFlow's sort is not stable; topk's order among equal values may differ from ONNX's (lower index first).
      p.ctx.warnings.push_back("equal values may come in another order than ONNX's (lower index first)");
      std::string args = x + ", " + k + (axis == -1 ? "" : ", dim=" + pyInt(axis)) + (largest ? "" : ", largest=False");
      return p.line(p.outTuple() + " = T.topk(" + args + ")");
    }
    std::string args = x + ", " + k + (axis == -1 ? "" : ", axis=" + pyInt(axis)) + (largest ? "" : ", largest=False");
    p.line(p.outTuple() + " = " + p.helper("_onnx_topk") + "(" + args + ")");
  });

  HelperLibrary::instance().add(
      Helper{"_onnx_unique",
             "def _onnx_unique(x, axis=None, sorted=True):\n"
             "    # ONNX Unique: the unique values (or slices along axis), the index of each one's first\n"
             "    # occurrence, the index of each input element's value, the counts; unsorted keeps the order\n"
             "    # of first occurrence.\n"
             "    flat = x.flatten() if axis is None else x.movedim(axis, 0)\n"
             "    values, inverse, counts = T.unique(flat, sorted=True, return_inverse=True, return_counts=True,\n"
             "                                       dim=None if axis is None else 0)\n"
             "    n = flat.shape[0]\n"
             "    first = T.full((values.shape[0],), n, dtype=T.int64)\n"
             "    first = first.scatter_reduce(0, inverse, T.arange(n), reduce='amin')\n"
             "    if not sorted:\n"
             "        order = T.argsort(first)\n"
             "        values, first, counts = values[order], first[order], counts[order]\n"
             "        inverse = T.argsort(order)[inverse]\n"
             "    if axis is not None:\n"
             "        values = values.movedim(0, axis)\n"
             "    return values, first, inverse, counts\n",
             {}});
  addPy(r, "Unique", 11, "T.unique plus first occurrences", [](PyNode& p) {
    if (p.oneflow()) p.unsupported("OneFlow 0.8 has no unique, and its unique has no dim nor first occurrences");
    std::string args = p.in(0);
    if (p.hasAttr("axis")) args += ", axis=" + pyInt(p.attrInt("axis", 0));
    if (p.attrInt("sorted", 1) == 0) args += ", sorted=False";
    std::string lhs;
    for (size_t i = 0; i < 4; ++i) lhs += (i ? ", " : "") + (i < p.outputCount() ? p.out(i) : std::string("_"));
    p.line(lhs + " = " + p.helper("_onnx_unique") + "(" + args + ")");
  });
}

}  // namespace

void registerIndexingCode(convert::HandlerRegistry& r) {
  registerGathers(r);
  registerScatters(r);
  registerSelections(r);
  registerSorting(r);
}

}  // namespace fb::codegen
