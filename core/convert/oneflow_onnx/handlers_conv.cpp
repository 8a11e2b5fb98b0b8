// conv1d / conv2d -> Conv. The optional `bias` input (ONEFLOW_KERNEL_ENABLE_FUSED_CONV_BIAS) becomes Conv's B,
// `_add_to_output` an Add; channels_last graphs are wrapped in Transposes.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {

void convert(OneflowOp& op, int spatial) {
  ir::Value* x = op.requireIn("in");
  ir::Value* w = op.requireIn("weight");
  ir::Value* bias = op.in("bias");
  ir::Value* addTo = op.in("_add_to_output");
  const bool channelsLast = op.str("data_format", "channels_first") == "channels_last";
  auto kernel = op.ints("kernel_size");
  auto pads = op.ints("padding_before");
  auto strides = op.ints("strides");
  auto dilations = op.ints("dilation_rate");
  const int64_t groups = op.i("groups", 1);
  op.ignore({"filters", "tuning_cache"});  // filters = weight dim 0; tuning_cache is a cuDNN hint
  if (static_cast<int>(kernel.size()) != spatial)
    throw std::runtime_error("kernel_size must have " + std::to_string(spatial) + " values");
  std::vector<int64_t> onnxPads(pads);
  onnxPads.insert(onnxPads.end(), pads.begin(), pads.end());  // OneFlow pads symmetrically: begin == end

  std::vector<int64_t> toFirst{0, spatial + 1}, toLast{0};
  for (int k = 1; k <= spatial; ++k) toFirst.push_back(k);
  for (int k = 2; k <= spatial + 1; ++k) toLast.push_back(k);
  toLast.push_back(1);
  if (channelsLast) {
    x = op.emit("Transpose", {x}, {ir::Attribute::makeInts("perm", toFirst)});
    w = op.emit("Transpose", {w}, {ir::Attribute::makeInts("perm", toFirst)});
  }
  std::vector<ir::Value*> ins{x, w};
  if (bias) ins.push_back(bias);
  ir::Value* y =
      op.emit("Conv", ins,
              {ir::Attribute::makeInts("kernel_shape", kernel), ir::Attribute::makeInts("pads", onnxPads),
               ir::Attribute::makeInts("strides", strides.empty() ? std::vector<int64_t>(spatial, 1) : strides),
               ir::Attribute::makeInts("dilations", dilations.empty() ? std::vector<int64_t>(spatial, 1) : dilations),
               ir::Attribute::makeInt("group", groups)});
  if (channelsLast) y = op.emit("Transpose", {y}, {ir::Attribute::makeInts("perm", toLast)});
  if (addTo) y = op.emit("Add", {y, addTo});
  op.finish(y);
}

}  // namespace

void registerConvOps() {
  add("conv1d", 1, "-> Conv (1-D)", [](OneflowOp& op) { convert(op, 1); });
  add("conv2d", 1, "-> Conv (2-D), bias input kept", [](OneflowOp& op) { convert(op, 2); });
}

}  // namespace fb::convert::oneflow
