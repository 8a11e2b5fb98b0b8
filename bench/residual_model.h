#pragma once
// The synthetic residual network of bench_scale and bench_edit (Conv -> BatchNormalization -> Relu -> Conv ->
// BatchNormalization -> Add -> Relu, seven nodes a block, names in scopes as PyTorch exports them), built in memory.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "ir/model.h"

namespace fb::bench {

constexpr int64_t kChannels = 8;
constexpr int kNodesPerBlock = 7;

// A residual network of about `targetNodes` nodes, scoped like torch.onnx's exports ("/layer3/layer3.12/conv1/Conv").
inline void buildResidualModel(ir::Model& m, size_t targetNodes) {
  const size_t blocks = std::max<size_t>(1, targetNodes / kNodesPerBlock);
  m.opsets = {{"", 13}};
  m.producerName = "pytorch";
  m.producerVersion = "1.13.1";
  ir::Graph& g = m.graph();
  g.name = "torch_jit";
  ir::Value* x = g.getOrCreateValue("input");
  x->type = ir::TypeInfo::tensor(ir::DataType::Float,
                                 ir::Shape{ir::Dim::of(1), ir::Dim::of(kChannels), ir::Dim::of(16), ir::Dim::of(16)});
  g.addInput(x);
  std::mt19937 rng(11);
  auto randoms = [&](size_t n, float lo, float hi) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& f : v) f = d(rng);
    return v;
  };
  auto param = [&](const std::string& name, std::vector<int64_t> dims, float lo, float hi) {
    size_t n = 1;
    for (auto d : dims) n *= static_cast<size_t>(d);
    return g.addInitializer(ir::Tensor::fromValues(name, ir::DataType::Float, dims, randoms(n, lo, hi)));
  };
  auto node = [&](const std::string& scope, const std::string& op, std::vector<ir::Value*> ins) {
    ir::Value* out = g.getOrCreateValue(scope + "/" + op + "_output_0");
    ir::Node* n = g.addNode(op, ins, {out});
    n->name = scope + "/" + op;
    return n;
  };
  ir::Value* acc = x;
  for (size_t b = 0; b < blocks; ++b) {
    const std::string layer = "layer" + std::to_string(b / 100 + 1);
    const std::string module = layer + "." + std::to_string(b % 100);
    const std::string scope = "/" + layer + "/" + module;
    ir::Value* h = acc;
    for (int k = 1; k <= 2; ++k) {
      const std::string conv = "conv" + std::to_string(k), bn = "bn" + std::to_string(k);
      ir::Node* c = node(scope + "/" + conv, "Conv",
                         {h, param(module + "." + conv + ".weight", {kChannels, kChannels, 3, 3}, -0.2f, 0.2f)});
      c->attributes.push_back(ir::Attribute::makeInts("dilations", {1, 1}));
      c->attributes.push_back(ir::Attribute::makeInt("group", 1));
      c->attributes.push_back(ir::Attribute::makeInts("kernel_shape", {3, 3}));
      c->attributes.push_back(ir::Attribute::makeInts("pads", {1, 1, 1, 1}));
      c->attributes.push_back(ir::Attribute::makeInts("strides", {1, 1}));
      ir::Node* n = node(scope + "/" + bn, "BatchNormalization",
                         {c->output(0), param(module + "." + bn + ".weight", {kChannels}, 0.5f, 1.5f),
                          param(module + "." + bn + ".bias", {kChannels}, -0.1f, 0.1f),
                          param(module + "." + bn + ".running_mean", {kChannels}, -0.1f, 0.1f),
                          param(module + "." + bn + ".running_var", {kChannels}, 0.5f, 1.5f)});
      n->attributes.push_back(ir::Attribute::makeFloat("epsilon", 1e-5f));
      n->attributes.push_back(ir::Attribute::makeFloat("momentum", 0.9f));
      h = n->output(0);
      if (k == 1) h = node(scope + "/relu", "Relu", {h})->output(0);
    }
    ir::Value* sum = node(scope + "/add", "Add", {h, acc})->output(0);
    acc = node(scope + "/relu_1", "Relu", {sum})->output(0);
  }
  g.addOutput(acc);
  acc->type = x->type;
}

}  // namespace fb::bench
