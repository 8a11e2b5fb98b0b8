// Quantization-aware-training ops in an inference graph: the observers compute scale and zero point with ONNX
// ops (OneFlow's "google" formula), fake_quantization is QuantizeLinear + DequantizeLinear.
#include <cmath>
#include <numeric>

#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;
using ir::DataType;

struct QuantParams {
  bool symmetric = true;
  int64_t bits = 8;
};

QuantParams params(OneflowOp& op) {
  QuantParams p;
  if (const auto f = op.str("quantization_formula", "google"); f != "google")
    throw std::runtime_error("quantization_formula '" + f + "' is not supported (only 'google')");
  const auto scheme = op.str("quantization_scheme", "symmetric");
  if (scheme != "symmetric" && scheme != "affine")
    throw std::runtime_error("unknown quantization_scheme '" + scheme + "'");
  p.symmetric = scheme == "symmetric";
  p.bits = op.i("quantization_bit", 8);
  if (p.bits != 8) throw std::runtime_error("only 8-bit quantization has an ONNX counterpart");
  return p;
}

// scale and zero point from the max (symmetric: of |x|) and min statistics, both float tensors of one shape.
void finishObserver(OneflowOp& op, const QuantParams& p, ir::Value* maxV, ir::Value* minV) {
  const DataType dt = DataType::Float;
  if (p.symmetric) {
    ir::Value* scale = op.emit("Div", {maxV, op.scalarOf(dt, std::pow(2.0, p.bits - 1) - 1)});
    op.finish({{"scale", scale}, {"zero_point", op.emit("Sub", {scale, scale})}});
    return;
  }
  if (op.opset() < 11) throw Unsupported("affine quantization needs opset 11 (Round)");
  ir::Value* scale = op.emit("Div", {op.emit("Sub", {maxV, minV}), op.scalarOf(dt, std::pow(2.0, p.bits) - 1)});
  ir::Value* zp = op.emit("Neg", {op.emit("Round", {op.emit("Div", {minV, scale})})});
  op.finish({{"scale", scale}, {"zero_point", zp}});
}

void minMaxObserver(OneflowOp& op) {
  const QuantParams p = params(op);
  ir::Value* x = op.allInputs().at(0);
  auto r = op.rank(x);
  if (!r) throw std::runtime_error("needs the input rank");
  const bool perLayer = op.flag("per_layer_quantization", true);
  std::vector<int64_t> axes(static_cast<size_t>(*r));
  std::iota(axes.begin(), axes.end(), 0);
  if (!perLayer) axes.erase(axes.begin());  // per output channel (axis 0)
  auto stat = [&](const char* reduce, ir::Value* v) {
    ir::Value* s = op.reduce(reduce, v, axes, false);
    return op.emit("Reshape", {s, op.i64s({-1})});  // OneFlow's per-layer scale has shape [1]
  };
  if (p.symmetric)
    finishObserver(op, p, stat("ReduceMax", op.emit("Abs", {x})), nullptr);
  else
    finishObserver(op, p, stat("ReduceMax", x), stat("ReduceMin", x));
}

void movingAverageObserver(OneflowOp& op) {
  if (op.flag("training")) throw std::runtime_error("training=true observers update statistics; inference only");
  const QuantParams p = params(op);
  op.ignore({"stop_update_after_iters", "momentum"});
  finishObserver(op, p, op.requireIn("moving_max"), p.symmetric ? nullptr : op.requireIn("moving_min"));
}

void fakeQuantization(OneflowOp& op) {
  const QuantParams p = params(op);
  ir::Value* x = op.requireIn("in");
  ir::Value* scale = op.requireIn("scale");
  ir::Value* zp =
      op.emit("Cast", {op.requireIn("zero_point")},
              {Attribute::makeInt("to", static_cast<int64_t>(p.symmetric ? DataType::Int8 : DataType::UInt8))});
  auto sd = op.dims(scale);
  const bool perTensor = sd && (sd->empty() || (sd->size() == 1 && (*sd)[0] == 1));
  std::vector<Attribute> attrs;
  if (perTensor) {
    scale = op.emit("Reshape", {scale, op.i64s({})});
    zp = op.emit("Reshape", {zp, op.i64s({})});
  } else {
    if (op.opset() < 13) throw Unsupported("per-channel fake quantization needs opset 13");
    attrs.push_back(Attribute::makeInt("axis", 0));
  }
  ir::Value* q = op.emit("QuantizeLinear", {x, scale, zp}, attrs);
  op.finish(op.emit("DequantizeLinear", {q, scale, zp}, attrs));
}

}  // namespace

void registerQuantOps() {
  add("min_max_observer", 10, "-> ReduceMax/ReduceMin/Div (scale, zero point)", minMaxObserver);
  add("moving_average_min_max_observer", 10, "-> Div/Sub (scale, zero point from the moving statistics)",
      movingAverageObserver);
  add("fake_quantization", 10, "-> QuantizeLinear + DequantizeLinear", fakeQuantization);
}

}  // namespace fb::convert::oneflow
