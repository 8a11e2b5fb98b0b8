// Conv and ConvTranspose (float through oneDNN's direct convolution; double and more than three spatial dims through
// the reference loops, oneDNN having no f64 convolution), ConvInteger and QLinearConv (reference loops accumulating
// in int32: oneDNN's int8 convolution wants per-tensor zero points it applies to the source only, not ONNX's
// per-channel weight zero points).
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "eval/kernels/neural_conv_reference.h"
#include "eval/kernels/neural_families.h"
#include "eval/kernels/neural_onednn.h"
#include "eval/kernels/neural_quant.h"
#include "eval/runtime/derived_copy_cache.h"
#include "eval/runtime/dispatch.h"
#include "eval/runtime/exec_context.h"
#include "eval/runtime/kernel_registry.h"

namespace fb::eval {

namespace {

using dnnl::memory;

// Kernel spatial dims: the kernel_shape attribute when given (it must agree with W), else W's.
std::vector<int64_t> kernelDims(const ir::Node& n, const Tensor& w, size_t r) {
  std::vector<int64_t> k(w.dims().begin() + 2, w.dims().end());
  if (n.hasAttr("kernel_shape")) {
    std::vector<int64_t> given = n.attrInts("kernel_shape");
    if (given != k) badInput("kernel_shape does not match the weights " + describe(w));
  }
  if (k.size() != r) badInput("weights " + describe(w) + " do not have " + std::to_string(r) + " spatial dims");
  return k;
}

int64_t groupsOf(const ir::Node& n) {
  const int64_t g = n.attrInt("group", 1);
  if (g <= 0) badInput("group " + std::to_string(g) + " is not positive");
  return g;
}

ConvShape convShape(const KernelContext& c, const Tensor& x, const Tensor& w, const char* op) {
  const size_t r = spatialRankOf(x.dims(), op);
  if (w.rank() != x.rank()) badInput("weights " + describe(w) + " do not fit the input " + describe(x));
  ConvShape s;
  s.batch = x.dim(0);
  s.inChannels = x.dim(1);
  s.outChannels = w.dim(0);
  s.groups = groupsOf(c.node);
  if (s.inChannels != w.dim(1) * s.groups || s.outChannels % s.groups != 0)
    badInput("input " + describe(x) + " and weights " + describe(w) + " do not agree for group " +
             std::to_string(s.groups));
  s.window = slidingWindow(c.node, {x.dims().begin() + 2, x.dims().end()}, kernelDims(c.node, w, r));
  return s;
}

std::vector<int64_t> outputDims(const ConvShape& s) {
  std::vector<int64_t> d{s.batch, s.outChannels};
  d.insert(d.end(), s.window.out.begin(), s.window.out.end());
  return d;
}

memory::dims asDims(const std::vector<int64_t>& v) { return memory::dims(v.begin(), v.end()); }

// oneDNN's weights dims for a grouped op: [G, out/G, in/G, kernel...] (groups split from the outer dim).
std::vector<int64_t> groupedDims(int64_t groups, int64_t outPerGroup, int64_t inPerGroup, const Window& w) {
  std::vector<int64_t> d;
  if (groups > 1) d.push_back(groups);
  d.push_back(outPerGroup);
  d.push_back(inPerGroup);
  d.insert(d.end(), w.kernel.begin(), w.kernel.end());
  return d;
}

// oneDNN counts dilation from 0 (no gap), ONNX from 1.
memory::dims oneDnnDilations(const Window& w) {
  memory::dims d;
  for (int64_t v : w.dilations) d.push_back(v - 1);
  return d;
}

// Runs a convolution-like primitive on plain tensors: the layouts it chose for source, weights and destination
// (blocked ones run several times faster than im2col on plain ones) are reordered into and out of scratch.
template <typename PrimitiveDesc, typename Primitive>
void runReordered(const char* name, const PrimitiveDesc& pd, const memory::desc& userWeights, const Tensor& w,
                  const Tensor& x, const Tensor* bias, Tensor& y) {
  std::vector<Tensor> keep;
  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = onednn::inLayout(onednn::wrap(onednn::plainDesc(x.dims()), x.data<float>()), pd.src_desc(),
                                        onednn::ScratchRole::Source, keep);
  args[DNNL_ARG_WEIGHTS] = onednn::inLayout(onednn::wrap(userWeights, w.data<float>()), pd.weights_desc(),
                                            onednn::ScratchRole::Weights, keep);
  if (bias) args[DNNL_ARG_BIAS] = onednn::wrap(pd.bias_desc(), bias->data<float>());
  const memory userDst = onednn::wrap(onednn::plainDesc(y.dims()), y.mutableData<float>());
  const memory dst = pd.dst_desc() == userDst.get_desc()
                         ? userDst
                         : onednn::scratch(pd.dst_desc(), onednn::ScratchRole::Destination, keep);
  args[DNNL_ARG_DST] = dst;
  onednn::execute(name, Primitive(pd), args);
  if (dst != userDst) onednn::reorder(dst, userDst);
}

// A 1x1 convolution with stride 1 and no pads over a large plane is one GEMM on plain NCHW tensors: at full speed
// there, so reordering its large activations into a blocked layout and back costs more than the layout gains.
// Every other convolution runs in the layout oneDNN picks (direct convolution on blocked data: two to three times
// faster than im2col on plain data, reorders included).
bool plainIsFaster(const ConvShape& s) {
  const Window& w = s.window;
  for (size_t a = 0; a < w.rank(); ++a)
    if (w.kernel[a] != 1 || w.strides[a] != 1 || w.padBegin[a] != 0 || w.padEnd[a] != 0) return false;
  return w.inCount() >= 28 * 28;
}

memory::desc chosenLayout(const memory::desc& plain, bool keepPlain) {
  if (keepPlain) return plain;
  return memory::desc(plain.dims(), memory::data_type::f32, memory::format_tag::any);
}

// A float convolution's primitives, made once per problem (shapes, window, groups, bias) on each thread and reused:
// making the primitive descriptor walks oneDNN's implementation list, about 5 % of a resnet50 run when done per call.
struct ConvPlan {
  dnnl::convolution_forward conv;
  memory::desc userSrc, userWeights, userDst, src, weights, dst, bias;
  std::optional<dnnl::reorder> srcIn, weightsIn, dstOut;  // where the primitive's layout is not the plain one
};

std::string planKey(const ConvShape& s, const Tensor& x, bool hasBias, bool relu) {
  std::string key;
  auto add = [&](const std::vector<int64_t>& v) {
    for (int64_t d : v) key += std::to_string(d) + ",";
    key += ";";
  };
  add(x.dims());
  add({s.outChannels, s.groups, hasBias ? 1 : 0, relu ? 1 : 0});
  const Window& w = s.window;
  for (const auto* v : {&w.kernel, &w.strides, &w.dilations, &w.padBegin, &w.padEnd}) add(*v);
  return key;
}

// `relu`: the primitive applies max(0, x) to its result (a post-op, ExecContext::reluMayBeFused()).
const ConvPlan& convPlan(const ConvShape& s, const Tensor& x, const Tensor& y, bool hasBias, bool relu) {
  thread_local std::unordered_map<std::string, std::unique_ptr<ConvPlan>> plans;
  const std::string key = planKey(s, x, hasBias, relu);
  if (auto it = plans.find(key); it != plans.end()) return *it->second;
  if (plans.size() >= 1024) plans.clear();  // a bound for models with very many distinct convolutions
  const Window& win = s.window;
  auto p = std::make_unique<ConvPlan>();
  p->userSrc = onednn::plainDesc(x.dims());
  p->userDst = onednn::plainDesc(y.dims());
  p->userWeights = onednn::plainDesc(groupedDims(s.groups, s.outChannels / s.groups, s.inChannels / s.groups, win));
  p->bias = hasBias ? onednn::plainDesc({s.outChannels}) : memory::desc();
  const bool plain = plainIsFaster(s);
  using dnnl::convolution_forward;
  convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                              chosenLayout(p->userSrc, plain), chosenLayout(p->userWeights, plain), p->bias,
                              chosenLayout(p->userDst, plain), asDims(win.strides), oneDnnDilations(win),
                              asDims(win.padBegin), asDims(win.padEnd));
  dnnl::primitive_attr attr = onednn::strictAttr();
  if (relu) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  convolution_forward::primitive_desc pd(d, attr, onednn::cpuEngine());
  p->conv = convolution_forward(pd);
  p->src = pd.src_desc();
  p->weights = pd.weights_desc();
  p->dst = pd.dst_desc();
  dnnl::engine& e = onednn::cpuEngine();
  if (p->src != p->userSrc) p->srcIn = dnnl::reorder(dnnl::reorder::primitive_desc(e, p->userSrc, e, p->src));
  if (p->weights != p->userWeights)
    p->weightsIn = dnnl::reorder(dnnl::reorder::primitive_desc(e, p->userWeights, e, p->weights));
  if (p->dst != p->userDst) p->dstOut = dnnl::reorder(dnnl::reorder::primitive_desc(e, p->dst, e, p->userDst));
  return *plans.emplace(key, std::move(p)).first->second;
}

// What identifies a blocked layout: dims, strides and inner blocks (two primitives that chose the same layout for
// the same weights share one reordered copy).
std::string layoutKey(const memory::desc& d) {
  const dnnl_memory_desc_t& c = d.data;
  std::string key;
  for (int k = 0; k < c.ndims; ++k)
    key += std::to_string(c.dims[k]) + "/" + std::to_string(c.format_desc.blocking.strides[k]) + ",";
  key += "|";
  for (int k = 0; k < c.format_desc.blocking.inner_nblks; ++k)
    key += std::to_string(c.format_desc.blocking.inner_blks[k]) + "@" +
           std::to_string(c.format_desc.blocking.inner_idxs[k]) + ",";
  return key + "|" + std::to_string(static_cast<int>(c.format_kind));
}

void convolveFloat(const ConvShape& s, const Tensor& x, const Tensor& w, const Tensor* bias, Tensor& y, bool relu) {
  onednn::guarded("convolution", [&] {
    const ConvPlan& p = convPlan(s, x, y, bias != nullptr, relu);
    std::vector<Tensor> keep;
    dnnl::stream stream(onednn::cpuEngine());
    memory userSrc = onednn::wrap(p.userSrc, x.data<float>()), src = userSrc;
    if (p.srcIn) {
      src = onednn::scratch(p.src, onednn::ScratchRole::Source, keep);
      p.srcIn->execute(stream, userSrc, src);
    }
    memory userWeights = onednn::wrap(p.userWeights, w.data<float>()), weights = userWeights;
    std::shared_ptr<const void> kept;
    if (p.weightsIn && w.isModelConstant()) {
      // A model's weights in the primitive's layout, reordered once per loaded model instead of once per run.
      kept = derivedCopy(w.holder(), w.data<float>(), "conv weights " + layoutKey(p.weights), p.weights.get_size(),
                         [&](void* to) {
                           memory m(p.weights, onednn::cpuEngine(), to);
                           p.weightsIn->execute(stream, userWeights, m);
                           stream.wait();
                         });
      weights = memory(p.weights, onednn::cpuEngine(), const_cast<void*>(kept.get()));
    } else if (p.weightsIn) {
      weights = onednn::scratch(p.weights, onednn::ScratchRole::Weights, keep);
      p.weightsIn->execute(stream, userWeights, weights);
    }
    memory userDst = onednn::wrap(p.userDst, y.mutableData<float>());
    memory dst = p.dstOut ? onednn::scratch(p.dst, onednn::ScratchRole::Destination, keep) : userDst;
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (bias) args[DNNL_ARG_BIAS] = onednn::wrap(p.bias, bias->data<float>());
    p.conv.execute(stream, args);
    if (p.dstOut) p.dstOut->execute(stream, dst, userDst);
    stream.wait();
  });
}

template <typename T>
void convolveLoop(const ConvShape& s, const Tensor& x, const Tensor& w, const Tensor* bias, Tensor& y) {
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  const T* pb = bias ? bias->data<T>() : nullptr;
  T* py = y.mutableData<T>();
  const int64_t outSpatial = s.window.outCount();
  convolveReference<T>(
      s, [&](int64_t k) { return px[k]; }, [&](int64_t k) { return pw[k]; },
      [&](int64_t k, T acc) { py[k] = pb ? acc + pb[(k / outSpatial) % s.outChannels] : acc; });
}

const Tensor* biasOf(const KernelContext& c, size_t k, int64_t channels) {
  const Tensor* b = c.optionalInput(k);
  if (b && (b->rank() != 1 || b->dim(0) != channels))
    badInput("bias " + describe(*b) + " does not hold one value per output channel (" + std::to_string(channels) + ")");
  return b;
}

std::vector<Value> conv(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(1);
  if (x.dtype() != w.dtype()) badInput("Conv of " + describe(x) + " with weights " + describe(w));
  const ConvShape s = convShape(c, x, w, "Conv");
  const Tensor* bias = biasOf(c, 2, s.outChannels);
  if (bias && bias->dtype() != x.dtype()) badInput("bias " + describe(*bias) + " is not of the input's type");
  Tensor y = Tensor::empty(x.dtype(), outputDims(s));
  if (y.size() == 0) return {y};
  if (x.dtype() == ir::DataType::Float && s.window.rank() <= 3) {
    const bool relu = c.exec.reluMayBeFused();
    convolveFloat(s, x, w, bias, y, relu);
    if (relu) c.exec.markReluFused();
  } else {
    visitFloating(x.dtype(), [&]<typename T>() { convolveLoop<T>(s, x, w, bias, y); });
  }
  return {y};
}

// ConvTranspose's geometry: output dims from output_shape (pads then derived) or from pads and output_padding.
ConvShape convTransposeShape(const KernelContext& c, const Tensor& x, const Tensor& w, std::vector<int64_t>& outPad) {
  const ir::Node& n = c.node;
  const size_t r = spatialRankOf(x.dims(), "ConvTranspose");
  if (w.rank() != x.rank()) badInput("weights " + describe(w) + " do not fit the input " + describe(x));
  ConvShape s;
  s.batch = x.dim(0);
  s.inChannels = x.dim(1);
  s.groups = groupsOf(n);
  if (w.dim(0) != s.inChannels)
    badInput("weights " + describe(w) + " do not have the input's " + std::to_string(s.inChannels) + " channels");
  if (s.inChannels % s.groups != 0) badInput("input channels do not divide into group " + std::to_string(s.groups));
  s.outChannels = w.dim(1) * s.groups;
  // The forward window of the same kernel, strides and dilations, over the input: its pads are not used when
  // auto_pad or output_shape decide them.
  Window& win = s.window;
  win.in.assign(x.dims().begin() + 2, x.dims().end());
  win.kernel = kernelDims(n, w, r);
  win.strides = perAxis(n, "strides", r, 1);
  win.dilations = perAxis(n, "dilations", r, 1);
  outPad = perAxis(n, "output_padding", r, 0);
  for (size_t k = 0; k < r; ++k) {
    if (win.kernel[k] <= 0 || win.strides[k] <= 0 || win.dilations[k] <= 0)
      badInput("kernel, strides and dilations must be positive");
    if (win.kernel[k] > (int64_t{1} << 32) || win.strides[k] > (int64_t{1} << 32) ||
        win.dilations[k] > (int64_t{1} << 32))
      badInput("kernel, stride or dilation beyond 2^32");
    if (outPad[k] < 0 || outPad[k] >= std::max(win.strides[k], win.dilations[k]))
      badInput("output_padding " + std::to_string(outPad[k]) + " is not below the stride or dilation");
  }
  win.padBegin.assign(r, 0);
  win.padEnd.assign(r, 0);
  win.out.assign(r, 0);
  const std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    badInput("auto_pad '" + autoPad + "' is not an ONNX value");
  std::vector<int64_t> outShape;
  if (n.hasAttr("output_shape")) {
    outShape = n.attrInts("output_shape");
    if (outShape.size() == r + 2) outShape.erase(outShape.begin(), outShape.begin() + 2);
    if (outShape.size() != r) badInput("output_shape does not have one value per spatial dim");
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t k = 0; k < r; ++k) outShape.push_back(win.in[k] * win.strides[k]);
  }
  for (size_t k = 0; k < r; ++k) {
    const int64_t full = win.strides[k] * (win.in[k] - 1) + outPad[k] + win.extent(k);
    if (!outShape.empty()) {
      // A negative total (an output_shape past what the input covers) pads the end negatively: the extra
      // positions get only the bias. Halves round down, as ONNX's reference computes them.
      const int64_t total = full - outShape[k];
      if (outShape[k] <= 0 || outShape[k] > 2 * full + 1)
        badInput("output_shape " + std::to_string(outShape[k]) + " does not fit the input (at most " +
                 std::to_string(full) + " positions)");
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      win.padBegin[k] = autoPad == "SAME_UPPER" ? half : total - half;
      win.padEnd[k] = total - win.padBegin[k];
      win.out[k] = outShape[k];
    } else {
      if (autoPad == "NOTSET" && n.hasAttr("pads")) {
        std::vector<int64_t> pads = n.attrInts("pads");
        if (pads.size() != 2 * r) badInput("pads does not have two values per spatial dim");
        win.padBegin[k] = pads[k];
        win.padEnd[k] = pads[k + r];
        if (pads[k] < 0 || pads[k + r] < 0 || pads[k] > (int64_t{1} << 32) || pads[k + r] > (int64_t{1} << 32))
          badInput("pads are negative or beyond 2^32");
      }
      win.out[k] = full - win.padBegin[k] - win.padEnd[k];
      if (win.out[k] <= 0) badInput("the pads leave no output on spatial axis " + std::to_string(k));
    }
  }
  return s;
}

void convolveTransposedFloat(const ConvShape& s, const std::vector<int64_t>& outPad, const Tensor& x, const Tensor& w,
                             const Tensor* bias, Tensor& y) {
  const Window& win = s.window;
  const int64_t cg = s.inChannels / s.groups, mg = s.outChannels / s.groups, k = win.kernelCount();
  // ONNX's W is [C, M/G, kernel...]; oneDNN's deconvolution weights are [G, M/G, C/G, kernel...]: the same bytes
  // with the channel strides exchanged.
  std::vector<int64_t> dims = groupedDims(s.groups, mg, cg, win);
  std::vector<int64_t> strides;
  if (s.groups > 1) strides.push_back(cg * mg * k);
  strides.push_back(k);
  strides.push_back(mg * k);
  for (size_t a = 0; a < win.rank(); ++a) {
    int64_t inner = 1;
    for (size_t b = a + 1; b < win.rank(); ++b) inner *= win.kernel[b];
    strides.push_back(inner);
  }
  const memory::desc userWeights = onednn::stridedDesc(dims, strides);
  // Output padding extends the end: the output is what padding the end by (pads_end - output_padding) gives.
  memory::dims padEnd;
  for (size_t a = 0; a < win.rank(); ++a) padEnd.push_back(win.padEnd[a] - outPad[a]);
  onednn::guarded("deconvolution", [&] {
    using dnnl::deconvolution_forward;
    deconvolution_forward::desc d(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct, onednn::plainDesc(x.dims()),
        memory::desc(asDims(dims), memory::data_type::f32, memory::format_tag::any),
        bias ? onednn::plainDesc({s.outChannels}) : memory::desc(), onednn::plainDesc(y.dims()), asDims(win.strides),
        oneDnnDilations(win), asDims(win.padBegin), padEnd);
    deconvolution_forward::primitive_desc pd(d, onednn::strictAttr(), onednn::cpuEngine());
    runReordered<deconvolution_forward::primitive_desc, deconvolution_forward>("deconvolution", pd, userWeights, w, x,
                                                                               bias, y);
  });
}

template <typename T>
void convolveTransposedLoop(const ConvShape& s, const Tensor& x, const Tensor& w, const Tensor* bias, Tensor& y) {
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  T* py = y.mutableData<T>();
  const int64_t outSpatial = s.window.outCount();
  for (int64_t k = 0; k < y.size(); ++k) py[k] = bias ? bias->data<T>()[(k / outSpatial) % s.outChannels] : T{0};
  convolveTransposedReference<T>(
      s, [&](int64_t k) { return px[k]; }, [&](int64_t k) { return pw[k]; }, [&](int64_t k, T v) { py[k] += v; });
}

std::vector<Value> convTranspose(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(1);
  if (x.dtype() != w.dtype()) badInput("ConvTranspose of " + describe(x) + " with weights " + describe(w));
  std::vector<int64_t> outPad;
  const ConvShape s = convTransposeShape(c, x, w, outPad);
  const Tensor* bias = biasOf(c, 2, s.outChannels);
  if (bias && bias->dtype() != x.dtype()) badInput("bias " + describe(*bias) + " is not of the input's type");
  Tensor y = Tensor::empty(x.dtype(), outputDims(s));
  if (y.size() == 0) return {y};
  bool padsFit = true;  // oneDNN takes no negative end padding
  for (size_t a = 0; a < s.window.rank(); ++a) padsFit = padsFit && s.window.padEnd[a] >= outPad[a];
  for (size_t a = 0; a < s.window.rank(); ++a) padsFit = padsFit && s.window.padBegin[a] >= 0;
  if (x.dtype() == ir::DataType::Float && s.window.rank() <= 3 && padsFit) {
    convolveTransposedFloat(s, outPad, x, w, bias, y);
  } else {
    visitFloating(x.dtype(), [&]<typename T>() { convolveTransposedLoop<T>(s, x, w, bias, y); });
  }
  return {y};
}

// An int8/uint8 tensor's element k as int32.
int32_t intAt(const Tensor& t, int64_t k) {
  return t.dtype() == ir::DataType::Int8 ? t.data<int8_t>()[k] : t.data<uint8_t>()[k];
}

void checkInt8(const Tensor& t, const char* what) {
  if (!isInt8Like(t.dtype())) unsupported(std::string(what) + " " + describe(t) + ": only int8 and uint8 are handled");
}

// sum((x - xZero) * (w - wZero[m])) in int32 at every output position; padding adds nothing.
std::vector<int32_t> integerConvolution(const ConvShape& s, const Tensor& x, const Tensor& w, int32_t xZero,
                                        const std::vector<double>& wZero, int64_t outCount) {
  std::vector<int32_t> acc(static_cast<size_t>(outCount));
  const int64_t kPerM = w.size() / std::max<int64_t>(1, s.outChannels);
  convolveReference<int32_t>(
      s, [&](int64_t k) { return intAt(x, k) - xZero; },
      [&](int64_t k) { return intAt(w, k) - static_cast<int32_t>(wZero[static_cast<size_t>(k / kPerM)]); },
      [&](int64_t k, int32_t v) { acc[static_cast<size_t>(k)] = v; });
  return acc;
}

std::vector<Value> convInteger(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(1);
  checkInt8(x, "ConvInteger input");
  checkInt8(w, "ConvInteger weights");
  const ConvShape s = convShape(c, x, w, "ConvInteger");
  const Tensor* xz = c.optionalInput(2);
  if (xz && xz->size() != 1) badInput("x_zero_point " + describe(*xz) + " is not a scalar");
  const int32_t xZero = xz ? static_cast<int32_t>(xz->int64At(0)) : 0;
  const std::vector<double> wZero = perSlice(c.optionalInput(3), s.outChannels, "w_zero_point");
  Tensor y = Tensor::empty(ir::DataType::Int32, outputDims(s));
  std::vector<int32_t> acc = integerConvolution(s, x, w, xZero, wZero, y.size());
  if (!acc.empty()) std::memcpy(y.mutableData<int32_t>(), acc.data(), acc.size() * sizeof(int32_t));
  return {y};
}

std::vector<Value> qlinearConv(const KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& w = c.input(3);
  checkInt8(x, "QLinearConv input");
  checkInt8(w, "QLinearConv weights");
  const ConvShape s = convShape(c, x, w, "QLinearConv");
  const Tensor& xScale = c.input(1);
  const Tensor& yScale = c.input(6);
  const Tensor* yZeroT = c.optionalInput(7);
  if (xScale.size() != 1 || yScale.size() != 1) badInput("x_scale and y_scale must be scalars");
  const std::vector<double> xZero = perSlice(c.optionalInput(2), 1, "x_zero_point");
  const std::vector<double> wScale = perSlice(&c.input(4), s.outChannels, "w_scale");
  const std::vector<double> wZero = perSlice(c.optionalInput(5), s.outChannels, "w_zero_point");
  const double yZero = yZeroT ? yZeroT->doubleAt(0) : 0;
  const ir::DataType outType = yZeroT ? yZeroT->dtype() : x.dtype();
  if (!isInt8Like(outType)) unsupported("QLinearConv output type must be int8 or uint8");
  const Tensor* bias = biasOf(c, 8, s.outChannels);
  if (bias && bias->dtype() != ir::DataType::Int32) badInput("QLinearConv bias must be int32");
  Tensor y = Tensor::empty(outType, outputDims(s));
  std::vector<int32_t> acc = integerConvolution(s, x, w, static_cast<int32_t>(xZero[0]), wZero, y.size());
  const int64_t outSpatial = s.window.outCount();
  // The float product of the three scales, as ONNX's reference and other runtimes compute it.
  const float xs = static_cast<float>(xScale.doubleAt(0)), ys = static_cast<float>(yScale.doubleAt(0));
  for (int64_t k = 0; k < y.size(); ++k) {
    const int64_t m = (k / outSpatial) % s.outChannels;
    const int64_t a = int64_t{acc[static_cast<size_t>(k)]} + (bias ? bias->data<int32_t>()[m] : 0);
    const float scale = xs * static_cast<float>(wScale[static_cast<size_t>(m)]) / ys;
    const double v = static_cast<double>(static_cast<float>(a) * scale);
    if (outType == ir::DataType::Int8)
      y.mutableData<int8_t>()[k] = requantize<int8_t>(v, yZero);
    else
      y.mutableData<uint8_t>()[k] = requantize<uint8_t>(v, yZero);
  }
  return {y};
}

}  // namespace

void registerConvKernels(KernelRegistry& r) {
  r.add("Conv", 1, conv);
  r.add("ConvTranspose", 1, convTranspose);
  r.add("ConvInteger", 10, convInteger);
  r.add("QLinearConv", 10, qlinearConv);
}

}  // namespace fb::eval
