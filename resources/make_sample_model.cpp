// Builds the small model the app opens when started without a file: a ResNet-style CNN whose node
// names carry PyTorch-like scopes (/layer1/block0/conv1), with seeded random weights, at opset 13.
#include <cmath>
#include <cstdio>
#include <random>

#include "formats/onnx/onnx_writer.h"
#include "ir/model.h"

using namespace fb::ir;

namespace {

struct Builder {
  Model& m;
  Graph& g = m.graph();
  std::mt19937 rng{42};

  Value* weight(const std::string& name, std::vector<int64_t> dims, float scale) {
    int64_t n = 1;
    for (auto d : dims) n *= d;
    std::normal_distribution<float> dist(0.f, scale);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& x : v) x = dist(rng);
    return g.addInitializer(Tensor::fromValues(name, DataType::Float, std::move(dims), v));
  }

  Value* node(const std::string& scope, const std::string& op, std::vector<Value*> ins,
              std::vector<Attribute> attrs = {}) {
    Value* out = g.createUniqueValue(scope + "/" + op + "_output_0");
    Node* n = g.addNode(op, ins, {out});
    n->name = scope + "/" + op;
    n->attributes = std::move(attrs);
    n->origins = {n->id()};
    return out;
  }

  Value* conv(const std::string& scope, Value* x, int64_t cin, int64_t cout, int64_t k) {
    Value* w = weight(scope + ".weight", {cout, cin, k, k}, std::sqrt(2.f / float(cin * k * k)));
    Value* b = weight(scope + ".bias", {cout}, 0.01f);
    int64_t p = k / 2;
    return node(scope, "Conv", {x, w, b},
                {Attribute::makeInts("kernel_shape", {k, k}), Attribute::makeInts("pads", {p, p, p, p}),
                 Attribute::makeInts("strides", {1, 1})});
  }

  Value* block(const std::string& scope, Value* x, int64_t c) {
    Value* y = conv(scope + "/conv1", x, c, c, 3);
    y = node(scope + "/relu1", "Relu", {y});
    y = conv(scope + "/conv2", y, c, c, 3);
    y = node(scope, "Add", {y, x});
    return node(scope + "/relu2", "Relu", {y});
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_sample_model OUT.onnx\n");
    return 1;
  }
  Model m;
  m.irVersion = 8;
  m.producerName = "flowbridge-sample";
  m.producerVersion = FLOWBRIDGE_VERSION;
  m.opsets = {{"", 13}};
  m.metadata = {{"description", "FlowBridge bundled sample: a small ResNet-style CNN with random weights"}};
  Builder b{m};
  Graph& g = m.graph();
  g.name = "sample_resnet";
  Value* input = g.getOrCreateValue("image");
  input->type = TypeInfo::tensor(DataType::Float, Shape{Dim::named("batch"), Dim::of(3), Dim::of(32), Dim::of(32)});
  g.addInput(input);
  Value* x = b.conv("/stem/conv", input, 3, 16, 3);
  x = b.node("/stem/relu", "Relu", {x});
  for (int layer = 1; layer <= 2; ++layer)
    for (int blk = 0; blk < 2; ++blk)
      x = b.block("/layer" + std::to_string(layer) + "/block" + std::to_string(blk), x, 16);
  x = b.node("/head/pool", "GlobalAveragePool", {x});
  x = b.node("/head/flatten", "Flatten", {x}, {Attribute::makeInt("axis", 1)});
  Value* w = b.weight("/head/fc.weight", {10, 16}, 0.25f);
  Value* bias = b.weight("/head/fc.bias", {10}, 0.01f);
  x = b.node("/head/fc", "Gemm", {x, w, bias}, {Attribute::makeInt("transB", 1)});
  x = b.node("/head/softmax", "Softmax", {x}, {Attribute::makeInt("axis", 1)});
  g.renameValue(x, "probabilities");
  x->type = TypeInfo::tensor(DataType::Float, Shape{Dim::named("batch"), Dim::of(10)});
  g.addOutput(x);
  fb::onnxfmt::writeOnnxFile(m, argv[1]);
  return 0;
}
