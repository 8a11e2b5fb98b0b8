// Normalizations. normalization (BatchNorm) is inference-only: training=true is a failure with that reason.
// layer_norm is LayerNormalization at opset 17 and a ReduceMean decomposition below; rms_norm and rms_layer_norm
// use only ONNX ops (oneflow-onnx emitted a non-existent "Rsqrt").
#include <numeric>

#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;

void batchNorm(OneflowOp& op) {
  if (op.flag("training")) throw std::runtime_error("training=true normalization cannot be converted (inference only)");
  ir::Value* x = op.requireIn("x");
  ir::Value* mean = op.in("moving_mean");
  ir::Value* var = op.in("moving_variance");
  if (!mean || !var) throw std::runtime_error("normalization without moving_mean/moving_variance is training-only");
  const int64_t axis = op.i("axis", 1);
  auto r = op.rank(x);
  if (axis != 1 && !(r && axis == *r - 1 && *r == 4) && !(r && axis == 1 - *r))
    throw std::runtime_error("normalization over axis " + std::to_string(axis) +
                             " is not supported (only the channel axis 1)");
  const bool lastAxis = axis != 1 && axis != 1 - r.value_or(0);
  op.ignore({"momentum"});  // only updates the moving statistics in training
  if (lastAxis) x = op.emit("Transpose", {x}, {Attribute::makeInts("perm", {0, 3, 1, 2})});
  ir::Value* y = op.emit("BatchNormalization", {x, op.requireIn("gamma"), op.requireIn("beta"), mean, var},
                         {Attribute::makeFloat("epsilon", static_cast<float>(op.f("epsilon", 1e-5)))});
  if (lastAxis) y = op.emit("Transpose", {y}, {Attribute::makeInts("perm", {0, 2, 3, 1})});
  if (ir::Value* addTo = op.in("_add_to_output")) y = op.emit("Add", {y, addTo});
  op.finish(y);
}

std::vector<int64_t> axesFrom(int64_t begin, int64_t rank) {
  std::vector<int64_t> axes(static_cast<size_t>(rank - begin));
  std::iota(axes.begin(), axes.end(), begin);
  return axes;
}

void layerNorm(OneflowOp& op) {
  ir::Value* x = op.requireIn("x");
  auto r = op.rank(x);
  if (!r) throw std::runtime_error("layer_norm needs the input rank");
  int64_t begin = op.i("begin_norm_axis", 1);
  if (begin < 0) begin += *r;
  int64_t params = op.i("begin_params_axis", begin);
  if (params < 0) params += *r;
  if (params != begin) throw std::runtime_error("begin_params_axis != begin_norm_axis is not supported");
  const double eps = op.f("epsilon", 1e-5);
  ir::Value* gamma = op.flag("scale", true) ? op.in("gamma") : nullptr;
  ir::Value* beta = op.flag("center", true) ? op.in("beta") : nullptr;
  if (op.opset() >= 17) {
    if (!gamma) {
      auto d = op.dims(x);
      if (!d) throw std::runtime_error("layer_norm without gamma needs the input shape");
      int64_t n = 1;
      for (int64_t k = begin; k < *r; ++k) n *= (*d)[k];
      std::vector<int64_t> shape(d->begin() + begin, d->end());
      gamma = op.emit("Reshape", {op.f32s(std::vector<float>(n, 1.f)), op.i64s(shape)});
    }
    std::vector<ir::Value*> ins{x, gamma};
    if (beta) ins.push_back(beta);
    ir::Node* n = op.node("LayerNormalization", ins, 1);
    n->attributes = {Attribute::makeInt("axis", begin), Attribute::makeFloat("epsilon", static_cast<float>(eps))};
    op.finish(n->output(0));
    return;
  }
  auto axes = axesFrom(begin, *r);
  ir::Value* mean = op.reduce("ReduceMean", x, axes, true);
  ir::Value* d = op.emit("Sub", {x, mean});
  ir::Value* var = op.reduce("ReduceMean", op.emit("Mul", {d, d}), axes, true);
  ir::Value* y = op.emit("Div", {d, op.emit("Sqrt", {op.emit("Add", {var, op.scalarOf(op.dtype(x), eps)})})});
  if (gamma) y = op.emit("Mul", {y, gamma});
  if (beta) y = op.emit("Add", {y, beta});
  op.finish(y);
}

// y = x / sqrt(mean(x^2 over the normalized dims) + eps) * weight
void rmsNorm(OneflowOp& op) {
  ir::Value* x = op.allInputs().at(0);
  ir::Value* weight = op.allInputs().size() > 1 ? op.allInputs()[1] : nullptr;
  auto r = op.rank(x);
  if (!r) throw std::runtime_error("rms norm needs the input rank");
  int64_t normDims = 1;
  if (op.has("normalized_shape"))
    normDims = static_cast<int64_t>(op.ints("normalized_shape").size());
  else if (auto wd = op.dims(weight))
    normDims = static_cast<int64_t>(wd->size());
  const double eps = op.f("epsilon", 1e-6);
  auto axes = axesFrom(*r - normDims, *r);
  ir::Value* ms = op.reduce("ReduceMean", op.emit("Mul", {x, x}), axes, true);
  ir::Value* inv = op.emit("Reciprocal", {op.emit("Sqrt", {op.emit("Add", {ms, op.scalarOf(op.dtype(x), eps)})})});
  ir::Value* y = op.emit("Mul", {x, inv});
  if (weight) y = op.emit("Mul", {y, weight});
  op.finish({{"y", y}, {"out", y}, {"output", y}});
}

}  // namespace

void registerNormOps() {
  add("normalization", 7, "-> BatchNormalization (inference only)", batchNorm);
  add("layer_norm", 7, "-> ReduceMean/Sub/Mul/Sqrt/Div/Mul/Add", layerNorm);
  add("layer_norm", 17, "-> LayerNormalization", layerNorm);
  add("rms_norm", 7, "-> Mul/ReduceMean/Add/Sqrt/Reciprocal/Mul", rmsNorm);
  add("rms_layer_norm", 7, "-> Mul/ReduceMean/Add/Sqrt/Reciprocal/Mul", rmsNorm);
}

}  // namespace fb::convert::oneflow
