// BatchNormalization has training_mode (batch statistics, running statistics as outputs) only from 14.
// Below, the same computation is written out as ONNX-15's definition states it: the batch mean and the
// population variance over every axis but the channel (ReduceMean), Y = scale * (X - mean) / sqrt(var + eps)
// + B, running_mean = input_mean * momentum + mean * (1 - momentum), and likewise for the variance. Needs X's
// rank; scale, B and the statistics must have X's element type (15 lets them differ).
#include "convert/onnx_onnx/adapter_util.h"
#include "convert/onnx_onnx/adapters.h"
#include "convert/onnx_onnx/version_step.h"

namespace fb::convert::onnx_onnx {
namespace {

void trainingWrittenOut(ir::Node& n, HandlerContext& ctx) {
  if (n.attrInt("training_mode", 0) == 0 || ctx.targetOpset >= 14) return compatibleVersionStep(n, ctx);
  if (n.inputs().size() != 5) throw std::runtime_error("BatchNormalization needs five inputs");
  for (size_t i = 0; i < 5; ++i)
    if (!n.input(i)) throw std::runtime_error("BatchNormalization needs five inputs");
  const ir::DataType t = ctx.elemType(n.input(0));
  if (t != ir::DataType::Float && t != ir::DataType::Double && t != ir::DataType::Float16)
    throw Unsupported("BatchNormalization: training_mode=1 on " + std::string(ir::dataTypeName(t)) +
                      " X (element type unknown) needs opset 14");
  for (size_t i = 1; i < 5; ++i)
    if (ctx.elemType(n.input(i)) != t)
      throw Unsupported(
          "BatchNormalization: training_mode=1 with scale/B/mean/var of another type than X needs opset 15");
  auto rank = ctx.rank(n.input(0));
  if (!rank || *rank < 2)
    throw Unsupported("BatchNormalization: training_mode=1 below 14 needs X's rank (at least 2) to be known");
  ctx.note = "training_mode=1 written out: batch statistics by ReduceMean, running statistics by momentum";
  if (!ctx.commit()) return;

  const std::string base = n.name.empty() ? "batchnorm" : n.name;
  const float eps = n.attrFloat("epsilon", 1e-5f);
  const float momentum = n.attrFloat("momentum", 0.9f);
  // Scalars of X's type: the attributes are floats, as ONNX Runtime reads them.
  auto scalar = [&](const std::string& name, float v) {
    ir::Value* f = ctx.constantFloat(base + "_" + name, {v}, true);
    if (t == ir::DataType::Float) return f;
    ir::Value* c = ctx.newValue(base + "_" + name + "_cast");
    ctx.insertNode(n, "Cast", {f}, {c})->setAttr(ir::Attribute::makeInt("to", static_cast<int64_t>(t)));
    return c;
  };
  auto op = [&](const char* type, std::vector<ir::Value*> ins, const std::string& name, ir::Value* out = nullptr) {
    if (!out) out = ctx.newValue(base + "_" + name);
    ctx.insertNode(n, type, ins, {out});
    return out;
  };
  std::vector<int64_t> axes{0};
  for (int64_t a = 2; a < *rank; ++a) axes.push_back(a);
  auto reduceMean = [&](ir::Value* in, const std::string& name) {
    ir::Value* out = ctx.newValue(base + "_" + name);
    ir::Node* r = ctx.insertNode(n, "ReduceMean", {in}, {out});
    r->setAttr(ir::Attribute::makeInts("axes", axes));
    r->setAttr(ir::Attribute::makeInt("keepdims", 1));
    return out;
  };
  std::vector<int64_t> channelShape(static_cast<size_t>(*rank - 1), 1);
  channelShape[0] = -1;  // [C, 1, ...] broadcasts against [N, C, ...]
  ir::Value* channelShapeV = ctx.constantInt64(base + "_channel_shape", channelShape);
  ir::Value* flatShape = ctx.constantInt64(base + "_flat_shape", {-1});

  ir::Value* x = n.input(0);
  ir::Value* mean = reduceMean(x, "batch_mean");
  ir::Value* centered = op("Sub", {x, mean}, "centered");
  ir::Value* var = reduceMean(op("Mul", {centered, centered}, "squared"), "batch_var");
  ir::Value* scale = op("Reshape", {n.input(1), channelShapeV}, "scale_c");
  ir::Value* bias = op("Reshape", {n.input(2), channelShapeV}, "bias_c");
  ir::Value* stddev = op("Sqrt", {op("Add", {var, scalar("epsilon", eps)}, "var_eps")}, "stddev");
  ir::Value* outputs[3] = {n.output(0), n.outputs().size() > 1 ? n.output(1) : nullptr,
                           n.outputs().size() > 2 ? n.output(2) : nullptr};
  for (size_t i = 0; i < n.outputs().size(); ++i)
    if (n.output(i)) ctx.graph.setOutput(&n, i, ctx.newValue(base + "_replaced"));
  if (outputs[0]) {
    ir::Value* scaled = op("Mul", {scale, centered}, "scaled");
    op("Add", {op("Div", {scaled, stddev}, "normalized"), bias}, "y", outputs[0]);
  }
  ir::Value* keep = outputs[1] || outputs[2] ? scalar("momentum", momentum) : nullptr;
  ir::Value* take = outputs[1] || outputs[2] ? scalar("one_minus_momentum", 1.0f - momentum) : nullptr;
  auto running = [&](ir::Value* input, ir::Value* batch, const std::string& name, ir::Value* out) {
    ir::Value* flat = op("Reshape", {batch, flatShape}, name + "_flat");
    op("Add", {op("Mul", {input, keep}, name + "_kept"), op("Mul", {flat, take}, name + "_taken")}, name, out);
  };
  if (outputs[1]) running(n.input(3), mean, "running_mean", outputs[1]);
  if (outputs[2]) running(n.input(4), var, "running_var", outputs[2]);
  ctx.removeReplaced(n);
}

}  // namespace

void registerBatchNormTrainingAdapters(HandlerRegistry& r) {
  add(r, "BatchNormalization", 7, "opsets 7-13: training_mode=1 written out (ReduceMean statistics, momentum updates)",
      trainingWrittenOut);
  add(r, "BatchNormalization", 14, "opset 14+: compatible version step", compatibleVersionStep);
}

}  // namespace fb::convert::onnx_onnx
