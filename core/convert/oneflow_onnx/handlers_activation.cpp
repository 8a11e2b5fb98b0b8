// Activations. hardtanh keeps its bounds at every opset (oneflow-onnx lost them at opset >= 11); the GELU
// variants are written out with the ONNX ops of the target opset.
#include <cmath>
#include <optional>

#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;

ir::Value* x0(OneflowOp& op) { return op.allInputs().at(0); }
ir::Value* c(OneflowOp& op, double v) { return op.scalarOf(op.dtype(x0(op)), v); }

void hardswish(OneflowOp& op) {
  if (op.opset() >= 14) return op.finish(op.emit("HardSwish", {x0(op)}));
  ir::Value* hs =
      op.emit("HardSigmoid", {x0(op)}, {Attribute::makeFloat("alpha", 1.f / 6), Attribute::makeFloat("beta", 0.5f)});
  op.finish(op.emit("Mul", {x0(op), hs}));
}

void gelu(OneflowOp& op) {  // 0.5 x (1 + erf(x / sqrt 2))
  ir::Value* x = x0(op);
  ir::Value* e = op.emit("Erf", {op.emit("Div", {x, c(op, std::sqrt(2.0))})});
  op.finish(op.emit("Mul", {op.emit("Mul", {x, c(op, 0.5)}), op.emit("Add", {e, c(op, 1.0)})}));
}

void fastGelu(OneflowOp& op) {  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  ir::Value* x = x0(op);
  ir::Value* cube = op.emit("Mul", {op.emit("Mul", {x, x}), x});
  ir::Value* inner = op.emit("Add", {x, op.emit("Mul", {cube, c(op, 0.044715)})});
  ir::Value* t = op.emit("Tanh", {op.emit("Mul", {inner, c(op, std::sqrt(2.0 / M_PI))})});
  op.finish(op.emit("Mul", {op.emit("Mul", {x, c(op, 0.5)}), op.emit("Add", {t, c(op, 1.0)})}));
}

void quickGelu(OneflowOp& op) {  // x * sigmoid(1.702 x)
  ir::Value* x = x0(op);
  op.finish(op.emit("Mul", {x, op.emit("Sigmoid", {op.emit("Mul", {x, c(op, 1.702)})})}));
}

void softplus(OneflowOp& op) {  // (1/beta) log(1 + exp(beta x)), linear where beta x > threshold
  ir::Value* x = x0(op);
  const double beta = op.f("beta", 1.0), threshold = op.f("threshold", 20.0);
  ir::Value* bx = beta == 1.0 ? x : op.emit("Mul", {x, c(op, beta)});
  ir::Value* sp = op.emit("Softplus", {bx});
  if (beta != 1.0) sp = op.emit("Div", {sp, c(op, beta)});
  op.finish(op.emit("Where", {op.emit("Greater", {bx, c(op, threshold)}), x, sp}));
}

void softmax(OneflowOp& op) {
  ir::Value* x = x0(op);
  auto r = op.rank(x);
  if (!r && op.opset() < 13) throw std::runtime_error("softmax below opset 13 needs the input rank");
  // OneFlow's softmax is over the last axis; before opset 13 ONNX flattens from `axis`, the same for the last one.
  op.finish(op.emit("Softmax", {x}, {Attribute::makeInt("axis", r ? *r - 1 : -1)}));
}

void prelu(OneflowOp& op) {
  ir::Value* x = op.allInputs().at(0);
  ir::Value* alpha = op.allInputs().at(1);
  auto r = op.rank(x);
  auto ar = op.rank(alpha);
  // OneFlow's alpha is per channel (dim 1); ONNX broadcasts it from the right, so give it trailing 1s.
  if (r && ar && *ar == 1 && *r > 2) {
    std::vector<int64_t> axes;
    for (int64_t k = 1; k < *r - 1; ++k) axes.push_back(k);
    alpha = op.unsqueeze(alpha, axes);
  }
  op.finish(op.emit("PRelu", {x, alpha}));
}

// clip_by_scalar[_min|_max]: the floating or the integral bound, by the input's element type.
void clipByScalar(OneflowOp& op, bool lower, bool upper) {
  ir::Value* x = x0(op);
  const bool isFloat = op.dtype(x) == ir::DataType::Undefined || ir::isFloatingPoint(op.dtype(x));
  auto bound = [&](const char* which) -> double {
    const double f = op.f(std::string("floating_") + which);
    const double i = static_cast<double>(op.i(std::string("integral_") + which));
    return isFloat ? f : i;
  };
  std::optional<double> lo, hi;
  if (lower) lo = bound("min");
  if (upper) hi = bound("max");
  op.finish(op.clip(x, lo, hi));
}

// softmax_y = softmax(where(mask, (x + bias) * scale, fill)); y = softmax_y * dropout_mask * dropout_scale
void fusedBiasAddScaleMaskSoftmaxDropout(OneflowOp& op) {
  ir::Value* x = op.requireIn("x");
  ir::Value* mask = op.requireIn("mask");
  if (op.dtype(mask) != ir::DataType::Bool) mask = op.cast(mask, ir::DataType::Bool);
  ir::Value* v = op.emit("Mul", {op.emit("Add", {x, op.requireIn("bias")}), c(op, op.f("scale_value", 1.0))});
  v = op.emit("Where", {mask, v, c(op, op.f("mask_fill_value", 0.0))});
  auto r = op.rank(x);
  if (!r) throw std::runtime_error("needs the input rank");
  ir::Value* sm = op.emit("Softmax", {v}, {Attribute::makeInt("axis", *r - 1)});
  ir::Value* dm = op.requireIn("dropout_mask");
  if (op.dtype(dm) != op.dtype(x)) dm = op.cast(dm, op.dtype(x));
  ir::Value* y = op.emit("Mul", {op.emit("Mul", {sm, dm}), c(op, op.f("dropout_scale_value", 1.0))});
  op.finish({{"y", y}, {"softmax_y", sm}});
}

}  // namespace

void registerActivationOps() {
  add("clip_by_scalar", 7, "-> Clip(min, max)", [](OneflowOp& op) { clipByScalar(op, true, true); });
  add("clip_by_scalar_min", 7, "-> Clip(min)", [](OneflowOp& op) { clipByScalar(op, true, false); });
  add("clip_by_scalar_max", 7, "-> Clip(max)", [](OneflowOp& op) { clipByScalar(op, false, true); });
  add("fused_bias_add_scale_mask_softmax_dropout", 9, "-> Add/Mul/Where/Softmax/Mul",
      fusedBiasAddScaleMaskSoftmaxDropout);
  add("relu", 7, "-> Relu", [](OneflowOp& op) { op.finish(op.emit("Relu", {x0(op)})); });
  for (const char* name : {"sigmoid", "sigmoid_v2"})
    add(name, 7, "-> Sigmoid", [](OneflowOp& op) { op.finish(op.emit("Sigmoid", {x0(op)})); });
  add("tanh", 7, "-> Tanh", [](OneflowOp& op) { op.finish(op.emit("Tanh", {x0(op)})); });
  add("elu", 7, "-> Elu", [](OneflowOp& op) {
    op.finish(op.emit("Elu", {x0(op)}, {Attribute::makeFloat("alpha", static_cast<float>(op.f("alpha", 1.0)))}));
  });
  add("leaky_relu", 7, "-> LeakyRelu", [](OneflowOp& op) {
    op.finish(op.emit("LeakyRelu", {x0(op)}, {Attribute::makeFloat("alpha", static_cast<float>(op.f("alpha", 0.01)))}));
  });
  add("softplus", 9, "-> Softplus (+ Mul/Div for beta) + Where for the linear region past threshold", softplus);
  add("prelu", 7, "-> PRelu (alpha unsqueezed to broadcast per channel)", prelu);
  add("hardswish", 7, "-> HardSigmoid + Mul", hardswish);
  add("hardswish", 14, "-> HardSwish", hardswish);
  add("hardsigmoid", 7, "-> HardSigmoid(alpha=1/6, beta=0.5)", [](OneflowOp& op) {
    op.finish(
        op.emit("HardSigmoid", {x0(op)}, {Attribute::makeFloat("alpha", 1.f / 6), Attribute::makeFloat("beta", 0.5f)}));
  });
  add("hardtanh", 7, "-> Clip(min_val, max_val), bounds at every opset",
      [](OneflowOp& op) { op.finish(op.clip(x0(op), op.f("min_val", -1.0), op.f("max_val", 1.0))); });
  add("silu", 7, "-> Sigmoid + Mul", [](OneflowOp& op) {
    op.finish(op.emit("Mul", {x0(op), op.emit("Sigmoid", {x0(op)})}));
  });
  add("mish", 7, "-> Softplus + Tanh + Mul", [](OneflowOp& op) {
    op.finish(op.emit("Mul", {x0(op), op.emit("Tanh", {op.emit("Softplus", {x0(op)})})}));
  });
  add("gelu", 9, "-> Div/Erf/Add/Mul (exact GELU)", gelu);
  add("fast_gelu", 7, "-> tanh approximation", fastGelu);
  add("quick_gelu", 7, "-> x * Sigmoid(1.702 x)", quickGelu);
  add("softmax", 7, "-> Softmax over the last axis", softmax);
}

}  // namespace fb::convert::oneflow
