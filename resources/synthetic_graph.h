#pragma once
// Transformer-like models of any size, built in code for the layout tests and the benchmarks (no model
// files in the repository). Each layer is a layer norm, single-head attention and a feed-forward block
// of real ONNX ops (opset 13) with small weights, 27 nodes; `scoped` names nodes the way PyTorch
// exporters do ("/layers.12/attn/MatMul_1"), otherwise names carry no scope ("MatMul_311").
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::synthetic {

inline constexpr size_t kNodesPerLayer = 27;

inline std::unique_ptr<ir::Model> makeTransformerLike(size_t targetNodes, bool scoped = true) {
  using namespace fb::ir;
  auto m = std::make_unique<Model>();
  m->irVersion = 8;
  m->producerName = "flowbridge-synthetic";
  m->opsets = {{"", 13}};
  Graph& g = m->graph();
  g.name = "synthetic_transformer";
  const int64_t d = 8;
  size_t counter = 0;
  auto weight = [&](const std::string& name, std::vector<int64_t> dims) {
    int64_t n = 1;
    for (auto x : dims) n *= x;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = float((i * 7 + counter) % 13) / 13.0f - 0.5f;
    return g.addInitializer(Tensor::fromValues(name, DataType::Float, std::move(dims), v));
  };
  auto node = [&](const std::string& scope, const std::string& op, std::vector<Value*> ins,
                  std::vector<Attribute> attrs = {}) {
    const std::string base = scoped ? scope + "/" + op : op;
    Value* out = g.createUniqueValue(base + "_output_0");
    Node* n = g.addNode(op, ins, {out});
    n->name = scoped ? scope + "/" + op + "_" + std::to_string(counter) : op + "_" + std::to_string(counter);
    n->attributes = std::move(attrs);
    n->origins = {n->id()};
    ++counter;
    return out;
  };
  Value* x = g.getOrCreateValue("tokens");
  x->type = TypeInfo::tensor(DataType::Float, Shape{Dim::of(1), Dim::of(16), Dim::of(d)});
  g.addInput(x);
  Value* axes =
      g.addInitializer(Tensor::fromValues<int64_t>("axes_last", DataType::Int64, {1}, std::vector<int64_t>{-1}));
  const size_t layers = std::max<size_t>(1, targetNodes / kNodesPerLayer);
  for (size_t l = 0; l < layers; ++l) {
    const std::string L = "/layers." + std::to_string(l);
    const std::string p = "layers." + std::to_string(l);
    // Layer norm by hand (opset 13 has no LayerNormalization).
    Value* mean = node(L + "/norm", "ReduceMean", {x}, {Attribute::makeInts("axes", {-1})});
    Value* centred = node(L + "/norm", "Sub", {x, mean});
    Value* sq = node(L + "/norm", "Mul", {centred, centred});
    Value* var = node(L + "/norm", "ReduceMean", {sq}, {Attribute::makeInts("axes", {-1})});
    Value* eps = node(L + "/norm", "Add", {var, weight(p + ".norm.eps", {1})});
    Value* sd = node(L + "/norm", "Sqrt", {eps});
    Value* normed = node(L + "/norm", "Div", {centred, sd});
    Value* scaled = node(L + "/norm", "Mul", {normed, weight(p + ".norm.weight", {d})});
    Value* h = node(L + "/norm", "Add", {scaled, weight(p + ".norm.bias", {d})});
    Value* q = node(L + "/attn", "MatMul", {h, weight(p + ".attn.q", {d, d})});
    Value* k = node(L + "/attn", "MatMul", {h, weight(p + ".attn.k", {d, d})});
    Value* v = node(L + "/attn", "MatMul", {h, weight(p + ".attn.v", {d, d})});
    Value* kt = node(L + "/attn", "Transpose", {k}, {Attribute::makeInts("perm", {0, 2, 1})});
    Value* s = node(L + "/attn", "MatMul", {q, kt});
    Value* s2 = node(L + "/attn", "Div", {s, weight(p + ".attn.scale", {1})});
    Value* a = node(L + "/attn", "Softmax", {s2}, {Attribute::makeInt("axis", -1)});
    Value* ctx = node(L + "/attn", "MatMul", {a, v});
    Value* o = node(L + "/attn", "MatMul", {ctx, weight(p + ".attn.out", {d, d})});
    Value* r1 = node(L, "Add", {x, o});
    Value* f1 = node(L + "/ffn", "MatMul", {r1, weight(p + ".ffn.fc1", {d, 2 * d})});
    Value* f1b = node(L + "/ffn", "Add", {f1, weight(p + ".ffn.fc1.bias", {2 * d})});
    Value* f2 = node(L + "/ffn", "Relu", {f1b});
    Value* f3 = node(L + "/ffn", "MatMul", {f2, weight(p + ".ffn.fc2", {2 * d, d})});
    Value* f3b = node(L + "/ffn", "Add", {f3, weight(p + ".ffn.fc2.bias", {d})});
    Value* f4 = node(L + "/ffn", "Squeeze", {node(L + "/ffn", "Unsqueeze", {f3b, axes}), axes});
    x = node(L, "Add", {r1, f4});
  }
  g.renameValue(x, "hidden");
  x->type = TypeInfo::tensor(DataType::Float, Shape{Dim::of(1), Dim::of(16), Dim::of(d)});
  g.addOutput(x);
  return m;
}

}  // namespace fb::synthetic
