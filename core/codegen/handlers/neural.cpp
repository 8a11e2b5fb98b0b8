// Convolution, pooling, normalization, dense layers.
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"

namespace fb::codegen {
namespace {

std::string ints(const std::vector<int64_t>& v) { return v.size() == 1 ? std::to_string(v[0]) : pyIntTuple(v); }

bool allEqual(const std::vector<int64_t>& v, int64_t x) {
  for (auto e : v)
    if (e != x) return false;
  return true;
}

// Spatial rank of a Conv/Pool node: from kernel_shape, the weight's shape, or the input's rank.
int64_t spatialRank(PyNode& p, bool fromWeight) {
  if (auto k = p.attrInts("kernel_shape"); !k.empty()) return static_cast<int64_t>(k.size());
  if (fromWeight)
    if (const ir::Tensor* w = p.constant(1)) return static_cast<int64_t>(w->dims.size()) - 2;
  if (auto r = p.rank(0)) return *r - 2;
  p.unsupported("the spatial rank is unknown");
}

struct Window {
  std::vector<int64_t> kernel, strides, dilations, begin, end;
  bool samePads = false;  // auto_pad SAME_*: computed from the input size at run time
  bool sameUpper = true;
};

Window window(PyNode& p, int64_t n, std::vector<int64_t> kernel) {
  Window w;
  w.kernel = std::move(kernel);
  w.strides = p.attrInts("strides");
  if (w.strides.empty()) w.strides.assign(n, 1);
  w.dilations = p.attrInts("dilations");
  if (w.dilations.empty()) w.dilations.assign(n, 1);
  std::string autoPad = p.attrString("auto_pad", "NOTSET");
  auto pads = p.attrInts("pads");
  if (pads.empty()) pads.assign(2 * n, 0);
  if (static_cast<int64_t>(pads.size()) != 2 * n) p.unsupported("pads has " + std::to_string(pads.size()) + " values for " + std::to_string(n) + " spatial dims");
  if (autoPad == "VALID") pads.assign(2 * n, 0);
  w.begin.assign(pads.begin(), pads.begin() + n);
  w.end.assign(pads.begin() + n, pads.end());
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    w.samePads = true;
    w.sameUpper = autoPad == "SAME_UPPER";
  } else if (autoPad != "NOTSET" && autoPad != "VALID") {
    p.unsupported("auto_pad '" + autoPad + "'");
  }
  return w;
}

// Pads that the library call cannot take (asymmetric, or SAME_*) become an explicit F.pad first.
std::string prepad(PyNode& p, const std::string& x, Window& w, const std::string& fill) {
  const int64_t n = static_cast<int64_t>(w.kernel.size());
  if (w.samePads) {
    std::string fn = p.helper("_onnx_same_pads");
    std::string padded = p.temp(x + "_padded");
    p.line(padded + " = F.pad(" + x + ", " + fn + "(" + x + ".shape[2:], " + pyIntList(w.kernel) + ", " + pyIntList(w.strides) + ", " +
           pyIntList(w.dilations) + ", " + pyBool(w.sameUpper) + ")" + (fill.empty() ? "" : ", value=" + fill) + ")");
    w.begin.assign(n, 0);
    w.end.assign(n, 0);
    return padded;
  }
  if (w.begin == w.end) return x;
  std::vector<int64_t> torchPads;  // last dim first: [xn_begin, xn_end, ..., x1_begin, x1_end]
  for (int64_t i = n - 1; i >= 0; --i) {
    torchPads.push_back(w.begin[i]);
    torchPads.push_back(w.end[i]);
  }
  std::string padded = p.temp(x + "_padded");
  p.line(padded + " = F.pad(" + x + ", " + pyIntList(torchPads) + (fill.empty() ? "" : ", value=" + fill) + ")");
  w.begin.assign(n, 0);
  w.end.assign(n, 0);
  return padded;
}

void registerConv(convert::HandlerRegistry& r) {
  addPy(r, "Conv", 1, "F.conv1d/2d/3d (explicit F.pad for asymmetric or SAME pads)", [](PyNode& p) {
    const int64_t n = spatialRank(p, true);
    if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D convolution");
    std::vector<int64_t> kernel = p.attrInts("kernel_shape");
    if (kernel.empty()) {
      const ir::Tensor* w = p.constant(1);
      if (!w) p.unsupported("kernel_shape is not given and the weight is not a constant");
      kernel.assign(w->dims.begin() + 2, w->dims.end());
    }
    Window w = window(p, n, kernel);
    std::string x = prepad(p, p.in(0), w, "");
    std::string call = "F.conv" + std::to_string(n) + "d(" + x + ", " + p.weight(1) + (p.has(2) ? ", " + p.weight(2) : "");
    if (!allEqual(w.strides, 1)) call += ", stride=" + ints(w.strides);
    if (!allEqual(w.begin, 0)) call += ", padding=" + ints(w.begin);
    if (!allEqual(w.dilations, 1)) call += ", dilation=" + ints(w.dilations);
    if (int64_t g = p.attrInt("group", 1); g != 1) call += ", groups=" + std::to_string(g);
    p.assign(call + ")");
  });
}

void registerPooling(convert::HandlerRegistry& r) {
  addPy(r, "MaxPool", 1, "F.max_pool1d/2d/3d", [](PyNode& p) {
    auto kernel = p.attrInts("kernel_shape");
    const int64_t n = static_cast<int64_t>(kernel.size());
    if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D max pooling");
    if (p.outUsed(1)) p.unsupported("the Indices output (ONNX flattens indices over N and C too)");
    if (p.attrInt("storage_order", 0) != 0) p.unsupported("storage_order=1");
    Window w = window(p, n, kernel);
    // PyTorch limits implicit padding to half the kernel; larger or uneven pads go explicit with -inf.
    bool fits = true;
    for (int64_t i = 0; i < n; ++i) fits = fits && w.begin[i] * 2 <= kernel[i];
    std::string x = p.in(0);
    if (!fits || w.begin != w.end || w.samePads) x = prepad(p, x, w, "float('-inf')");
    std::string call = "F.max_pool" + std::to_string(n) + "d(" + x + ", " + ints(kernel) + ", stride=" + ints(w.strides);
    if (!allEqual(w.begin, 0)) call += ", padding=" + ints(w.begin);
    if (!allEqual(w.dilations, 1)) call += ", dilation=" + ints(w.dilations);
    if (p.attrInt("ceil_mode", 0)) call += ", ceil_mode=True";
    p.assign(call + ")");
  });
  addPy(r, "GlobalAveragePool", 1, "mean over the spatial dims", [](PyNode& p) {
    std::string x = p.in(0);
    auto rank = p.rank(0);
    if (rank && *rank == 4) return p.assign("F.adaptive_avg_pool2d(" + x + ", 1)");
    if (rank) {
      std::vector<int64_t> dims;
      for (int64_t d = 2; d < *rank; ++d) dims.push_back(d);
      return p.assign(x + ".mean(dim=" + pyIntTuple(dims) + ", keepdim=True)");
    }
    p.assign(x + ".mean(dim=tuple(range(2, " + x + ".dim())), keepdim=True)");
  });
}

std::string channelShape(PyNode& p, const std::string& x) {
  if (auto rank = p.rank(0)) {
    std::vector<int64_t> s{1, -1};
    for (int64_t i = 2; i < *rank; ++i) s.push_back(1);
    return pyIntTuple(s);
  }
  return "(1, -1) + (1,) * (" + x + ".dim() - 2)";
}

void registerNormalization(convert::HandlerRegistry& r) {
  addPy(r, "BatchNormalization", 1, "inference batch norm with running statistics", [](PyNode& p) {
    if (p.opset >= 14 && p.attrInt("training_mode", 0) != 0) p.unsupported("training_mode=1 (batch statistics)");
    if (p.opset < 9 && p.attrInt("spatial", 1) == 0) p.unsupported("spatial=0");
    for (size_t i = 1; i < p.outputCount(); ++i)
      if (p.outUsed(i)) p.unsupported("the running/saved statistics outputs");
    std::string x = p.in(0);
    std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
    std::string scale = p.weight(1), bias = p.weight(2), mean = p.weight(3, false), var = p.weight(4, false);
    if (!p.oneflow())
      return p.assign("F.batch_norm(" + x + ", " + mean + ", " + var + ", " + scale + ", " + bias + ", eps=" + eps + ")");
    // F.batch_norm is not in OneFlow 0.8: the same formula, written out.
    std::string s = channelShape(p, x);
    p.assign("(" + x + " - " + mean + ".reshape(" + s + ")) / T.sqrt(" + var + ".reshape(" + s + ") + " + eps + ") * " + scale +
             ".reshape(" + s + ") + " + bias + ".reshape(" + s + ")");
  });
  addPy(r, "LayerNormalization", 17, "F.layer_norm over the dims from axis on", [](PyNode& p) {
    if (p.outUsed(1) || p.outUsed(2)) p.unsupported("the Mean/InvStdDev outputs");
    std::string x = p.in(0);
    int64_t axis = p.attrInt("axis", -1);
    std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
    std::string shape = axis == -1 ? "(" + x + ".shape[-1],)" : "tuple(" + x + ".shape[" + std::to_string(axis) + ":])";
    p.assign("F.layer_norm(" + x + ", " + shape + ", " + p.weight(1) + ", " + (p.has(2) ? p.weight(2) : "None") + ", eps=" + eps + ")");
  });
}

void registerDense(convert::HandlerRegistry& r) {
  addPy(r, "MatMul", 1, "T.matmul(a, b)", [](PyNode& p) { p.assign("T.matmul(" + p.in(0) + ", " + p.in(1) + ")"); });
  addPy(r, "Gemm", 1, "F.linear for the layer pattern, else alpha * A @ B + beta * C", [](PyNode& p) {
    const float alpha = p.attrFloat("alpha", 1.f), beta = p.attrFloat("beta", 1.f);
    const bool ta = p.attrInt("transA", 0) != 0, tb = p.attrInt("transB", 0) != 0;
    if (p.opset < 7 && p.attrInt("broadcast", 0) == 0 && p.has(2)) p.unsupported("Gemm-6 without broadcast");
    const ir::Tensor* c = p.has(2) ? p.constant(2) : nullptr;
    if (tb && !ta && alpha == 1.f && beta == 1.f && p.constant(1) && (!p.has(2) || (c && c->dims.size() == 1)))
      return p.assign("F.linear(" + p.in(0) + ", " + p.weight(1) + (p.has(2) ? ", " + p.weight(2) : "") + ")");
    std::string a = p.in(0) + (ta ? ".t()" : ""), b = (p.constant(1) ? p.weight(1) : p.in(1)) + (tb ? ".t()" : "");
    std::string e = "T.matmul(" + a + ", " + b + ")";
    if (alpha != 1.f) e = pyFloat(alpha, ir::DataType::Float) + " * " + e;
    if (p.has(2) && beta != 0.f) {
      std::string cc = c ? p.weight(2) : p.in(2);
      e += " + " + (beta != 1.f ? pyFloat(beta, ir::DataType::Float) + " * " + cc : cc);
    }
    p.assign(e);
  });
}

void registerRearrange(convert::HandlerRegistry& r) {
  addPy(r, "DepthToSpace", 1, "reshape + permute (DCR or CRD)", [](PyNode& p) {
    const int64_t b = p.attrInt("blocksize", 0);
    if (b < 1 || b > 4096) p.unsupported("blocksize " + std::to_string(b));
    std::string x = p.in(0);
    std::string bs = std::to_string(b);
    std::string n = p.temp("n"), c = p.temp("c"), h = p.temp("h"), w = p.temp("w");
    p.line(n + ", " + c + ", " + h + ", " + w + " = " + x + ".shape");
    const bool crd = p.opset >= 11 && p.attrString("mode", "DCR") == "CRD";
    std::string split = crd ? n + ", " + c + " // " + std::to_string(b * b) + ", " + bs + ", " + bs + ", " + h + ", " + w
                            : n + ", " + bs + ", " + bs + ", " + c + " // " + std::to_string(b * b) + ", " + h + ", " + w;
    std::string perm = crd ? "0, 1, 4, 2, 5, 3" : "0, 3, 4, 1, 5, 2";
    p.assign(x + ".reshape(" + split + ").permute(" + perm + ").reshape(" + n + ", " + c + " // " + std::to_string(b * b) + ", " + h +
             " * " + bs + ", " + w + " * " + bs + ")");
  });
}

}  // namespace

void registerNeuralCode(convert::HandlerRegistry& r) {
  HelperLibrary::instance().add(Helper{"_onnx_same_pads",
                                       "def _onnx_same_pads(size, kernel, stride, dilation, upper):\n"
                                       "    # ONNX auto_pad SAME_UPPER/SAME_LOWER as F.pad's list (last dim first).\n"
                                       "    pads = []\n"
                                       "    for n, k, s, d in reversed(list(zip(size, kernel, stride, dilation))):\n"
                                       "        total = max((-(-int(n) // s) - 1) * s + (k - 1) * d + 1 - int(n), 0)\n"
                                       "        small, large = total // 2, total - total // 2\n"
                                       "        pads += [small, large] if upper else [large, small]\n"
                                       "    return pads\n",
                                       {}});
  registerConv(r);
  registerPooling(r);
  registerNormalization(r);
  registerDense(r);
  registerRearrange(r);
}

}  // namespace fb::codegen
