// Reductions (ReduceSum, ReduceMean, ReduceMax, ... and ArgMax/ArgMin). ONNX reduces over `axes` (an attribute
// before opset 13 for ReduceSum and 18 for the others, an input from then on), over every dim when there are
// none, or not at all when noop_with_empty_axes is set. Results keep the input's element type, where PyTorch
// widens integer sums and products to int64.
#include <algorithm>

#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

// What a node reduces over: every dim (`all`) or the listed axes.
struct ReduceDims {
  bool all = true;
  std::vector<int64_t> axes;
  bool keep = true;
  std::string runtimeAxes;   // the axes input when it is computed at run time: a 1-D int64 tensor
  bool noopIfEmpty = false;  // ... and noop_with_empty_axes is set
};

// The dims of the node, or nullopt when it is a no-op (noop_with_empty_axes with no axes).
std::optional<ReduceDims> reduceDims(PyNode& p, int64_t axesInputSince) {
  ReduceDims d;
  d.keep = p.attrInt("keepdims", 1) != 0;
  if (p.opset >= axesInputSince) {
    if (p.has(1)) {
      auto v = p.constInts(1);
      if (!v) {
        d.all = false;
        d.runtimeAxes = p.in(1);
        d.noopIfEmpty = p.attrInt("noop_with_empty_axes", 0) != 0;
        return d;
      }
      d.axes = *v;
    }
    if (d.axes.empty() && p.attrInt("noop_with_empty_axes", 0) != 0) return std::nullopt;
  } else {
    d.axes = p.attrInts("axes");
  }
  d.all = d.axes.empty();
  return d;
}

// The `dim=` value for every dim: a literal when the rank is known.
std::string allDims(PyNode& p, const std::string& x) {
  if (auto rank = p.rank(0)) {
    std::vector<int64_t> v;
    for (int64_t i = 0; i < *rank; ++i) v.push_back(i);
    return v.size() == 1 ? "0" : pyIntTuple(v);
  }
  return "tuple(range(" + x + ".dim()))";
}

std::string dimValue(PyNode& p, const std::string& x, const ReduceDims& d) {
  // Axes known only at run time: an empty list means every dim (or no reduction, handled by the caller).
  if (!d.runtimeAxes.empty())
    return d.noopIfEmpty ? "tuple(" + d.runtimeAxes + ".tolist())"
                         : p.helper("_onnx_reduce_axes") + "(" + x + ", " + d.runtimeAxes + ")";
  if (d.all) return allDims(p, x);
  return d.axes.size() == 1 ? std::to_string(d.axes[0]) : pyIntTuple(d.axes);
}

// x.method(dim=..., keepdim=...) for methods that take a tuple of dims; x.method() over everything.
std::string methodCall(PyNode& p, const std::string& x, const std::string& method, const ReduceDims& d) {
  if (d.all && !d.keep) return x + "." + method + "()";
  return x + "." + method + "(dim=" + dimValue(p, x, d) + (d.keep ? ", keepdim=True" : "") + ")";
}

// prod takes one dim at a time: reduce each with keepdim, then drop them in descending order.
std::string prodCall(PyNode& p, const std::string& x, const ReduceDims& d) {
  if (!d.runtimeAxes.empty()) p.unsupported("ReduceProd over axes computed at run time");
  if (d.all && !d.keep) return x + ".prod()";
  std::vector<int64_t> axes = d.axes;
  auto rank = p.rank(0);
  if (d.all) {
    if (!rank) return x + ".prod().reshape((1,) * " + x + ".dim())";
    std::string ones;
    for (int64_t i = 0; i < *rank; ++i) ones += (i ? ", 1" : "1");
    return x + ".prod().reshape(" + (*rank == 0 ? std::string("()") : ones) + ")";
  }
  if (axes.size() == 1) return x + ".prod(dim=" + std::to_string(axes[0]) + (d.keep ? ", keepdim=True" : "") + ")";
  std::string e = x;
  for (int64_t a : axes) e += ".prod(dim=" + std::to_string(a) + ", keepdim=True)";
  if (d.keep) return e;
  for (auto& a : axes)
    if (a < 0) {
      if (!rank) p.unsupported("negative axes with an unknown rank");
      a += *rank;
    }
  std::sort(axes.rbegin(), axes.rend());
  for (int64_t a : axes) e += ".squeeze(" + std::to_string(a) + ")";
  return e;
}

void registerHelpers() {
  HelperLibrary::instance().add(Helper{"_onnx_reduce_axes",
                                       "def _onnx_reduce_axes(x, axes):\n"
                                       "    # ONNX reduction axes given at run time: none means every dim.\n"
                                       "    axes = tuple(int(a) for a in axes.tolist())\n"
                                       "    return axes if axes else tuple(range(x.dim()))\n",
                                       {}});
  HelperLibrary::instance().add(
      Helper{"_onnx_logsumexp",
             "def _onnx_logsumexp(x, dim, keepdim=False):\n"
             "    # log(sum(exp(x))) computed around the maximum so that large values do not overflow.\n"
             "    m = x.amax(dim=dim, keepdim=True)\n"
             "    m = T.where(T.isinf(m), T.zeros_like(m), m)\n"
             "    out = (x - m).exp().sum(dim=dim, keepdim=True).log() + m\n"
             "    return out if keepdim else out.squeeze(dim)\n",
             {}});
}

enum class Kind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

struct Reduction {
  const char* op;
  Kind kind;
  int64_t axesInputSince;
  const char* description;
};

std::string reduceExpr(PyNode& p, Kind kind, const std::string& x, const ReduceDims& d) {
  switch (kind) {
    case Kind::Sum:
      return methodCall(p, x, "sum", d);
    case Kind::Mean:
      return methodCall(p, x, "mean", d);
    case Kind::Max:
      return methodCall(p, x, "amax", d);
    case Kind::Min:
      return methodCall(p, x, "amin", d);
    case Kind::Prod:
      return prodCall(p, x, d);
    case Kind::L1:
      return methodCall(p, x + ".abs()", "sum", d);
    case Kind::L2:
      return methodCall(p, "T.square(" + x + ")", "sum", d) + ".sqrt()";
    case Kind::LogSum:
      return methodCall(p, x, "sum", d) + ".log()";
    case Kind::SumSquare:
      return methodCall(p, "T.square(" + x + ")", "sum", d);
    case Kind::LogSumExp: {
      std::string dims = dimValue(p, x, d);
      if (p.oneflow())  // OneFlow 0.8 has no logsumexp
        return p.helper("_onnx_logsumexp") + "(" + x + ", " + dims + (d.keep ? ", keepdim=True" : "") + ")";
      return "T.logsumexp(" + x + ", dim=" + dims + (d.keep ? ", keepdim=True" : "") + ")";
    }
  }
  return "";
}

void registerReduceOps(convert::HandlerRegistry& r) {
  for (const Reduction& red :
       {Reduction{"ReduceSum", Kind::Sum, 13, "x.sum(dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceMean", Kind::Mean, 18, "x.mean(dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceMax", Kind::Max, 18, "x.amax(dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceMin", Kind::Min, 18, "x.amin(dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceProd", Kind::Prod, 18, "x.prod(dim=axis, keepdim=keepdims) per axis"},
        Reduction{"ReduceL1", Kind::L1, 18, "x.abs().sum(dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceL2", Kind::L2, 18, "T.square(x).sum(dim=axes, keepdim=keepdims).sqrt()"},
        Reduction{"ReduceLogSum", Kind::LogSum, 18, "x.sum(dim=axes, keepdim=keepdims).log()"},
        Reduction{"ReduceLogSumExp", Kind::LogSumExp, 18, "T.logsumexp(x, dim=axes, keepdim=keepdims)"},
        Reduction{"ReduceSumSquare", Kind::SumSquare, 18, "T.square(x).sum(dim=axes, keepdim=keepdims)"}}) {
    const Kind kind = red.kind;
    const int64_t since = red.axesInputSince;
    auto fn = [kind, since](PyNode& p) {
      std::string x = p.in(0);
      const ir::DataType t = p.dtype(0);
      auto d = reduceDims(p, since);
      if (!d) return p.alias(0, x);
      const bool integer = isInteger(t);
      if (integer && (kind == Kind::Mean || kind == Kind::L2 || kind == Kind::LogSum || kind == Kind::LogSumExp))
        p.unsupported("an integer mean, norm or logarithm: ONNX does not say how it is rounded back to integers");
      std::string e = reduceExpr(p, kind, x, *d);
      // PyTorch sums and multiplies integers in int64 (and bools into int64); ONNX keeps the input's type.
      const bool widens = kind == Kind::Sum || kind == Kind::Prod || kind == Kind::L1 || kind == Kind::SumSquare;
      if (widens && (t == ir::DataType::Bool || (integer && t != ir::DataType::Int64)))
        e += ".to(" + p.dtypeExpr(t) + ")";
      else if (widens && t == ir::DataType::Undefined)
        e += ".to(" + x + ".dtype)";
      if (d->noopIfEmpty) e = x + " if " + d->runtimeAxes + ".numel() == 0 else " + e;
      p.assign(e);
    };
    addPy(r, red.op, 1, red.description, fn);
    addPy(r, red.op, since, std::string(red.description) + "; axes as an input", fn);
  }
}

void registerArgReductions(convert::HandlerRegistry& r) {
  for (auto [op, method] : {std::pair{"ArgMax", "argmax"}, {"ArgMin", "argmin"}}) {
    std::string m = method;
    addPy(r, op, 1, "x." + m + "(dim=axis, keepdim=keepdims); the last index through flip", [m](PyNode& p) {
      std::string x = p.in(0);
      const int64_t axis = p.attrInt("axis", 0);
      const bool keep = p.attrInt("keepdims", 1) != 0;
      const std::string args = "(dim=" + std::to_string(axis) + (keep ? ", keepdim=True" : "") + ")";
      if (p.opset >= 12 && p.attrInt("select_last_index", 0) != 0) {
        // Ties go to the first index in PyTorch and OneFlow; the first in the flipped tensor is the last one.
        return p.assign(x + ".shape[" + std::to_string(axis) + "] - 1 - " + x + ".flip(" + std::to_string(axis) + ")." +
                        m + args);
      }
      p.assign(x + "." + m + args);
    });
  }
}

}  // namespace

void registerReductionCode(convert::HandlerRegistry& r) {
  registerHelpers();
  registerReduceOps(r);
  registerArgReductions(r);
}

}  // namespace fb::codegen
