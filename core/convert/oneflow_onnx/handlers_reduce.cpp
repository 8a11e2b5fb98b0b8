// Reductions. reduce_sum passes its axes as an input from opset 13 (oneflow-onnx dropped them there); argmax /
// argmin read their single input; var is written out with ReduceMean.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;

std::vector<int64_t> axesOf(OneflowOp& op, const char* name, ir::Value* x) {
  auto axes = op.ints(name);
  auto r = op.rank(x);
  if (axes.empty() && r)  // an empty axis list reduces everything
    for (int64_t k = 0; k < *r; ++k) axes.push_back(k);
  for (auto& a : axes) {
    if (a < 0) {
      if (!r) throw std::runtime_error("negative axes need the input rank");
      a += *r;
    }
    // Axes come from the file; handlers index the input's dims with them.
    if (r && (a < 0 || a >= *r))
      throw std::runtime_error("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(*r));
  }
  return axes;
}

void reduceOp(const char* name, const char* onnx) {
  add(name, 7, std::string("-> ") + onnx, [onnx](OneflowOp& op) {
    ir::Value* x = op.allInputs().at(0);
    op.finish(op.reduce(onnx, x, axesOf(op, "axis", x), op.flag("keepdims")));
  });
}

void argReduce(const char* name, const char* onnx) {
  add(name, 7, std::string("-> ") + onnx + " over the last axis", [onnx](OneflowOp& op) {
    ir::Value* x = op.allInputs().at(0);
    auto r = op.rank(x);
    if (!r) throw std::runtime_error("needs the input rank");
    op.ignore({"dtype"});  // the result is int64 either way
    op.finish(op.emit(onnx, {x}, {Attribute::makeInt("axis", *r - 1), Attribute::makeInt("keepdims", 0)}));
  });
}

// var = mean((x - mean(x))^2) * n / (n - 1 if unbiased)
void variance(OneflowOp& op) {
  ir::Value* x = op.allInputs().at(0);
  auto axes = axesOf(op, "dim", x);
  const bool keep = op.flag("keepdim");
  const bool unbiased = op.flag("unbiased", true);
  op.ignore({"dtype"});
  ir::Value* d = op.emit("Sub", {x, op.reduce("ReduceMean", x, axes, true)});
  ir::Value* v = op.reduce("ReduceMean", op.emit("Mul", {d, d}), axes, keep);
  if (unbiased) {
    auto dims = op.dims(x);
    if (!dims) throw std::runtime_error("unbiased var needs the input shape");
    int64_t n = 1;
    for (auto a : axes)
      if (a < 0 || a >= static_cast<int64_t>(dims->size()) || __builtin_mul_overflow(n, (*dims)[a], &n))
        throw std::runtime_error("the reduced axes' sizes are out of range");
    v = op.emit("Mul", {v, op.scalarOf(op.dtype(x), static_cast<double>(n) / static_cast<double>(n - 1))});
  }
  op.finish(v);
}

}  // namespace

void registerReduceOps() {
  reduceOp("reduce_sum", "ReduceSum");
  reduceOp("reduce_min", "ReduceMin");
  reduceOp("reduce_max", "ReduceMax");
  reduceOp("reduce_prod", "ReduceProd");
  reduceOp("reduce_mean", "ReduceMean");
  argReduce("argmax", "ArgMax");
  argReduce("argmin", "ArgMin");
  add("var", 7, "-> ReduceMean/Sub/Mul/ReduceMean [* n/(n-1)]", variance);
}

}  // namespace fb::convert::oneflow
