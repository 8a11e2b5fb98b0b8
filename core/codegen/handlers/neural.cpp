// Convolution, pooling, normalization, dense layers.
#include "codegen/handlers/convolution.h"
#include "codegen/handlers/handler_families.h"
#include "codegen/helper_library.h"
#include "codegen/train_mode.h"

namespace fb::codegen {
namespace {

std::string ints(const std::vector<int64_t>& v) { return v.size() == 1 ? std::to_string(v[0]) : pyIntTuple(v); }

bool allEqual(const std::vector<int64_t>& v, int64_t x) {
  for (auto e : v)
    if (e != x) return false;
  return true;
}

// A weight-like input: a parameter/buffer when it is a constant of the model, else the tensor it is at run time.
std::string arg(PyNode& p, size_t i, bool trainable = true) { return p.constant(i) ? p.weight(i, trainable) : p.in(i); }

// (1, -1, 1, ...) to broadcast a per-channel vector against input 0.
std::string channelShape(PyNode& p, const std::string& x) {
  if (auto rank = p.rank(0)) {
    std::vector<int64_t> s{1, -1};
    for (int64_t i = 2; i < *rank; ++i) s.push_back(1);
    return pyIntTuple(s);
  }
  return "(1, -1) + (1,) * (" + x + ".dim() - 2)";
}

// The spatial dims of input 0 as a tuple literal (2, 3, ...), or a run-time tuple when the rank is unknown.
std::string spatialDims(PyNode& p, const std::string& x) {
  if (auto rank = p.rank(0)) {
    std::vector<int64_t> dims;
    for (int64_t d = 2; d < *rank; ++d) dims.push_back(d);
    return pyIntTuple(dims);
  }
  return "tuple(range(2, " + x + ".dim()))";
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
  if (static_cast<int64_t>(pads.size()) != 2 * n)
    p.unsupported("pads has " + std::to_string(pads.size()) + " values for " + std::to_string(n) + " spatial dims");
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
// `force`: pad even when the pads are symmetric (they exceed what the library call accepts).
std::string prepad(PyNode& p, const std::string& x, Window& w, const std::string& fill, bool force = false) {
  const int64_t n = static_cast<int64_t>(w.kernel.size());
  if (w.samePads) {
    std::string fn = p.helper("_onnx_same_pads");
    std::string padded = p.temp(x + "_padded");
    p.line(padded + " = F.pad(" + x + ", " + fn + "(" + x + ".shape[2:], " + pyIntList(w.kernel) + ", " +
           pyIntList(w.strides) + ", " + pyIntList(w.dilations) + ", " + pyBool(w.sameUpper) + ")" +
           (fill.empty() ? "" : ", value=" + fill) + ")");
    w.begin.assign(n, 0);
    w.end.assign(n, 0);
    return padded;
  }
  if (w.begin == w.end && (!force || allEqual(w.begin, 0))) return x;
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

}  // namespace

std::string convExpression(PyNode& p, const std::string& input, size_t weightIndex, const std::string& weight,
                           const std::string& bias) {
  int64_t n = 0;
  std::vector<int64_t> kernel = p.attrInts("kernel_shape");
  if (!kernel.empty())
    n = static_cast<int64_t>(kernel.size());
  else if (const ir::Tensor* w = p.constant(weightIndex))
    kernel.assign(w->dims.begin() + 2, w->dims.end());
  else if (auto s = p.shape(weightIndex); s && s->size() >= 3)
    kernel.assign(s->begin() + 2, s->end());
  else
    p.unsupported("kernel_shape is not given and the weight's shape is unknown");
  n = static_cast<int64_t>(kernel.size());
  if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D convolution");
  Window w = window(p, n, kernel);
  std::string x = prepad(p, input, w, "");
  std::string call = "F.conv" + std::to_string(n) + "d(" + x + ", " + weight + (bias.empty() ? "" : ", " + bias);
  if (!allEqual(w.strides, 1)) call += ", stride=" + ints(w.strides);
  if (!allEqual(w.begin, 0)) call += ", padding=" + ints(w.begin);
  if (!allEqual(w.dilations, 1)) call += ", dilation=" + ints(w.dilations);
  if (int64_t g = p.attrInt("group", 1); g != 1) call += ", groups=" + std::to_string(g);
  return call + ")";
}

namespace {

void registerConv(convert::HandlerRegistry& r) {
  addPy(r, "Conv", 1, "F.conv1d/2d/3d (explicit F.pad for asymmetric or SAME pads)",
        [](PyNode& p) { p.assign(convExpression(p, p.in(0), 1, arg(p, 1), p.has(2) ? arg(p, 2) : "")); });
  addPy(r, "ConvTranspose", 1, "F.conv_transpose1d/2d/3d (_onnx_conv_transpose for output_shape, SAME or uneven pads)",
        [](PyNode& p) {
          const int64_t n = spatialRank(p, true);
          if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D transposed convolution");
          auto fill = [&](std::vector<int64_t> v, int64_t size, int64_t def) {
            if (v.empty()) v.assign(size, def);
            if (static_cast<int64_t>(v.size()) != size)
              p.unsupported("an attribute has " + std::to_string(v.size()) + " values for " + std::to_string(n) +
                            " spatial dims");
            return v;
          };
          const auto strides = fill(p.attrInts("strides"), n, 1), dilations = fill(p.attrInts("dilations"), n, 1);
          const auto outputPadding = fill(p.attrInts("output_padding"), n, 0);
          auto pads = fill(p.attrInts("pads"), 2 * n, 0);
          const auto outputShape = p.attrInts("output_shape");
          std::string autoPad = p.attrString("auto_pad", "NOTSET");
          if (autoPad == "VALID") pads.assign(2 * n, 0), autoPad = "NOTSET";
          if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
            p.unsupported("auto_pad '" + autoPad + "'");
          const int64_t group = p.attrInt("group", 1);
          std::string x = p.in(0), w = arg(p, 1), b = p.has(2) ? arg(p, 2) : "None";
          bool direct = autoPad == "NOTSET" && outputShape.empty();
          for (int64_t i = 0; i < n && direct; ++i)
            direct = pads[i] == pads[n + i] && pads[i] >= 0 && outputPadding[i] < std::max(strides[i], dilations[i]);
          if (direct) {
            std::string call =
                "F.conv_transpose" + std::to_string(n) + "d(" + x + ", " + w + (p.has(2) ? ", " + b : "");
            std::vector<int64_t> begin(pads.begin(), pads.begin() + n);
            if (!allEqual(strides, 1)) call += ", stride=" + ints(strides);
            if (!allEqual(begin, 0)) call += ", padding=" + ints(begin);
            if (!allEqual(outputPadding, 0)) call += ", output_padding=" + ints(outputPadding);
            if (group != 1) call += ", groups=" + std::to_string(group);
            if (!allEqual(dilations, 1)) call += ", dilation=" + ints(dilations);
            return p.assign(call + ")");
          }
          std::string call = p.helper("_onnx_conv_transpose") + "(" + x + ", " + w + ", " + b + ", " +
                             pyIntList(strides) + ", " + pyIntList(dilations) + ", " + std::to_string(group) + ", " +
                             pyIntList(outputPadding) + ", " + pyIntList(pads);
          if (!outputShape.empty()) {
            std::vector<int64_t> spatial = outputShape;
            if (static_cast<int64_t>(spatial.size()) == n + 2) spatial.erase(spatial.begin(), spatial.begin() + 2);
            if (static_cast<int64_t>(spatial.size()) != n)
              p.unsupported("output_shape has " + std::to_string(outputShape.size()) + " values");
            call += ", output_shape=" + pyIntList(spatial);
          }
          if (autoPad != "NOTSET") call += ", auto_pad=" + pyStringLiteral(autoPad);
          p.assign(call + ")");
        });
}

// Max pooling of integer tensors runs on floats that hold every value exactly (PyTorch has no integer kernels).
std::string poolableType(PyNode& p, std::string& x) {
  switch (p.dtype(0)) {
    case ir::DataType::UInt8:
    case ir::DataType::Int8:
    case ir::DataType::Int16:
      x += ".float()";
      return ".to(" + p.dtypeExpr(p.dtype(0)) + ")";
    case ir::DataType::Int32:
      x += ".double()";
      return ".to(" + p.dtypeExpr(p.dtype(0)) + ")";
    case ir::DataType::Int64:
    case ir::DataType::UInt16:
    case ir::DataType::UInt32:
    case ir::DataType::UInt64:
      p.unsupported("max pooling of " + std::string(ir::dataTypeName(p.dtype(0))) + " values");
    default:
      return "";
  }
}

void registerPooling(convert::HandlerRegistry& r) {
  addPy(r, "MaxPool", 1, "F.max_pool1d/2d/3d", [](PyNode& p) {
    auto kernel = p.attrInts("kernel_shape");
    const int64_t n = static_cast<int64_t>(kernel.size());
    if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D max pooling");
    const bool indices = p.outUsed(1);
    const int64_t storageOrder = p.opset >= 8 ? p.attrInt("storage_order", 0) : 0;
    if (storageOrder != 0 && n != 2) p.unsupported("storage_order=1 for " + std::to_string(n) + "-D pooling");
    Window w = window(p, n, kernel);
    // PyTorch limits implicit padding to half the kernel; larger or uneven pads go explicit with -inf.
    bool fits = true;
    for (int64_t i = 0; i < n; ++i) fits = fits && w.begin[i] * 2 <= kernel[i];
    std::string x = p.in(0);
    const std::string source = x;
    std::string back = poolableType(p, x);
    if (!fits || w.begin != w.end || w.samePads) {
      if (indices)
        p.unsupported("the Indices output with padding PyTorch cannot apply itself (indices would count the padding)");
      x = prepad(p, x, w, "float('-inf')", true);
    }
    std::string call =
        "F.max_pool" + std::to_string(n) + "d(" + x + ", " + ints(kernel) + ", stride=" + ints(w.strides);
    if (!allEqual(w.begin, 0)) call += ", padding=" + ints(w.begin);
    if (!allEqual(w.dilations, 1)) call += ", dilation=" + ints(w.dilations);
    if (p.opset >= 10 && p.attrInt("ceil_mode", 0)) call += ", ceil_mode=True";
    if (!indices) return p.assign(call + ")" + back);
    // PyTorch's indices count within one (n, c) plane; ONNX's count over the whole tensor (N and C too), in row-major
    // order, or column-major for storage_order=1.
    std::string plane = p.temp("plane_index");
    p.line(p.out(0) + ", " + plane + " = " + call + ", return_indices=True)");
    if (!back.empty()) p.line(p.out(0) + " = " + p.out(0) + back);
    std::string ones;
    for (int64_t i = 0; i < n; ++i) ones += ", 1";
    std::string offset = "T.arange(" + source + ".shape[0] * " + source + ".shape[1], device=" + source +
                         ".device).reshape(" + source + ".shape[0], " + source + ".shape[1]" + ones + ") * " + source +
                         "[0, 0].numel()";
    if (storageOrder != 0) {
      std::string h = source + ".shape[2]", wd = source + ".shape[3]";
      p.assignOut(1, plane + " % " + wd + " * " + h + " + " + plane + " // " + wd + " + " + offset);
    } else {
      p.assignOut(1, plane + " + " + offset);
    }
  });
  addPy(r, "AveragePool", 1,
        "F.avg_pool1d/2d/3d (explicit zero padding and a divisor that counts real elements when needed)",
        [](PyNode& p) {
          auto kernel = p.attrInts("kernel_shape");
          const int64_t n = static_cast<int64_t>(kernel.size());
          if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D average pooling");
          Window w = window(p, n, kernel);
          if (!allEqual(w.dilations, 1)) p.unsupported("dilations (PyTorch's average pooling has none)");
          const bool countPad = p.opset >= 7 && p.attrInt("count_include_pad", 0) != 0;
          const bool ceil = p.opset >= 10 && p.attrInt("ceil_mode", 0) != 0;
          bool fits = true;
          for (int64_t i = 0; i < n; ++i) fits = fits && w.begin[i] * 2 <= kernel[i];
          std::string x = p.in(0);
          std::string fn = "F.avg_pool" + std::to_string(n) + "d(";
          std::string tail = ", " + ints(kernel) + ", stride=" + ints(w.strides);
          if (ceil) tail += ", ceil_mode=True";
          if (fits && w.begin == w.end && !w.samePads) {
            // PyTorch's own padding: with count_include_pad=False it divides by the real elements, like ONNX's default.
            std::string call = fn + x + tail;
            if (!allEqual(w.begin, 0))
              call += ", padding=" + ints(w.begin) + (countPad ? "" : ", count_include_pad=False");
            return p.assign(call + ")");
          }
          std::string padded = prepad(p, x, w, "", true);
          if (countPad) return p.assign(fn + padded + tail + ")");
          // Padding must not count: the window sum divided by the number of real elements under the window.
          Window again = window(p, n, kernel);
          std::string mask = prepad(p, "T.ones_like(" + x + "[:1, :1])", again, "", true);
          p.assign(fn + padded + tail + ") / " + fn + mask + tail + ")");
        });
  addPy(r, "GlobalAveragePool", 1, "mean over the spatial dims", [](PyNode& p) {
    std::string x = p.in(0);
    auto rank = p.rank(0);
    if (rank && *rank == 4) return p.assign("F.adaptive_avg_pool2d(" + x + ", 1)");
    p.assign(x + ".mean(dim=" + spatialDims(p, x) + ", keepdim=True)");
  });
  addPy(r, "GlobalMaxPool", 1, "amax over the spatial dims", [](PyNode& p) {
    std::string x = p.in(0);
    p.assign(x + ".amax(dim=" + spatialDims(p, x) + ", keepdim=True)");
  });
  addPy(r, "LpPool", 1, "(window sum of |x|^p) ^ (1/p) with F.avg_poolNd(divisor_override=1)", [](PyNode& p) {
    auto kernel = p.attrInts("kernel_shape");
    const int64_t n = static_cast<int64_t>(kernel.size());
    if (n < 1 || n > 3) p.unsupported(std::to_string(n) + "-D Lp pooling");
    Window w = window(p, n, kernel);
    if (!allEqual(w.dilations, 1)) p.unsupported("dilations (PyTorch's average pooling has none)");
    const double pw =
        p.opset >= 2 ? static_cast<double>(p.attrInt("p", 2)) : static_cast<double>(p.attrFloat("p", 2.f));
    std::string x = p.in(0);
    std::string powered = pw == 2 ? x + " * " + x : x + ".abs().pow(" + pyFloat(pw) + ")";
    std::string padded = prepad(p, "(" + powered + ")", w, "", true);
    std::string call =
        "F.avg_pool" + std::to_string(n) + "d(" + padded + ", " + ints(kernel) + ", stride=" + ints(w.strides);
    if (p.opset >= 18 && p.attrInt("ceil_mode", 0)) call += ", ceil_mode=True";
    call += ", divisor_override=1)";
    p.assign(pw == 2 ? "T.sqrt(" + call + ")" : call + ".pow(" + pyFloat(1.0 / pw) + ")");
  });
  addPy(r, "GlobalLpPool", 1, "(sum of |x|^p over the spatial dims) ^ (1/p)", [](PyNode& p) {
    std::string x = p.in(0);
    const double pw =
        p.opset >= 2 ? static_cast<double>(p.attrInt("p", 2)) : static_cast<double>(p.attrFloat("p", 2.f));
    std::string dims = spatialDims(p, x);
    if (pw == 2) return p.assign("T.sqrt((" + x + " * " + x + ").sum(dim=" + dims + ", keepdim=True))");
    p.assign(x + ".abs().pow(" + pyFloat(pw) + ").sum(dim=" + dims + ", keepdim=True).pow(" + pyFloat(1.0 / pw) + ")");
  });
  addPy(r, "MaxUnpool", 9, "scatter into zeros at ONNX's flat indices (which count over N and C too)", [](PyNode& p) {
    auto kernel = p.attrInts("kernel_shape");
    const int64_t n = static_cast<int64_t>(kernel.size());
    if (n < 1) p.unsupported("no kernel_shape");
    auto strides = p.attrInts("strides");
    if (strides.empty()) strides.assign(n, 1);
    auto pads = p.attrInts("pads");
    if (pads.empty()) pads.assign(2 * n, 0);
    std::string x = p.in(0), idx = p.in(1);
    // ONNX's indices are flat positions in the unpooled tensor of the default shape; an output_shape larger than that
    // adds zeros at the end of each spatial axis.
    std::string shape = "[" + x + ".shape[0], " + x + ".shape[1]";
    for (int64_t i = 0; i < n; ++i)
      shape += ", (" + x + ".shape[" + std::to_string(i + 2) + "] - 1) * " + std::to_string(strides[i]) + " + " +
               std::to_string(kernel[i] - pads[i] - pads[n + i]);
    shape += "]";
    std::string s = p.temp("unpooled_shape");
    p.line(s + " = " + shape);
    std::string flat = p.temp("unpooled");
    p.line(flat + " = T.zeros(" + s + ", dtype=" + x + ".dtype, device=" + x + ".device).flatten()");
    std::string y = "T.scatter(" + flat + ", 0, " + idx + ".flatten(), " + x + ".flatten()).reshape(" + s + ")";
    if (!p.has(2)) return p.assign(y);
    std::string out = p.temp("output_shape");
    p.line(out + " = " + p.intList(2));
    p.assign("F.pad(" + y + ", [v for i in reversed(range(2, len(" + out + "))) for v in (0, " + out + "[i] - " + s +
             "[i])])");
  });
}

// The dims from `axis` to the end as a tuple literal (axis may be negative), or a run-time tuple.
std::string trailingDims(PyNode& p, const std::string& x, int64_t axis) {
  if (auto rank = p.rank(0)) {
    if (axis < 0) axis += *rank;
    std::vector<int64_t> dims;
    for (int64_t d = axis; d < *rank; ++d) dims.push_back(d);
    return pyIntTuple(dims);
  }
  return "tuple(range(" + std::to_string(axis) + " % " + x + ".dim(), " + x + ".dim()))";
}

void registerNormalization(convert::HandlerRegistry& r) {
  batchNormHelperName();  // registered with the handlers, as every helper is
  addPy(r, "BatchNormalization", 1, "batch norm with running statistics (training_mode: batch statistics)",
        [](PyNode& p) {
          if (p.opset < 9 && p.attrInt("spatial", 1) == 0) p.unsupported("spatial=0");
          const bool training = p.opset >= 14 && p.attrInt("training_mode", 0) != 0;
          if (!training)
            for (size_t i = 1; i < p.outputCount(); ++i)
              if (p.outUsed(i)) p.unsupported("the running/saved statistics outputs outside training_mode");
          std::string x = p.in(0);
          std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
          std::string scale = arg(p, 1), bias = arg(p, 2), mean = arg(p, 3, false), var = arg(p, 4, false);
          std::string s = channelShape(p, x);
          if (training) {
            // ONNX training_mode: normalise with the batch's mean and (biased) variance; the running statistics outputs
            // are input * momentum + batch * (1 - momentum).
            std::string dims = p.rank(0) ? "(0,) + " + spatialDims(p, x) : "(0,) + tuple(range(2, " + x + ".dim()))";
            if (auto rank = p.rank(0)) {
              std::vector<int64_t> d{0};
              for (int64_t i = 2; i < *rank; ++i) d.push_back(i);
              dims = pyIntTuple(d);
            }
            std::string bm = p.temp("batch_mean"), bv = p.temp("batch_var");
            p.line(bm + " = " + x + ".mean(dim=" + dims + ")");
            p.line(bv + " = " + x + ".var(dim=" + dims + ", unbiased=False)");
            p.assign("(" + x + " - " + bm + ".reshape(" + s + ")) / T.sqrt(" + bv + ".reshape(" + s + ") + " + eps +
                     ") * " + scale + ".reshape(" + s + ") + " + bias + ".reshape(" + s + ")");
            std::string momentum = pyFloat(p.attrFloat("momentum", 0.9f), ir::DataType::Float);
            if (p.outUsed(1)) p.assignOut(1, mean + " * " + momentum + " + " + bm + " * (1 - " + momentum + ")");
            if (p.outUsed(2)) p.assignOut(2, var + " * " + momentum + " + " + bv + " * (1 - " + momentum + ")");
            return;
          }
          // nn.BatchNorm's behaviour: the ONNX node (inference) in eval(); batch statistics and running-statistics
          // updates (buffers) in train(), with the export's momentum.
          const std::string momentum = torchMomentumLiteral(p.attrFloat("momentum", 0.9f));
          if (!p.oneflow())
            return p.assign("F.batch_norm(" + x + ", " + mean + ", " + var + ", " + scale + ", " + bias +
                            ", training=self.training, momentum=" + momentum + ", eps=" + eps + ")");
          // F.batch_norm is not in OneFlow 0.8: the same behaviour, written out in a helper.
          p.assign(p.helper(batchNormHelperName()) + "(" + x + ", " + mean + ", " + var + ", " + scale + ", " + bias +
                   ", self.training, " + momentum + ", " + eps + ")");
        });
  addPy(r, "InstanceNormalization", 1, "F.instance_norm (OneFlow: mean/variance over the spatial dims)", [](PyNode& p) {
    std::string x = p.in(0);
    std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
    std::string scale = arg(p, 1), bias = arg(p, 2);
    if (!p.oneflow())
      return p.assign("F.instance_norm(" + x + ", weight=" + scale + ", bias=" + bias + ", eps=" + eps + ")");
    std::string dims = spatialDims(p, x), s = channelShape(p, x);
    std::string mean = p.temp("mean");
    p.line(mean + " = " + x + ".mean(dim=" + dims + ", keepdim=True)");
    p.assign("(" + x + " - " + mean + ") / T.sqrt(" + x + ".var(dim=" + dims + ", unbiased=False, keepdim=True) + " +
             eps + ") * " + scale + ".reshape(" + s + ") + " + bias + ".reshape(" + s + ")");
  });
  addPy(r, "LayerNormalization", 17, "F.layer_norm over the dims from axis on (explicit when Mean/InvStdDev are used)",
        [](PyNode& p) {
          std::string x = p.in(0);
          int64_t axis = p.attrInt("axis", -1);
          std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
          const int64_t stash = p.attrInt("stash_type", 1);
          const ir::DataType t = p.dtype(0);
          if (stash != 1 && !(stash == 11 && t == ir::DataType::Double))
            p.unsupported("stash_type " + std::to_string(stash));
          std::string scale = arg(p, 1), bias = p.has(2) ? arg(p, 2) : "None";
          if (!p.outUsed(1) && !p.outUsed(2) && (t == ir::DataType::Float || t == ir::DataType::Double)) {
            std::string shape =
                axis == -1 ? "(" + x + ".shape[-1],)" : "tuple(" + x + ".shape[" + std::to_string(axis) + ":])";
            return p.assign("F.layer_norm(" + x + ", " + shape + ", " + scale + ", " + bias + ", eps=" + eps + ")");
          }
          // Mean and InvStdDev are outputs (or the statistics are stashed as float32): ONNX's formula written out.
          std::string dims = trailingDims(p, x, axis);
          std::string xs = x;
          if (t != ir::DataType::Float && t != ir::DataType::Double) xs = x + ".float()";
          std::string mean = p.outUsed(1) ? p.out(1) : p.temp("mean");
          std::string inv = p.outUsed(2) ? p.out(2) : p.temp("inv_std_dev");
          p.line(mean + " = " + xs + ".mean(dim=" + dims + ", keepdim=True)");
          p.line(inv + " = T.rsqrt(" + xs + ".var(dim=" + dims + ", unbiased=False, keepdim=True) + " + eps + ")");
          std::string y = "(" + xs + " - " + mean + ") * " + inv;
          if (xs != x) y = "(" + y + ").to(" + x + ".dtype)";
          y += " * " + scale;
          if (bias != "None") y += " + " + bias;
          p.assign(y);
        });
  auto groupNorm = [](bool perChannel) {
    return [perChannel](PyNode& p) {
      std::string x = p.in(0);
      const int64_t groups = p.attrInt("num_groups", 0);
      if (groups < 1) p.unsupported("num_groups " + std::to_string(groups));
      std::string eps = pyFloat(p.attrFloat("epsilon", 1e-5f), ir::DataType::Float);
      if (perChannel && p.attrInt("stash_type", 1) != 1) p.unsupported("stash_type other than float32");
      std::string scale = arg(p, 1), bias = arg(p, 2);
      std::string g = std::to_string(groups);
      if (!perChannel) {
        // GroupNormalization-18: one scale and bias per group; repeated over the group's channels.
        scale += ".repeat_interleave(" + x + ".shape[1] // " + g + ")";
        bias += ".repeat_interleave(" + x + ".shape[1] // " + g + ")";
      }
      if (!p.oneflow())
        return p.assign("F.group_norm(" + x + ", " + g + ", " + scale + ", " + bias + ", eps=" + eps + ")");
      std::string grouped = p.temp("grouped"), mean = p.temp("mean");
      std::string s = channelShape(p, x);
      p.line(grouped + " = " + x + ".reshape(" + x + ".shape[0], " + g + ", -1)");
      p.line(mean + " = " + grouped + ".mean(dim=-1, keepdim=True)");
      p.assign("((" + grouped + " - " + mean + ") / T.sqrt(" + grouped +
               ".var(dim=-1, unbiased=False, keepdim=True) + " + eps + ")).reshape(" + x + ".shape) * " + scale +
               ".reshape(" + s + ") + " + bias + ".reshape(" + s + ")");
    };
  };
  addPy(r, "GroupNormalization", 18, "F.group_norm, per-group scale repeated per channel", groupNorm(false));
  addPy(r, "GroupNormalization", 21, "F.group_norm", groupNorm(true));
  addPy(r, "LRN", 1, "F.local_response_norm for odd sizes (same window); else the window sum written out",
        [](PyNode& p) {
          std::string x = p.in(0);
          const int64_t size = p.attrInt("size", 0);
          if (size < 1) p.unsupported("size " + std::to_string(size));
          std::string alpha = pyFloat(p.attrFloat("alpha", 1e-4f), ir::DataType::Float);
          std::string beta = pyFloat(p.attrFloat("beta", 0.75f), ir::DataType::Float);
          std::string bias = pyFloat(p.attrFloat("bias", 1.f), ir::DataType::Float);
          // PyTorch's window is [c - size // 2, c + (size - 1) // 2], ONNX's [c - (size - 1) // 2, c + size // 2]:
          // equal for odd sizes.
          if (!p.oneflow() && size % 2 == 1)
            return p.assign("F.local_response_norm(" + x + ", " + std::to_string(size) + ", alpha=" + alpha +
                            ", beta=" + beta + ", k=" + bias + ")");
          p.assign(p.helper("_onnx_lrn") + "(" + x + ", " + std::to_string(size) + ", " + alpha + ", " + beta + ", " +
                   bias + ")");
        });
  addPy(r, "MeanVarianceNormalization", 9, "(x - mean) / (sqrt(E[x^2] - mean^2) + 1e-9), ONNX's function body",
        [](PyNode& p) {
          std::string x = p.in(0);
          std::vector<int64_t> axes = p.hasAttr("axes") ? p.attrInts("axes") : std::vector<int64_t>{0, 2, 3};
          std::string dims = axes.size() == 1 ? std::to_string(axes[0]) : pyIntTuple(axes);
          std::string mean = p.temp("mean");
          p.line(mean + " = " + x + ".mean(dim=" + dims + ", keepdim=True)");
          p.assign("(" + x + " - " + mean + ") / (T.sqrt((" + x + " * " + x + ").mean(dim=" + dims +
                   ", keepdim=True) - " + mean + " * " + mean + ") + 1e-9)");
        });
  addPy(r, "LpNormalization", 1, "x / ||x||_p along axis", [](PyNode& p) {
    std::string x = p.in(0);
    const int64_t axis = p.attrInt("axis", -1), pw = p.attrInt("p", 2);
    std::string a = std::to_string(axis);
    if (pw == 2) return p.assign(x + " / T.sqrt((" + x + " * " + x + ").sum(dim=" + a + ", keepdim=True))");
    if (pw == 1) return p.assign(x + " / " + x + ".abs().sum(dim=" + a + ", keepdim=True)");
    p.unsupported("p=" + std::to_string(pw));
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
  addPy(r, "SpaceToDepth", 1, "reshape + permute (the inverse of DepthToSpace DCR)", [](PyNode& p) {
    const int64_t b = p.attrInt("blocksize", 0);
    if (b < 1 || b > 4096) p.unsupported("blocksize " + std::to_string(b));
    std::string x = p.in(0);
    std::string bs = std::to_string(b);
    std::string n = p.temp("n"), c = p.temp("c"), h = p.temp("h"), w = p.temp("w");
    p.line(n + ", " + c + ", " + h + ", " + w + " = " + x + ".shape");
    p.assign(x + ".reshape(" + n + ", " + c + ", " + h + " // " + bs + ", " + bs + ", " + w + " // " + bs + ", " + bs +
             ").permute(0, 3, 5, 1, 2, 4).reshape(" + n + ", " + c + " * " + std::to_string(b * b) + ", " + h + " // " +
             bs + ", " + w + " // " + bs + ")");
  });
  addPy(r, "DepthToSpace", 1, "reshape + permute (DCR or CRD)", [](PyNode& p) {
    const int64_t b = p.attrInt("blocksize", 0);
    if (b < 1 || b > 4096) p.unsupported("blocksize " + std::to_string(b));
    std::string x = p.in(0);
    std::string bs = std::to_string(b);
    std::string n = p.temp("n"), c = p.temp("c"), h = p.temp("h"), w = p.temp("w");
    p.line(n + ", " + c + ", " + h + ", " + w + " = " + x + ".shape");
    const bool crd = p.opset >= 11 && p.attrString("mode", "DCR") == "CRD";
    std::string split =
        crd ? n + ", " + c + " // " + std::to_string(b * b) + ", " + bs + ", " + bs + ", " + h + ", " + w
            : n + ", " + bs + ", " + bs + ", " + c + " // " + std::to_string(b * b) + ", " + h + ", " + w;
    std::string perm = crd ? "0, 1, 4, 2, 5, 3" : "0, 3, 4, 1, 5, 2";
    p.assign(x + ".reshape(" + split + ").permute(" + perm + ").reshape(" + n + ", " + c + " // " +
             std::to_string(b * b) + ", " + h + " * " + bs + ", " + w + " * " + bs + ")");
  });
}

void registerDetection(convert::HandlerRegistry& r) {
  addPy(r, "NonMaxSuppression", 10, "greedy per batch and class (_onnx_nms)", [](PyNode& p) {
    auto scalar = [&](size_t i, const char* kw, bool integer) -> std::string {
      if (!p.has(i)) return "";
      std::string v = p.scalarLiteral(i).value_or(p.in(i) + ".item()");
      return std::string(", ") + kw + "=" + v;
      (void)integer;
    };
    std::string call = p.helper("_onnx_nms") + "(" + p.in(0) + ", " + p.in(1) + scalar(2, "max_per_class", true) +
                       scalar(3, "iou_threshold", false) + scalar(4, "score_threshold", false);
    if (p.attrInt("center_point_box", 0) != 0) call += ", center_point_box=1";
    p.assign(call + ")");
  });
  auto roiAlign = [](bool v16) {
    return [v16](PyNode& p) {
      const std::string mode = p.attrString("mode", "avg");
      if (mode != "avg") p.unsupported("mode '" + mode + "' (runtimes differ on how max mode weighs the samples)");
      const std::string ctm = v16 ? p.attrString("coordinate_transformation_mode", "half_pixel") : "output_half_pixel";
      if (ctm != "half_pixel" && ctm != "output_half_pixel")
        p.unsupported("coordinate_transformation_mode '" + ctm + "'");
      std::string call = p.helper("_onnx_roi_align") + "(" + p.in(0) + ", " + p.in(1) + ", " + p.in(2);
      call += ", out_h=" + std::to_string(p.attrInt("output_height", 1)) +
              ", out_w=" + std::to_string(p.attrInt("output_width", 1));
      if (int64_t sr = p.attrInt("sampling_ratio", 0); sr != 0) call += ", sampling_ratio=" + std::to_string(sr);
      if (float ss = p.attrFloat("spatial_scale", 1.f); ss != 1.f)
        call += ", spatial_scale=" + pyFloat(ss, ir::DataType::Float);
      if (ctm == "output_half_pixel") call += ", half_pixel=False";
      p.assign(call + ")");
    };
  };
  addPy(r, "RoiAlign", 10, "bilinear sample grids per bin (_onnx_roi_align)", roiAlign(false));
  addPy(r, "RoiAlign", 16, "bilinear sample grids per bin (_onnx_roi_align)", roiAlign(true));
  auto gridSample = [](bool v20) {
    return [v20](PyNode& p) {
      std::string mode = p.attrString("mode", v20 ? "linear" : "bilinear");
      if (mode == "linear") mode = "bilinear";
      if (mode == "cubic") mode = "bicubic";
      if (mode != "bilinear" && mode != "nearest" && mode != "bicubic") p.unsupported("mode '" + mode + "'");
      const std::string padding = p.attrString("padding_mode", "zeros");
      if (padding != "zeros" && padding != "border" && padding != "reflection")
        p.unsupported("padding_mode '" + padding + "'");
      auto rank = p.rank(0);
      if (!rank || (*rank != 4 && !(*rank == 5 && mode != "bicubic"))) p.unsupported("grid sampling of this rank");
      std::string call = "F.grid_sample(" + p.in(0) + ", " + p.in(1) + ", mode=" + pyStringLiteral(mode) +
                         ", padding_mode=" + pyStringLiteral(padding);
      call += ", align_corners=" + pyBool(p.attrInt("align_corners", 0) != 0);
      p.assign(call + ")");
    };
  };
  addPy(r, "GridSample", 16, "F.grid_sample", gridSample(false));
  addPy(r, "GridSample", 20, "F.grid_sample", gridSample(true));
  addPy(r, "Einsum", 12, "T.einsum", [](PyNode& p) {
    std::string call = "T.einsum(" + pyStringLiteral(p.attrString("equation", ""));
    for (size_t i = 0; i < p.inputCount(); ++i) call += ", " + p.in(i);
    p.assign(call + ")");
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
  HelperLibrary::instance().add(Helper{
      "_onnx_conv_transpose",
      R"PY(def _onnx_conv_transpose(x, w, b, strides, dilations, group, output_padding, pads=None, output_shape=None, auto_pad='NOTSET'):
    # ONNX ConvTranspose: the full transposed convolution, then ONNX's pads cut from each end of each spatial axis
    # (a negative pad adds zeros); output_shape / SAME_* give the pads from the input size. The bias comes last so
    # that added positions get it too.
    n = w.dim() - 2
    conv = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][n - 1]
    y = conv(x, w, None, stride=strides, dilation=dilations, groups=group)
    full = [int(s) + op for s, op in zip(y.shape[2:], output_padding)]
    if output_shape is not None or auto_pad in ('SAME_UPPER', 'SAME_LOWER'):
        if output_shape is None:
            output_shape = [int(s) * st for s, st in zip(x.shape[2:], strides)]
        total = [f - o for f, o in zip(full, output_shape)]
        if auto_pad == 'SAME_UPPER':
            pads = [t // 2 for t in total] + [t - t // 2 for t in total]
        else:
            pads = [t - t // 2 for t in total] + [t // 2 for t in total]
    extend = []
    for i in reversed(range(n)):
        extend += [max(-pads[i], 0), max(-pads[n + i], 0) + output_padding[i]]
    if any(extend):
        y = F.pad(y, extend)
    for i in range(n):
        begin, end = max(pads[i], 0), max(pads[n + i], 0)
        if begin or end:
            y = y.narrow(2 + i, begin, y.shape[2 + i] - begin - end)
    if b is not None:
        y = y + b.reshape([1, -1] + [1] * n)
    return y
)PY",
      {}});
  HelperLibrary::instance().add(Helper{"_onnx_lrn",
                                       R"PY(def _onnx_lrn(x, size, alpha, beta, bias):
    # ONNX LRN: x / (bias + alpha / size * sum of squares over channels [c - (size - 1) // 2, c + size // 2]) ** beta.
    squares = F.pad((x * x).transpose(1, -1), [(size - 1) // 2, size // 2])
    channels = x.shape[1]
    total = squares.narrow(-1, 0, channels)
    for k in range(1, size):
        total = total + squares.narrow(-1, k, channels)
    return x / (bias + alpha / size * total.transpose(1, -1)).pow(beta)
)PY",
                                       {}});
  HelperLibrary::instance().add(Helper{
      "_onnx_roi_align",
      R"PY(def _onnx_roi_align(x, rois, batch_indices, out_h=1, out_w=1, sampling_ratio=0, spatial_scale=1.0, mode='avg', half_pixel=True):
    # ONNX RoiAlign (ONNX Runtime's algorithm): each output bin averages (or takes the max of) a grid of bilinear
    # samples; the grid is sampling_ratio per side or, when 0, ceil(roi size / output size); samples more than one
    # pixel outside the image count as 0.
    height, width = x.shape[2], x.shape[3]
    offset = 0.5 if half_pixel else 0.0

    def taps(coords, size):  # bilinear taps along one axis
        valid = (coords >= -1.0) & (coords <= size)
        coords = coords.clamp(min=0)
        low = coords.floor()
        at_end = low >= size - 1
        low = T.where(at_end, low * 0 + (size - 1), low)
        coords = T.where(at_end, low, coords)
        high = T.where(at_end, low, low + 1)
        frac = coords - low
        return low.long(), high.long(), 1 - frac, frac, valid

    outs = []
    for (x1, y1, x2, y2), b in zip(rois.double().tolist(), batch_indices.tolist()):
        x1, y1 = x1 * spatial_scale - offset, y1 * spatial_scale - offset
        x2, y2 = x2 * spatial_scale - offset, y2 * spatial_scale - offset
        roi_w, roi_h = x2 - x1, y2 - y1
        if not half_pixel:
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / out_h, roi_w / out_w
        grid_h = sampling_ratio if sampling_ratio > 0 else int(-(-roi_h // out_h))
        grid_w = sampling_ratio if sampling_ratio > 0 else int(-(-roi_w // out_w))
        ys = y1 + T.arange(out_h, dtype=T.float64).reshape(-1, 1) * bin_h + (T.arange(grid_h, dtype=T.float64).reshape(1, -1) + 0.5) * bin_h / grid_h
        xs = x1 + T.arange(out_w, dtype=T.float64).reshape(-1, 1) * bin_w + (T.arange(grid_w, dtype=T.float64).reshape(1, -1) + 0.5) * bin_w / grid_w
        y_low, y_high, y_lw, y_hw, y_ok = taps(ys.flatten(), height)
        x_low, x_high, x_lw, x_hw, x_ok = taps(xs.flatten(), width)
        image = x[int(b)].double()
        rows_low, rows_high = image.index_select(1, y_low.to(x.device)), image.index_select(1, y_high.to(x.device))
        corners = [
            (rows_low.index_select(2, x_low.to(x.device)), y_lw.reshape(-1, 1) * x_lw.reshape(1, -1)),
            (rows_low.index_select(2, x_high.to(x.device)), y_lw.reshape(-1, 1) * x_hw.reshape(1, -1)),
            (rows_high.index_select(2, x_low.to(x.device)), y_hw.reshape(-1, 1) * x_lw.reshape(1, -1)),
            (rows_high.index_select(2, x_high.to(x.device)), y_hw.reshape(-1, 1) * x_hw.reshape(1, -1)),
        ]
        ok = (y_ok.reshape(-1, 1) & x_ok.reshape(1, -1)).to(x.device)
        if mode == 'avg':
            samples = sum(v * w.to(x.device) for v, w in corners)
        else:
            samples = T.stack([v * w.to(x.device) for v, w in corners]).amax(0)
        samples = T.where(ok, samples, samples * 0).reshape(-1, out_h, grid_h, out_w, grid_w)
        if mode == 'avg':
            outs.append(samples.sum(dim=(2, 4)) / max(grid_h * grid_w, 1))
        else:
            outs.append(samples.amax(dim=(2, 4)))
    if not outs:
        return x.new_zeros(0, x.shape[1], out_h, out_w)
    return T.stack(outs).to(x.dtype)
)PY",
      {}});
  HelperLibrary::instance().add(Helper{
      "_onnx_nms",
      R"PY(def _onnx_nms(boxes, scores, max_per_class=0, iou_threshold=0.0, score_threshold=None, center_point_box=0):
    # ONNX NonMaxSuppression, greedy per batch and class: highest score first (ties: lower index), a box is dropped
    # when its IoU with a kept box is above iou_threshold. Rows of the result: [batch, class, box].
    selected = []
    for b in range(boxes.shape[0]):
        corners = []
        for c0, c1, c2, c3 in boxes[b].tolist():
            if center_point_box:  # [x_center, y_center, width, height]
                corners.append((c0 - c2 / 2, c1 - c3 / 2, c0 + c2 / 2, c1 + c3 / 2))
            else:  # [y1, x1, y2, x2], either diagonal
                corners.append((min(c0, c2), min(c1, c3), max(c0, c2), max(c1, c3)))
        areas = [(c[2] - c[0]) * (c[3] - c[1]) for c in corners]
        for c in range(scores.shape[1]):
            s = scores[b, c].tolist()
            order = sorted((i for i in range(len(s)) if score_threshold is None or s[i] > score_threshold), key=lambda i: -s[i])
            kept = []
            for i in order:
                if len(kept) >= max_per_class:
                    break
                suppressed = False
                for j in kept:
                    h = min(corners[i][2], corners[j][2]) - max(corners[i][0], corners[j][0])
                    v = min(corners[i][3], corners[j][3]) - max(corners[i][1], corners[j][1])
                    if h <= 0 or v <= 0:
                        continue
                    inter = h * v
                    union = areas[i] + areas[j] - inter
                    if union > 0 and inter / union > iou_threshold:
                        suppressed = True
                        break
                if not suppressed:
                    kept.append(i)
            selected += [[b, c, i] for i in kept]
    return T.tensor(selected, dtype=T.int64, device=boxes.device).reshape(-1, 3)
)PY",
      {}});
  registerConv(r);
  registerPooling(r);
  registerNormalization(r);
  registerDense(r);
  registerRearrange(r);
  registerDetection(r);
}

}  // namespace fb::codegen
