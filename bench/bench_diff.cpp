// Matching two large graphs (issue 27): synthetic transformer-like networks of about 10k, 30k and 100k nodes
// (MatMul -> Add -> Relu -> MatMul -> Add -> residual Add -> LayerNormalization, small weights of their own per
// block, names in scopes as PyTorch exports them), built in memory. B is A with every third node renamed, the
// node order shuffled, one LayerNormalization's epsilon changed in 3,500 nodes and one Relu in 1,000 removed. For each
// size: the plain name join of the two node lists (the floor: a hash map of A's names, a lookup per node of B), the
// matcher alone, the matcher with names ignored, and the whole diff (classification, weights, signature), median
// of 3; the nodes paired with names and without ("blind").
// Targets: 30k nodes within 2 s, 100k within 8 s.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "diff/graph_matcher.h"
#include "diff/model_diff.h"
#include "ir/model.h"
#include "util/stopwatch.h"

using namespace fb;

namespace {

constexpr int kNodesPerBlock = 7;
constexpr int64_t kWidth = 4;

ir::Value* weight(ir::Graph& g, const std::string& name, std::mt19937& rng, std::vector<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<float> v(static_cast<size_t>(count));
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (float& x : v) x = u(rng);
  return g.addInitializer(ir::Tensor::fromValues(name, ir::DataType::Float, std::move(dims), v));
}

std::unique_ptr<ir::Model> makeModel(size_t targetNodes) {
  auto m = std::make_unique<ir::Model>();
  m->opsets = {{"", 17}};
  ir::Graph& g = m->graph();
  std::mt19937 rng(1);
  ir::Value* x = g.getOrCreateValue("input");
  x->type = ir::TypeInfo::tensor(ir::DataType::Float, ir::Shape{ir::Dim::of(1), ir::Dim::of(kWidth)});
  g.addInput(x);
  const size_t blocks = std::max<size_t>(1, targetNodes / kNodesPerBlock);
  for (size_t b = 0; b < blocks; ++b) {
    const std::string s = "/layers." + std::to_string(b) + "/";
    auto node = [&](const std::string& op, const std::string& name, std::vector<ir::Value*> in) {
      ir::Value* out = g.getOrCreateValue(s + name + "_output_0");
      ir::Node* n = g.addNode(op, in, {out});
      n->name = s + name;
      return n;
    };
    ir::Node* mm1 = node("MatMul", "fc1/MatMul", {x, weight(g, s + "fc1.weight", rng, {kWidth, kWidth})});
    ir::Node* add1 = node("Add", "fc1/Add", {mm1->output(0), weight(g, s + "fc1.bias", rng, {kWidth})});
    ir::Node* relu = node("Relu", "act/Relu", {add1->output(0)});
    ir::Node* mm2 = node("MatMul", "fc2/MatMul", {relu->output(0), weight(g, s + "fc2.weight", rng, {kWidth, kWidth})});
    ir::Node* add2 = node("Add", "fc2/Add", {mm2->output(0), weight(g, s + "fc2.bias", rng, {kWidth})});
    ir::Node* res = node("Add", "Add", {add2->output(0), x});
    ir::Node* norm =
        node("LayerNormalization", "norm/LayerNormalization",
             {res->output(0), weight(g, s + "norm.weight", rng, {kWidth}), weight(g, s + "norm.bias", rng, {kWidth})});
    norm->setAttr(ir::Attribute::makeFloat("epsilon", 1e-5f));
    norm->setAttr(ir::Attribute::makeInt("axis", -1));
    x = norm->output(0);
  }
  g.addOutput(x);
  return m;
}

// B: every third node renamed, an epsilon changed in 3,500 nodes, one Relu in 1,000 removed, order shuffled.
std::unique_ptr<ir::Model> edited(const ir::Model& a) {
  auto b = a.clone();
  ir::Graph& g = b->graph();
  std::mt19937 rng(2);
  std::vector<ir::Node*> nodes;
  for (const auto& n : g.nodes()) nodes.push_back(n.get());
  size_t relus = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    ir::Node* n = nodes[i];
    if (i % 3 == 0) n->name = "renamed_" + std::to_string(rng());
    if (i % 500 == 6 && n->opType == "LayerNormalization") n->setAttr(ir::Attribute::makeFloat("epsilon", 1e-6f));
    if (n->opType == "Relu" && relus++ % 1000 == 500) {
      g.replaceAllUses(n->output(0), n->input(0));
      g.removeNode(n);
      nodes[i] = nullptr;
    }
  }
  std::erase(nodes, nullptr);
  std::shuffle(nodes.begin(), nodes.end(), rng);
  for (ir::Node* n : nodes) g.moveBefore(n, nullptr);
  return b;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes = {10000, 30000, 100000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(size_t(std::strtoull(argv[i], nullptr, 10)));
  }
  std::printf("%-8s %8s %8s %12s %12s %12s %12s %8s %8s %8s %8s\n", "nodes", "A", "B", "name join", "match", "no names",
              "whole diff", "paired", "blind", "changed", "only");
  for (size_t size : sizes) {
    auto a = makeModel(size);
    auto b = edited(*a);
    std::vector<double> join, match, blind, whole;
    size_t paired = 0, pairedBlind = 0, changed = 0, only = 0, found = 0;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = SteadyClock::now();
      std::unordered_map<std::string_view, const ir::Node*> byName;
      byName.reserve(a->graph().nodeCount());
      for (const auto& n : a->graph().nodes()) byName.emplace(n->name, n.get());
      found = 0;
      for (const auto& n : b->graph().nodes()) found += byName.count(n->name);
      join.push_back(msSince(t0));
      t0 = SteadyClock::now();
      const auto m = diff::matchGraphs(a->graph(), b->graph());
      match.push_back(msSince(t0));
      paired = m.pairCount();
      diff::MatchOptions structureOnly;
      structureOnly.useNames = false;
      t0 = SteadyClock::now();
      const auto ms = diff::matchGraphs(a->graph(), b->graph(), structureOnly);
      blind.push_back(msSince(t0));
      pairedBlind = ms.pairCount();
      t0 = SteadyClock::now();
      const auto d = diff::diffModels(*a, *b);
      whole.push_back(msSince(t0));
      const auto c = d.counts();
      changed = c.changed;
      only = c.onlyA + c.onlyB;
    }
    std::printf("%-8zu %8zu %8zu %9.1f ms %9.1f ms %9.1f ms %9.1f ms %8zu %8zu %8zu %8zu   (name join: %zu)\n", size,
                a->graph().nodeCount(), b->graph().nodeCount(), median(join), median(match), median(blind),
                median(whole), paired, pairedBlind, changed, only, found);
  }
  return 0;
}
