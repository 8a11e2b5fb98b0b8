// Pooling. PyTorch-style ops (max_pool_2d / avg_pool_2d since v0.8, maxpool_2d / avgpool_2d in v0.5-0.7) carry
// `padding`, `kernel_size`, `stride`; TF-style ones (tf_max_pool_2d / tf_avg_pool_2d since v0.8, and the v0.5
// max_pool_2d / avg_pool_2d) carry `pool_size`, `strides`, a padding string. The attributes tell them apart.
// Below opset 10 ONNX has no ceil_mode: max pooling gets the extra end padding from the known shapes instead.

#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;

std::vector<int64_t> pairOf(std::vector<int64_t> v, int64_t def) {
  if (v.empty()) return {def, def};
  if (v.size() == 1) return {v[0], v[0]};
  return v;
}

void pool(OneflowOp& op, bool isMax) {
  ir::Value* x = op.allInputs().at(0);
  const bool tfStyle = op.has("pool_size");
  if (op.str("data_format", "channels_first") != "channels_first")
    throw std::runtime_error("data_format channels_last pooling is not supported");
  std::vector<int64_t> kernel, strides, begin, end, dil{1, 1};
  bool ceil = op.flag("ceil_mode");
  std::string autoPad;
  if (tfStyle) {
    kernel = pairOf(op.ints("pool_size"), 1);
    strides = pairOf(op.ints("strides"), 1);
    const std::string padding = op.str("padding", "valid");
    begin = pairOf(op.ints("padding_before"), 0);
    end = pairOf(op.ints("padding_after"), 0);
    if (padding == "same" || padding == "SAME") autoPad = "SAME_UPPER";
  } else {
    kernel = pairOf(op.ints("kernel_size"), 1);
    auto stride = op.ints("stride");
    strides = stride.empty() ? kernel : pairOf(stride, 1);  // PyTorch's default stride is the kernel
    begin = end = pairOf(op.ints("padding"), 0);
    if (isMax) dil = pairOf(op.ints("dilation"), 1);
    if (isMax && op.flag("return_indices") && op.out("indice") && !op.out("indice")->uses().empty())
      throw std::runtime_error("the indices output is used; ONNX MaxPool indices differ from OneFlow's");
    op.ignore({"return_indices"});
  }
  const bool dilated = dil[0] != 1 || dil[1] != 1;
  if (dilated && op.opset() < 10) throw Unsupported("dilation needs opset 10");

  std::vector<Attribute> attrs{Attribute::makeInts("kernel_shape", kernel), Attribute::makeInts("strides", strides)};
  if (ceil && op.opset() < 10) {
    // Extra end padding so that floor division gives the ceil-mode size (MaxPool ignores padded cells).
    auto d = op.dims(x);
    if (!isMax) throw Unsupported("ceil_mode average pooling needs opset 10");
    if (!d || d->size() != 4) throw std::runtime_error("ceil_mode below opset 10 needs the input shape");
    for (int k = 0; k < 2; ++k) {
      const int64_t in = (*d)[k + 2], span = in + begin[k] + end[k] - kernel[k];
      int64_t outCeil = (span + strides[k] - 1) / strides[k] + 1;
      if ((outCeil - 1) * strides[k] >= in + begin[k]) --outCeil;
      const int64_t outFloor = span / strides[k] + 1;
      if (outCeil > outFloor) end[k] += (outCeil - 1) * strides[k] + kernel[k] - (in + begin[k] + end[k]);
    }
    ceil = false;
  }
  if (autoPad.empty())
    attrs.push_back(Attribute::makeInts("pads", {begin[0], begin[1], end[0], end[1]}));
  else
    attrs.push_back(Attribute::makeString("auto_pad", autoPad));
  if (ceil) attrs.push_back(Attribute::makeInt("ceil_mode", 1));
  if (dilated) attrs.push_back(Attribute::makeInts("dilations", dil));
  if (!isMax) {
    attrs.push_back(Attribute::makeInt("count_include_pad", tfStyle ? 0 : op.flag("count_include_pad")));
    if (const int64_t div = op.i("divisor_override", 0); div != 0 && div != kernel[0] * kernel[1])
      throw std::runtime_error("divisor_override " + std::to_string(div) + " has no ONNX counterpart");
  }
  op.finish(op.emit(isMax ? "MaxPool" : "AveragePool", {x}, std::move(attrs)));
}

void adaptiveAvg(OneflowOp& op) {
  ir::Value* x = op.allInputs().at(0);
  auto outSize = op.ints("output_size");
  op.expectString("data_format", "channels_first");
  if (outSize.size() == 1) outSize.push_back(outSize[0]);
  if (outSize.size() != 2 || outSize[0] < 1 || outSize[1] < 1)
    throw std::runtime_error("output_size must be one or two sizes of at least 1");
  if (outSize.size() == 2 && outSize[0] == 1 && outSize[1] == 1) {
    op.finish(op.emit("GlobalAveragePool", {x}));
    return;
  }
  auto d = op.dims(x);
  if (!d || d->size() != 4) throw std::runtime_error("adaptive pooling to a size other than 1x1 needs the input shape");
  std::vector<int64_t> kernel;
  for (int k = 0; k < 2; ++k) {
    if ((*d)[k + 2] % outSize[k] != 0)
      throw std::runtime_error("input size " + std::to_string((*d)[k + 2]) + " is not a multiple of output size " +
                               std::to_string(outSize[k]));
    kernel.push_back((*d)[k + 2] / outSize[k]);
  }
  op.finish(op.emit("AveragePool", {x},
                    {Attribute::makeInts("kernel_shape", kernel), Attribute::makeInts("strides", kernel)}));
}

}  // namespace

void registerPoolOps() {
  for (const char* name : {"max_pool_2d", "maxpool_2d", "tf_max_pool_2d"})
    add(name, 7, "-> MaxPool (ceil_mode by padding below opset 10)", [](OneflowOp& op) { pool(op, true); });
  for (const char* name : {"avg_pool_2d", "avgpool_2d", "tf_avg_pool_2d"})
    add(name, 7, "-> AveragePool", [](OneflowOp& op) { pool(op, false); });
  add("adaptive_avg_pool2d", 7, "-> GlobalAveragePool, or AveragePool when the sizes divide", adaptiveAvg);
}

}  // namespace fb::convert::oneflow
