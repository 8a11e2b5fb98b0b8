// Matrix products: matmul / batch_matmul / broadcast_matmul (transpose flags become Transposes, alpha a Mul),
// fused_matmul_bias (nn.Linear with ONEFLOW_KERNEL_ENABLE_FUSED_LINEAR), cublas_fused_mlp, and the fused
// attention helper of libai's GPT/BERT.
#include "convert/oneflow_onnx/handler_families.h"
#include "convert/oneflow_onnx/oneflow_op.h"

namespace fb::convert::oneflow {
namespace {
using ir::Attribute;

// Swaps the last two axes.
ir::Value* transposeLast2(OneflowOp& op, ir::Value* v) {
  auto r = op.rank(v);
  if (!r) throw std::runtime_error("a transposed matmul operand needs a known rank");
  std::vector<int64_t> perm;
  for (int64_t k = 0; k < *r; ++k) perm.push_back(k);
  std::swap(perm[*r - 1], perm[*r - 2]);
  return op.emit("Transpose", {v}, {Attribute::makeInts("perm", perm)});
}

void matmul(OneflowOp& op) {
  ir::Value* a = op.requireIn("a");
  ir::Value* b = op.requireIn("b");
  if (op.flag("transpose_a")) a = transposeLast2(op, a);
  if (op.flag("transpose_b")) b = transposeLast2(op, b);
  ir::Value* y = op.emit("MatMul", {a, b});
  if (const double alpha = op.f("alpha", 1.0); alpha != 1.0) y = op.emit("Mul", {y, op.scalarOf(op.dtype(a), alpha)});
  if (ir::Value* addTo = op.in("_add_to_output")) y = op.emit("Add", {y, addTo});
  op.finish(y);
}

void fusedMatmulBias(OneflowOp& op) {  // x @ weight^T + bias (+ _add_to_output)
  ir::Value* y = op.emit("MatMul", {op.requireIn("x"), transposeLast2(op, op.requireIn("weight"))});
  y = op.emit("Add", {y, op.requireIn("bias")});
  if (ir::Value* addTo = op.in("_add_to_output")) y = op.emit("Add", {y, addTo});
  op.ignore({"alpha", "beta"});
  op.finish(y);
}

void cublasFusedMlp(OneflowOp& op) {  // per layer: x = relu(x @ w^T + b); the last relu is skipped if asked
  ir::Value* x = op.requireIn("x");
  auto weights = op.ins("weights");
  auto biases = op.ins("biases");
  if (weights.size() != biases.size() || weights.empty()) throw std::runtime_error("weights and biases do not pair up");
  const bool skipFinal = op.flag("skip_final_activation");
  for (size_t k = 0; k < weights.size(); ++k) {
    x = op.emit("Add", {op.emit("MatMul", {x, transposeLast2(op, weights[k])}), biases[k]});
    if (k + 1 < weights.size() || !skipFinal) x = op.emit("Relu", {x});
  }
  op.finish({{"out", x}});
}

// hidden_states [seq, batch, heads * 3 * head_size] -> query_mul_key [batch, heads, seq, seq] = alpha q k^T and
// value [batch, heads, seq, head_size], q/k/v interleaved per head.
void fusedSelfAttention(OneflowOp& op) {
  ir::Value* h = op.requireIn("hidden_states");
  auto d = op.dims(h);
  if (!d || d->size() != 3) throw std::runtime_error("hidden_states needs a known [seq, batch, hidden] shape");
  const int64_t headSize = op.i("head_size");
  const double alpha = op.f("alpha", 1.0);
  const int64_t seq = (*d)[0], batch = (*d)[1], heads = (*d)[2] / (3 * headSize);
  if (heads * 3 * headSize != (*d)[2]) throw std::runtime_error("hidden size is not a multiple of 3 * head_size");
  // [seq, batch, heads, 3 * head] -> [batch, heads, seq, 3 * head]
  ir::Value* r = op.emit("Reshape", {h, op.i64s({seq, batch, heads, 3 * headSize})});
  r = op.emit("Transpose", {r}, {Attribute::makeInts("perm", {1, 2, 0, 3})});
  auto part = [&](int64_t k) {
    if (op.opset() >= 10)
      return op.emit("Slice", {r, op.i64s({k * headSize}), op.i64s({(k + 1) * headSize}), op.i64s({3})});
    return op.emit("Slice", {r},
                   {Attribute::makeInts("starts", {k * headSize}), Attribute::makeInts("ends", {(k + 1) * headSize}),
                    Attribute::makeInts("axes", {3})});
  };
  ir::Value* q = part(0);
  ir::Value* k = part(1);
  ir::Value* v = part(2);
  ir::Value* qk = op.emit("MatMul", {q, op.emit("Transpose", {k}, {Attribute::makeInts("perm", {0, 1, 3, 2})})});
  if (alpha != 1.0) qk = op.emit("Mul", {qk, op.scalarOf(op.dtype(h), alpha)});
  op.finish({{"query_mul_key", qk}, {"value", v}});
}

}  // namespace

void registerMatmulOps() {
  for (const char* name : {"matmul", "batch_matmul", "broadcast_matmul"})
    add(name, 7, "-> [Transpose] + MatMul [+ Mul alpha]", matmul);
  add("fused_matmul_bias", 7, "-> Transpose + MatMul + Add", fusedMatmulBias);
  add("cublas_fused_mlp", 7, "-> per layer Transpose + MatMul + Add + Relu", cublasFusedMlp);
  add("fused_self_attention_query_mul_key_and_value", 7, "-> Reshape + Transpose + 3 Slice + MatMul",
      fusedSelfAttention);
}

}  // namespace fb::convert::oneflow
